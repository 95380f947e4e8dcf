#version 450
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_8bit_storage : require
// 8/16-bit storage and arithmetic, f16 math, int64, conversions and bitcasts between sizes.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer B { float16_t h[]; };
layout(std430, set = 0, binding = 1) buffer C { int8_t c[]; };
layout(std430, set = 0, binding = 2) buffer D { uint16_t s[]; };
layout(std430, set = 0, binding = 3) buffer E { uint64_t l[128]; uint w[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    f16vec2 v = f16vec2(h[i], h[i + 1u]);
    v = v * float16_t(0.5) + sqrt(abs(v));
    h[i] = v.x + v.y;
    c[i] = int8_t(int(c[i]) * 3);
    s[i] = uint16_t(s[i] >> 1) + uint16_t(7);
    uint64_t q = l[i] * 3ul + uint64_t(s[i]);
    l[i] = q;
    w[i] = packFloat2x16(v) ^ uint(q >> 32) ^ pack32(u16vec2(s[i], s[i + 1u])) ^ pack32(i8vec4(c[i]));
}
