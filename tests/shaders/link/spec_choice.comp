#version 450
// Link-time specialization (tests/link_spec.rs): FAST picks one of two code paths (both
// compiled behind a branch on a relocated literal when unlinked), SCALE is arithmetic.
layout(local_size_x = 64) in;
layout(constant_id = 0) const bool FAST = false;
layout(constant_id = 1) const uint SCALE = 3u;
layout(std430, set = 0, binding = 0) readonly buffer B { uint v[]; };
layout(std430, set = 1, binding = 2) writeonly buffer O { uint o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint x = v[i];
    if (FAST) {
        o[i] = x * SCALE + 7u;
    } else {
        for (uint k = 0u; k < 3u; k++) {
            x = x * 31u + k;
        }
        o[i] = x ^ SCALE;
    }
}
