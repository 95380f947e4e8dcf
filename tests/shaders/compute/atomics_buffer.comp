#version 450
// Buffer atomics whose final values do not depend on the order: add (histogram and sum),
// unsigned and signed min/max, and, or, xor.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer I { uint d[]; };
layout(std430, set = 0, binding = 1) buffer H {
    uint hist[16];
    uint total;
    uint mn;
    uint mx;
    uint andv;
    uint orv;
    uint xorv;
    int smin;
    int smax;
};
void main() {
    uint x = d[gl_GlobalInvocationID.x];
    atomicAdd(hist[x & 15u], 1u);
    atomicAdd(total, x >> 16);
    atomicMin(mn, x);
    atomicMax(mx, x);
    atomicAnd(andv, x | 0x0f0f0000u);
    atomicOr(orv, x & 0x00ff00ffu);
    atomicXor(xorv, x);
    atomicMin(smin, int(x));
    atomicMax(smax, int(x));
}
