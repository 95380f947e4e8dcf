#version 450
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_8bit_storage : require
#extension GL_EXT_shader_16bit_storage : require
// 8- and 16-bit loads and stores through buffer device addresses: each lane reads the
// even element of its pair and writes the odd one (the neighbour in the same dword),
// sign-extends an i8 and an i16, and reverses a u8vec4 in place.
layout(local_size_x = 64) in;
layout(buffer_reference, std430, buffer_reference_align = 1) buffer Bytes { uint8_t b[]; };
layout(buffer_reference, std430, buffer_reference_align = 2) buffer Shorts { uint16_t h[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) buffer Vecs { u8vec4 v[]; };
layout(push_constant) uniform P {
    Bytes bytes;
    Shorts shorts;
    Vecs vecs;
} pc;
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint8_t x = pc.bytes.b[2u * i];
    uint16_t y = pc.shorts.h[2u * i];
    pc.bytes.b[2u * i + 1u] = x * uint8_t(3) + uint8_t(i);
    int s = int(int8_t(x)) * 100 + int(int16_t(y));
    pc.shorts.h[2u * i + 1u] = uint16_t(s);
    pc.vecs.v[i] = pc.vecs.v[i].wzyx;
}
