#version 450
#extension GL_KHR_shader_subgroup_arithmetic : require
// Subgroup reductions: add, min, max, and, or, xor on uint, min on int, add on float
// (integer-valued, so exact in any order).
layout(local_size_x = 128) in;
layout(std430, set = 0, binding = 0) readonly buffer I { uint d[]; };
layout(std430, set = 0, binding = 1) writeonly buffer O { uint o[]; };
layout(std430, set = 0, binding = 2) writeonly buffer F { float f[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint x = d[i];
    uint k = i * 7u;
    o[k + 0u] = subgroupAdd(x);
    o[k + 1u] = subgroupMin(x);
    o[k + 2u] = subgroupMax(x);
    o[k + 3u] = subgroupAnd(x);
    o[k + 4u] = subgroupOr(x);
    o[k + 5u] = subgroupXor(x);
    o[k + 6u] = uint(subgroupMin(int(x)));
    f[i] = subgroupAdd(float(x & 255u) - 100.0);
}
