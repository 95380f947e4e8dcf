#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_shader_atomic_int64 : require
// 64-bit buffer atomics: add (with carries across the 32-bit halves), signed min/max,
// and, or, xor.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer I { uint64_t d[]; };
layout(std430, set = 0, binding = 1) buffer A {
    uint64_t sum;
    int64_t mn;
    int64_t mx;
    uint64_t andv;
    uint64_t orv;
    uint64_t xorv;
};
void main() {
    uint64_t x = d[gl_GlobalInvocationID.x];
    atomicAdd(sum, x);
    atomicMin(mn, int64_t(x));
    atomicMax(mx, int64_t(x));
    atomicAnd(andv, x | 0xf0f0f0f000000000ul);
    atomicOr(orv, x & 0x00000000ff00ff00ul);
    atomicXor(xorv, x);
}
