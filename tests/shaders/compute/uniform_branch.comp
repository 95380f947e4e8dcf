#version 450
// Uniform control flow: branches on push constants and on the workgroup id, and a uniform
// loop with a uniform break, mixed with divergent data.
layout(local_size_x = 64) in;
layout(push_constant) uniform P {
    uint mode;
    uint limit;
} pc;
layout(std430, set = 0, binding = 0) readonly buffer I { uint d[]; };
layout(std430, set = 0, binding = 1) writeonly buffer O { uint o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint wg = gl_WorkGroupID.x;
    uint x = d[i];
    uint r;
    if (pc.mode == 1u) {
        r = x + wg;
    } else {
        r = x * 2u;
    }
    if (wg == 2u) {
        r ^= 0xffffu;
    }
    uint s = 0u;
    for (uint k = 0u; k < 64u; k++) {
        if (k == pc.limit) {
            break;
        }
        s += k * wg;
    }
    o[i] = r + s;
}
