#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_shader_subgroup_shuffle_relative : require
#extension GL_KHR_shader_subgroup_clustered : require
#extension GL_KHR_shader_subgroup_quad : require
// Every GroupNonUniform class: basic, vote, ballot, arithmetic, shuffle, clustered, quad.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer B { uint u[256]; float f[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint x = u[i];
    float y = float(x);
    bool e = subgroupElect();
    bool all_ = subgroupAll(x > 3u), any_ = subgroupAny(x == 7u), eq = subgroupAllEqual(x);
    uvec4 bal = subgroupBallot(x > 10u);
    uint cnt = subgroupBallotBitCount(bal) + subgroupBallotInclusiveBitCount(bal) + subgroupBallotExclusiveBitCount(bal);
    uint lsb = subgroupBallotFindLSB(bal) + subgroupBallotFindMSB(bal);
    bool bit = subgroupBallotBitExtract(bal, 5u) || subgroupInverseBallot(bal);
    uint bc = subgroupBroadcast(x, 3u) + subgroupBroadcastFirst(x);
    uint ar = subgroupAdd(x) + subgroupMul(x) + subgroupMin(x) + subgroupMax(x) + subgroupAnd(x) + subgroupOr(x) + subgroupXor(x)
            + subgroupInclusiveAdd(x) + subgroupExclusiveAdd(x) + subgroupInclusiveMax(x);
    float fa = subgroupAdd(y) + subgroupMin(y) + subgroupExclusiveMul(y);
    uint sh = subgroupShuffle(x, 1u) + subgroupShuffleXor(x, 2u) + subgroupShuffleUp(x, 1u) + subgroupShuffleDown(x, 1u);
    uint cl = subgroupClusteredAdd(x, 4u) + subgroupClusteredMax(x, 8u);
    uint q = subgroupQuadBroadcast(x, 2u) + subgroupQuadSwapHorizontal(x) + subgroupQuadSwapVertical(x) + subgroupQuadSwapDiagonal(x);
    bool land = subgroupAnd(x > 1u);
    u[i] = cnt + lsb + bc + ar + sh + cl + q + gl_SubgroupSize + gl_SubgroupInvocationID + gl_NumSubgroups + gl_SubgroupID
         + uint(e) + uint(all_) + uint(any_) + uint(eq) + uint(bit) + uint(land) + gl_SubgroupEqMask.x + gl_SubgroupLtMask.x;
    f[i] = fa;
}
