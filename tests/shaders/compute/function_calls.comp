#version 450
// Functions: a loop with a modulo (gcd), inout parameters, and a function with several
// returns, all called with divergent arguments.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer I { uint d[]; };
layout(std430, set = 0, binding = 1) writeonly buffer O { uint o[]; };
uint gcd(uint a, uint b) {
    while (b != 0u) {
        uint t = a % b;
        a = b;
        b = t;
    }
    return a;
}
void minmax(inout uint a, inout uint b) {
    if (a > b) {
        uint t = a;
        a = b;
        b = t;
    }
}
int classify(int v) {
    if (v < 0) {
        return -1;
    }
    if (v == 0) {
        return 0;
    }
    if (v > 100) {
        return 2;
    }
    return 1;
}
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint a = d[i * 2u];
    uint b = d[i * 2u + 1u];
    minmax(a, b);
    o[i * 4u + 0u] = a;
    o[i * 4u + 1u] = b;
    o[i * 4u + 2u] = gcd(a, b);
    o[i * 4u + 3u] = uint(classify(int(a) - 50));
}
