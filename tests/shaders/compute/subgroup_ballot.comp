#version 450
#extension GL_KHR_shader_subgroup_ballot : require
// Ballot and its bit counts / scans / find / extract, and the ballot words themselves.
// Every 8th lane (offset 5) votes true, so each subgroup of 8 or more has a set bit.
layout(local_size_x = 128) in;
layout(std430, set = 0, binding = 0) readonly buffer I { uint d[]; };
layout(std430, set = 0, binding = 1) writeonly buffer O { uint o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint x = d[i];
    bool p = (x & 1u) == 1u || (i % 8u) == 5u;
    uvec4 b = subgroupBallot(p);
    uint k = i * 7u;
    o[k + 0u] = subgroupBallotBitCount(b);
    o[k + 1u] = subgroupBallotInclusiveBitCount(b);
    o[k + 2u] = subgroupBallotExclusiveBitCount(b);
    o[k + 3u] = subgroupBallotFindLSB(b);
    o[k + 4u] = subgroupBallotFindMSB(b) + (subgroupBallotBitExtract(b, gl_SubgroupInvocationID ^ 1u) ? 100u : 0u);
    o[k + 5u] = b.x;
    o[k + 6u] = b.y;
}
