#version 450
// Nested divergent if/else chains, three levels deep, with lane-dependent conditions on
// both the data and the invocation index.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer I { int d[]; };
layout(std430, set = 0, binding = 1) writeonly buffer O { int o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    int x = d[i];
    int r = 0;
    if (x > 0) {
        if ((x & 1) == 0) {
            r = x / 2;
            if (x > 1000) {
                r += 7;
            } else {
                r -= 3;
            }
        } else {
            r = 3 * x + 1;
        }
    } else if (x < -500) {
        r = -x;
        if ((i & 3u) == 1u) {
            r ^= 0x55;
        }
    } else {
        r = x * x;
        if (r > 10000) {
            r = 10000;
        } else if (r == 0) {
            r = -1;
        }
    }
    o[i] = r;
}
