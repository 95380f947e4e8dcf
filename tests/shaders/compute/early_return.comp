#version 450
// Early returns: some lanes return before any store (their output keeps the host's
// initial value), others return from inside a loop after storing.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer I { uint d[]; };
layout(std430, set = 0, binding = 1) buffer O { uint o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint x = d[i];
    if ((x & 3u) == 0u) {
        return;
    }
    o[i] = x * 3u;
    for (uint k = 0u; k < (x & 15u); k++) {
        if (k == 7u) {
            return;
        }
        o[i] += k;
    }
    o[i] ^= 0xf0f0u;
}
