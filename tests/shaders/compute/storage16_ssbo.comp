#version 450
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_16bit_storage : require
// 16-bit storage buffers: a std430 struct mixing u16, i16, f16vec2 and f16vec3 (at offsets
// 0, 2, 4, 8, with a u16 after the vec3 at 14), read whole and written member by member.
// Only h3.xz is written, so h3.y and the trailing u16 keep their initial contents.
layout(local_size_x = 64) in;
struct S {
    uint16_t a;
    int16_t b;
    f16vec2 h2;
    f16vec3 h3;
    uint16_t c;
};
layout(std430, set = 0, binding = 0) readonly buffer In { S s[]; } inp;
layout(std430, set = 0, binding = 1) buffer Out { S t[]; } outp;
layout(std430, set = 0, binding = 2) writeonly buffer W { int w[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    S x = inp.s[i];
    outp.t[i].a = x.a * uint16_t(3) + uint16_t(i);
    outp.t[i].b = -x.b;
    outp.t[i].h2 = x.h2.yx + float16_t(1.0);
    outp.t[i].h3.xz = x.h3.zx * float16_t(2.0);
    w[2u * i] = int(x.b) * 5 + int(x.a) + int(x.c);
    w[2u * i + 1u] = int(float(x.h3.y) * 4.0);
}
