#version 450
// Unsigned 32-bit arithmetic and bit operations: division and modulo, bitfieldExtract
// (unsigned and sign-extending), bitfieldInsert, bitCount, findLSB, findMSB (signed and
// unsigned), bitfieldReverse, rotate built from shifts, unsigned comparisons.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(std430, set = 0, binding = 1) readonly buffer B { uint b[]; };
layout(std430, set = 0, binding = 2) writeonly buffer O { uint o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint x = a[i];
    uint y = b[i];
    uint k = i * 14u;
    int off = int(y & 15u);
    int bits = int((y >> 4) & 15u);
    uint r = y & 31u;
    o[k + 0] = x / (y | 1u);
    o[k + 1] = x % (y | 1u);
    o[k + 2] = bitfieldExtract(x, off, bits);
    o[k + 3] = uint(bitfieldExtract(int(x), off, bits));
    o[k + 4] = bitfieldInsert(x, y, off, bits);
    o[k + 5] = uint(bitCount(x));
    o[k + 6] = uint(findLSB(x & y));
    o[k + 7] = uint(findMSB(x >> r));
    o[k + 8] = uint(findMSB(int(x)));
    o[k + 9] = bitfieldReverse(x);
    o[k + 10] = (x << r) | (x >> ((32u - r) & 31u));
    o[k + 11] = (x < y ? 1u : 0u) | (x > y ? 2u : 0u) | (x <= y ? 4u : 0u) | (x != y ? 8u : 0u);
    o[k + 12] = min(x, y) + max(x, y) * 3u;
    o[k + 13] = clamp(x, 1000u, 4000000000u) - y;
}
