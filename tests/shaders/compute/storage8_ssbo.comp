#version 450
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_8bit_storage : require
// 8-bit storage buffers: u8vec4 and i8 loads (sign extension of a loaded byte), byte
// stores with wrap-around, a u8vec4 store, and stores next to bytes nobody writes: byte 3
// of every lane's word and the even bytes of `pairs` (written by other lanes' neighbours)
// keep their initial contents.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer In { u8vec4 v[]; } inp;
layout(std430, set = 0, binding = 1) readonly buffer InS { int8_t s[]; } ins;
layout(std430, set = 0, binding = 2) buffer Out { uint8_t o[]; };
layout(std430, set = 0, binding = 3) writeonly buffer Out4 { u8vec4 w[]; };
layout(std430, set = 0, binding = 4) buffer Pairs { uint8_t pairs[]; };
layout(std430, set = 0, binding = 5) writeonly buffer Wide { int x[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    u8vec4 v = inp.v[i];
    int8_t s = ins.s[i];
    o[4u * i + 0u] = v.x + v.y;
    o[4u * i + 1u] = uint8_t(s);
    o[4u * i + 2u] = v.w ^ uint8_t(i);
    w[i] = v.wzyx + u8vec4(1);
    pairs[2u * i + 1u] = uint8_t(i * 7u) - v.z;
    x[i] = int(s) * 3 + int(v.z);
}
