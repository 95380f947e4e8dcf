#version 450
#extension GL_KHR_shader_subgroup_ballot : require
// Broadcast from a constant lane, broadcast-first in uniform and divergent control flow,
// and the lane masks (bit count of LtMask = lane index).
layout(local_size_x = 128) in;
layout(std430, set = 0, binding = 0) readonly buffer I { uint d[]; };
layout(std430, set = 0, binding = 1) writeonly buffer O { uint o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint x = d[i];
    uint k = i * 4u;
    o[k + 0u] = subgroupBroadcast(x, 3u);
    o[k + 1u] = subgroupBroadcastFirst(x);
    if ((x & 1u) == 0u) {
        o[k + 2u] = subgroupBroadcastFirst(x * 2u);
    } else {
        o[k + 2u] = subgroupBroadcastFirst(x + 1u);
    }
    o[k + 3u] = uint(bitCount(gl_SubgroupLtMask.x) + bitCount(gl_SubgroupLtMask.y)) + 256u * uint(bitCount(gl_SubgroupEqMask.x));
}
