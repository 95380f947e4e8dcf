#version 450
#extension GL_KHR_shader_subgroup_basic : require
// Subgroup built-ins: size, invocation id, subgroup id, number of subgroups, elect. The
// results are a function of the subgroup size (lavapipe 8, AMD 32/64).
layout(local_size_x = 128) in;
layout(std430, set = 0, binding = 0) writeonly buffer O { uint o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    o[i * 4u + 0u] = gl_SubgroupSize;
    o[i * 4u + 1u] = gl_SubgroupInvocationID;
    o[i * 4u + 2u] = gl_SubgroupID;
    o[i * 4u + 3u] = gl_NumSubgroups + (subgroupElect() ? 1000u : 0u);
}
