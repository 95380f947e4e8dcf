#version 450
#extension GL_KHR_shader_subgroup_arithmetic : require
// Subgroup scans: inclusive and exclusive add, inclusive max, exclusive min (lane 0 gets
// the identity 0xffffffff), inclusive or, exclusive xor (lane 0 gets 0).
layout(local_size_x = 128) in;
layout(std430, set = 0, binding = 0) readonly buffer I { uint d[]; };
layout(std430, set = 0, binding = 1) writeonly buffer O { uint o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint x = d[i];
    uint k = i * 6u;
    o[k + 0u] = subgroupInclusiveAdd(x);
    o[k + 1u] = subgroupExclusiveAdd(x);
    o[k + 2u] = subgroupInclusiveMax(x);
    o[k + 3u] = subgroupExclusiveMin(x);
    o[k + 4u] = subgroupInclusiveOr(x);
    o[k + 5u] = subgroupExclusiveXor(x);
}
