#version 450
// Nested loops: divergent continue of the outer loop, divergent break of the inner loop
// (two different exits), and a divergent break of the outer loop.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer I { uint d[]; };
layout(std430, set = 0, binding = 1) writeonly buffer O { uint o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint x = d[i];
    uint acc = 0u;
    for (uint a = 0u; a < 8u; a++) {
        if (((x >> a) & 1u) == 1u) {
            continue;
        }
        for (uint b = 0u; b < 12u; b++) {
            if (b > (x & 7u) + a) {
                break;
            }
            acc += a * 16u + b;
            if (acc > 300u + (x & 255u)) {
                acc += 1000u;
                break;
            }
        }
        if (acc > 2000u) {
            break;
        }
    }
    o[i] = acc;
}
