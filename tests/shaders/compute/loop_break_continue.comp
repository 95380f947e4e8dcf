#version 450
// A loop whose lanes leave at different iterations: continue on an index pattern, break on
// a data-dependent accumulator, continue on a data-dependent pattern. The final counter is
// live out of the loop.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer I { int d[]; };
layout(std430, set = 0, binding = 1) writeonly buffer O { int o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    int x = d[i];
    int acc = 0;
    int k;
    for (k = 0; k < 100; k++) {
        if (k % 3 == 2) {
            continue;
        }
        acc += k * x;
        if (acc > 5000) {
            break;
        }
        if (((k + x) & 7) == 0) {
            continue;
        }
        acc ^= k;
    }
    o[i * 2u] = acc;
    o[i * 2u + 1u] = k;
}
