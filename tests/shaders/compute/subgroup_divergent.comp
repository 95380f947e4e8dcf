#version 450
#extension GL_KHR_shader_subgroup_arithmetic : require
// Subgroup reductions and scans inside divergent branches: each covers only the lanes
// active in its branch.
layout(local_size_x = 128) in;
layout(std430, set = 0, binding = 0) readonly buffer I { uint d[]; };
layout(std430, set = 0, binding = 1) writeonly buffer O { uint o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint x = d[i];
    if ((x % 3u) == 0u) {
        o[i * 2u] = subgroupAdd(x);
        o[i * 2u + 1u] = subgroupInclusiveAdd(1u);
    } else {
        o[i * 2u] = subgroupMax(x);
        o[i * 2u + 1u] = subgroupExclusiveAdd(x & 15u);
    }
}
