#version 450
// Wide multiplies and carries: umulExtended, imulExtended, uaddCarry, usubBorrow.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(std430, set = 0, binding = 1) readonly buffer B { uint b[]; };
layout(std430, set = 0, binding = 2) writeonly buffer O { uint o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint x = a[i];
    uint y = b[i];
    uint k = i * 8u;
    uint hi, lo, c, br;
    umulExtended(x, y, hi, lo);
    o[k + 0] = hi;
    o[k + 1] = lo;
    int shi, slo;
    imulExtended(int(x), int(y), shi, slo);
    o[k + 2] = uint(shi);
    o[k + 3] = uint(slo);
    o[k + 4] = uaddCarry(x, y, c);
    o[k + 5] = c;
    o[k + 6] = usubBorrow(x, y, br);
    o[k + 7] = br;
}
