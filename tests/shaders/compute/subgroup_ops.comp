#version 450
// Every reduction / scan operation on int, uint and float not covered by subgroup_reduce /
// subgroup_scan, the uniform-operand fast paths (also under divergent control), and the
// constant shuffle patterns (xor 2 / 4 / half the subgroup, quad operations).
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_shader_subgroup_quad : require
#extension GL_KHR_shader_subgroup_basic : require
layout(local_size_x = 128) in;
layout(std430, set = 0, binding = 0) readonly buffer I { uint d[]; };
layout(std430, set = 0, binding = 1) writeonly buffer O { uint o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint x = d[i];
    int s = int(x);
    float f = float(int(x & 15u) - 7);
    uint q = x & 3u;
    float g = q == 0u ? 0.5 : (q == 1u ? -1.0 : (q == 2u ? 2.0 : 1.0));
    uint w = gl_WorkGroupID.x;
    uint k = i * 24u;
    o[k + 0u] = subgroupMul((x & 6u) | 1u);
    o[k + 1u] = uint(subgroupMax(s));
    o[k + 2u] = subgroupInclusiveMul(((x >> 4u) & 2u) | 1u);
    o[k + 3u] = floatBitsToUint(subgroupMul(g));
    o[k + 4u] = floatBitsToUint(subgroupMin(f));
    o[k + 5u] = floatBitsToUint(subgroupMax(f));
    o[k + 6u] = floatBitsToUint(subgroupInclusiveAdd(f));
    o[k + 7u] = floatBitsToUint(subgroupExclusiveMax(f));
    o[k + 8u] = uint(subgroupInclusiveMin(s));
    o[k + 9u] = subgroupExclusiveAnd(x);
    o[k + 10u] = uint(subgroupExclusiveMax(s));
    o[k + 11u] = subgroupExclusiveMul((x & 2u) | 1u);
    o[k + 12u] = subgroupAdd(5u) + subgroupXor(7u) * 1000u;
    o[k + 13u] = subgroupExclusiveAdd(3u) + subgroupInclusiveAdd(w + 1u) * 1000u;
    o[k + 14u] = subgroupMax(w + 7u) + subgroupAnd(w + 9u) * 100u;
    if ((x & 1u) != 0u) {
        o[k + 15u] = subgroupAdd(9u);
    } else {
        o[k + 15u] = subgroupInclusiveAdd(2u) + 1000u * subgroupMin(x & 255u);
    }
    o[k + 16u] = subgroupShuffleXor(x, gl_SubgroupSize / 2u);
    o[k + 17u] = subgroupShuffleXor(x, 2u);
    o[k + 18u] = subgroupShuffleXor(x, 4u);
    o[k + 19u] = subgroupQuadBroadcast(x, 2u);
    o[k + 20u] = subgroupQuadSwapHorizontal(x);
    o[k + 21u] = subgroupQuadSwapVertical(x);
    o[k + 22u] = subgroupQuadSwapDiagonal(x);
    o[k + 23u] = floatBitsToUint(subgroupExclusiveMul(g)) ^ uint(subgroupInclusiveMax(s));
}
