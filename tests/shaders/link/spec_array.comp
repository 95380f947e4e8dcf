#version 450
// A specialization constant that sizes an array: an unlinked compile that leaves it to
// the link stage must refuse (tests/link_spec.rs).
layout(local_size_x = 64) in;
layout(constant_id = 0) const uint N = 4u;
layout(std430, set = 0, binding = 0) buffer B { uint v[]; };
void main() {
    uint t[N];
    for (uint k = 0u; k < N; k++) t[k] = v[k];
    v[gl_GlobalInvocationID.x] = t[gl_GlobalInvocationID.x % N];
}
