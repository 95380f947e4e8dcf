#version 450
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_shader_subgroup_shuffle_relative : require
#extension GL_KHR_shader_subgroup_basic : require
// Shuffles: by computed index, xor 1 and xor 6, up by 2 and down by 3 (lanes whose source
// is outside the subgroup select a constant instead of the undefined value).
layout(local_size_x = 128) in;
layout(std430, set = 0, binding = 0) readonly buffer I { uint d[]; };
layout(std430, set = 0, binding = 1) writeonly buffer O { uint o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint x = d[i];
    uint lane = gl_SubgroupInvocationID;
    uint sz = gl_SubgroupSize;
    uint k = i * 5u;
    o[k + 0u] = subgroupShuffle(x, (lane * 5u + 3u) % sz);
    o[k + 1u] = subgroupShuffleXor(x, 1u);
    o[k + 2u] = subgroupShuffleXor(x, 6u);
    uint up = subgroupShuffleUp(x, 2u);
    o[k + 3u] = lane >= 2u ? up : 0xffffu;
    uint down = subgroupShuffleDown(x, 3u);
    o[k + 4u] = lane + 3u < sz ? down : 0xeeeeu;
}
