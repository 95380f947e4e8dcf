#version 450
#extension GL_KHR_shader_subgroup_vote : require
// Votes: all, any, all-equal, on data arranged so that different subgroups disagree.
layout(local_size_x = 128) in;
layout(std430, set = 0, binding = 0) readonly buffer I { uint d[]; };
layout(std430, set = 0, binding = 1) writeonly buffer O { uint o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint x = d[i];
    o[i * 3u + 0u] = subgroupAll(x < 1000u) ? 1u : 0u;
    o[i * 3u + 1u] = subgroupAny(x == 7u) ? 1u : 0u;
    o[i * 3u + 2u] = subgroupAllEqual(x / 512u) ? 1u : 0u;
}
