#version 450
#extension GL_ARB_gpu_shader_int64 : require
// Double-precision and 64-bit integer arithmetic in a vertex shader.
layout(location = 0) in vec4 pos;
layout(location = 0) out vec4 o;
layout(set = 0, binding = 0) uniform U { dvec4 scale; uint64_t seed; };
void main() {
    dvec4 p = dvec4(pos) * scale;
    uint64_t h = seed * 6364136223846793005UL + uint64_t(gl_VertexIndex);
    h ^= h >> 33;
    o = vec4(float(h & 0xffffUL), float(p.w), 0.0, 1.0);
    gl_Position = vec4(p);
}
