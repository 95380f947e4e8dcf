#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
// 64-bit integer arithmetic: add/sub/mul (wrapping), signed and unsigned division and
// modulo, 64-bit shifts by variable amounts, bitwise ops, min/max, and conversions between
// 32- and 64-bit integers (sign and zero extension, truncation).
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer A { int64_t a[]; };
layout(std430, set = 0, binding = 1) readonly buffer B { int64_t b[]; };
layout(std430, set = 0, binding = 2) writeonly buffer O { int64_t o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    int64_t x = a[i];
    int64_t y = b[i];
    uint64_t ux = uint64_t(x);
    uint64_t uy = uint64_t(y);
    uint k = i * 12u;
    o[k + 0] = x + y;
    o[k + 1] = x - y;
    o[k + 2] = x * y;
    o[k + 3] = x / y;
    o[k + 4] = int64_t(ux / (uy | 1ul));
    o[k + 5] = int64_t(ux % (uy | 1ul));
    o[k + 6] = x >> (y & 63l);
    o[k + 7] = int64_t(ux >> (uy & 63ul)) ^ (x << ((y >> 8) & 63l));
    o[k + 8] = (x & y) | (~x ^ y);
    o[k + 9] = min(x, y) * 3l - max(x, y);
    o[k + 10] = int64_t(int(x)) + int64_t(uint(uint64_t(y)));
    o[k + 11] = int64_t(uint(ux >> 32)) * int64_t(int(y)) + (ux > uy ? 1l : 0l);
}
