#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
#extension GL_EXT_shader_16bit_storage : require
// 16-bit integer arithmetic on 16-bit storage: wrapping add/sub/mul, signed and unsigned
// division, shifts, bitwise ops, min/max, comparisons and widening to 32 bits.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer A { int16_t a[]; };
layout(std430, set = 0, binding = 1) readonly buffer B { int16_t b[]; };
layout(std430, set = 0, binding = 2) writeonly buffer O { int16_t o[]; };
layout(std430, set = 0, binding = 3) writeonly buffer W { int w[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    int16_t x = a[i];
    int16_t y = b[i];
    uint16_t ux = uint16_t(x);
    uint16_t uy = uint16_t(y);
    uint k = i * 10u;
    o[k + 0] = x + y;
    o[k + 1] = x - y;
    o[k + 2] = x * y;
    o[k + 3] = x / y;
    o[k + 4] = int16_t(ux / (uy | uint16_t(1)));
    o[k + 5] = x >> (y & int16_t(15));
    o[k + 6] = int16_t(ux << (uy & uint16_t(15)));
    o[k + 7] = (x & y) ^ (x | int16_t(0x0f0f));
    o[k + 8] = min(x, y) - max(x, y);
    o[k + 9] = int16_t(x < y) + int16_t(2) * int16_t(ux < uy);
    w[i] = int(x) * int(y) + int(ux);
}
