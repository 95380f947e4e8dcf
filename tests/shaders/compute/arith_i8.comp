#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require
#extension GL_EXT_shader_8bit_storage : require
// 8-bit integer arithmetic on 8-bit storage: wrapping add/sub/mul, unsigned division,
// shifts, bitwise ops, min/max, and widening (sign and zero extension) to 32 bits.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer A { uint8_t a[]; };
layout(std430, set = 0, binding = 1) readonly buffer B { uint8_t b[]; };
layout(std430, set = 0, binding = 2) writeonly buffer O { uint8_t o[]; };
layout(std430, set = 0, binding = 3) writeonly buffer W { int w[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint8_t x = a[i];
    uint8_t y = b[i];
    int8_t sx = int8_t(x);
    int8_t sy = int8_t(y);
    uint k = i * 8u;
    o[k + 0] = x + y;
    o[k + 1] = x - y;
    o[k + 2] = x * y;
    o[k + 3] = x / (y | uint8_t(1));
    o[k + 4] = uint8_t(sx >> (sy & int8_t(7)));
    o[k + 5] = (x << (y & uint8_t(7))) ^ (x & ~y);
    o[k + 6] = uint8_t(min(sx, sy));
    o[k + 7] = max(x, y);
    w[i] = int(sx) * 1000 + int(x);
}
