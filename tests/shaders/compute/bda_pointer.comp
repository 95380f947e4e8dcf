#version 450
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
// Buffer device addresses: two buffers reached only through pointers in push constants; a
// struct array read and written back through a pointer, and pointer arithmetic on a
// 64-bit address. Lanes past `count` return early.
layout(local_size_x = 64) in;
struct Particle {
    vec4 pos;
    uint id;
    float mass;
};
layout(buffer_reference, std430, buffer_reference_align = 16) buffer Particles { Particle p[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) buffer Words { uint w[]; };
layout(push_constant) uniform P {
    Particles parts;
    Words words;
    uint count;
} pc;
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= pc.count) {
        return;
    }
    Particle q = pc.parts.p[i];
    q.pos.xyz += vec3(1.0, 2.0, 3.0) * q.mass;
    q.id ^= 0xabcdu;
    pc.parts.p[i] = q;
    Words w = Words(uint64_t(pc.words) + 4ul * uint64_t(i));
    w.w[0] = q.id + uint(q.pos.w);
}
