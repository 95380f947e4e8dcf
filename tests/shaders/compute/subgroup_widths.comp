#version 450
// Subgroup operations on 8-, 16- and 64-bit values (uint8/int8, uint16/int16, float16,
// uint64/int64, double): shuffles by constant, computed and relative index, broadcast,
// broadcast-first, quad operations, reductions, inclusive / exclusive scans, all-equal
// votes and the uniform-operand paths. f16 and f64 data are small integers, halves and
// quarters, so every sum and product is exact in any order. The clustered reductions are
// in subgroup_widths_clustered.comp (lavapipe 22.3 has no clustered operations; without
// them this shader runs there).
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_shader_subgroup_shuffle_relative : require
#extension GL_KHR_shader_subgroup_quad : require
#extension GL_EXT_shader_subgroup_extended_types_int8 : require
#extension GL_EXT_shader_subgroup_extended_types_int16 : require
#extension GL_EXT_shader_subgroup_extended_types_int64 : require
#extension GL_EXT_shader_subgroup_extended_types_float16 : require
#extension GL_EXT_shader_explicit_arithmetic_types : require
layout(local_size_x = 128) in;
layout(std430, set = 0, binding = 0) readonly buffer I { uint d[]; };
layout(std430, set = 0, binding = 1) writeonly buffer O { uint o[]; };

uint hb(float16_t v) { return uint(float16BitsToUint16(v)); }
void put64(uint k, uint64_t v) {
    uvec2 p = unpackUint2x32(v);
    o[k] = p.x;
    o[k + 1u] = p.y;
}

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint x = d[i];
    uint lane = gl_SubgroupInvocationID;
    uint sz = gl_SubgroupSize;
    uint w = gl_WorkGroupID.x;
    uint16_t h = uint16_t(x);
    int16_t sh = int16_t(x >> 16u);
    uint8_t b = uint8_t(x >> 8u);
    int8_t sb = int8_t(x >> 24u);
    float16_t f = float16_t(int(x & 15u) - 7);
    uint q = x & 3u;
    float16_t g = q == 0u ? 0.5hf : (q == 1u ? -1.0hf : (q == 2u ? 2.0hf : 1.0hf));
    uint64_t l = packUint2x32(uvec2(x * 2654435761u, x ^ 0x9e3779b9u));
    int64_t sl = int64_t(l);
    double fd = double(int(x & 255u) - 100) * 0.25;
    double gd = double(g);
    uint k = i * 58u;

    o[k + 0u] = uint(subgroupShuffleXor(h, 1u));
    o[k + 1u] = uint(subgroupShuffleXor(h, 5u));
    o[k + 2u] = hb(subgroupShuffleXor(f, sz / 2u));
    o[k + 3u] = uint(int(subgroupShuffle(sh, (lane * 5u + 3u) % sz)));
    uint8_t up = subgroupShuffleUp(b, 2u);
    o[k + 4u] = lane >= 2u ? uint(up) : 0xffffu;
    int8_t down = subgroupShuffleDown(sb, 3u);
    o[k + 5u] = lane + 3u < sz ? uint(int(down)) : 0xeeeeu;
    o[k + 6u] = uint(subgroupBroadcast(h, 3u));
    o[k + 7u] = uint(int(subgroupBroadcastFirst(sh)));
    o[k + 8u] = hb(subgroupQuadBroadcast(f, 1u));
    o[k + 9u] = uint(subgroupQuadSwapDiagonal(b));
    o[k + 10u] = uint(subgroupAdd(h));
    o[k + 11u] = uint(int(subgroupMin(sh)));
    o[k + 12u] = uint(subgroupMax(h));
    o[k + 13u] = uint(int(subgroupMax(sb)));
    o[k + 14u] = uint(subgroupMin(b));
    o[k + 15u] = hb(subgroupAdd(f));
    o[k + 16u] = hb(subgroupInclusiveAdd(f));
    o[k + 17u] = uint(int(subgroupExclusiveMin(sh)));
    o[k + 18u] = uint(subgroupXor(h)) | (uint(subgroupOr(b)) << 16u) | (uint(subgroupAnd(b)) << 24u);
    o[k + 19u] = uint(int(subgroupInclusiveMax(sb)));
    o[k + 20u] = uint(subgroupExclusiveAdd(b));
    o[k + 21u] = uint(subgroupMul(h | uint16_t(1u)));
    o[k + 22u] = uint(subgroupAllEqual(uint16_t(w + 1u)))
        | (uint(subgroupAllEqual(h)) << 1u)
        | (uint(subgroupAllEqual(float16_t(w) * 0.5hf)) << 2u)
        | (uint(subgroupAllEqual(f)) << 3u)
        | (uint(subgroupAllEqual(uint64_t(w) << 33u)) << 4u)
        | (uint(subgroupAllEqual(l)) << 5u)
        | (uint(subgroupAllEqual(double(w) * 0.5)) << 6u)
        | (uint(subgroupAllEqual(fd)) << 7u)
        | (uint(subgroupAllEqual(int8_t(w) - int8_t(3))) << 8u);
    put64(k + 23u, subgroupShuffleXor(l, 3u));
    put64(k + 25u, subgroupShuffle(l, (lane * 3u + 1u) % sz));
    put64(k + 27u, subgroupAdd(l));
    put64(k + 29u, uint64_t(subgroupMin(sl)));
    put64(k + 31u, subgroupInclusiveAdd(l));
    put64(k + 33u, subgroupExclusiveMax(l));
    put64(k + 35u, doubleBitsToUint64(subgroupAdd(fd)));
    put64(k + 37u, subgroupXor(l));
    put64(k + 39u, subgroupBroadcast(l, 5u));
    put64(k + 41u, subgroupQuadSwapHorizontal(l));
    put64(k + 43u, doubleBitsToUint64(subgroupMax(fd)));
    put64(k + 45u, uint64_t(subgroupInclusiveMin(sl)));
    // + 0.0: lane 0 gets the identity, whose sign Vulkan leaves open
    put64(k + 47u, doubleBitsToUint64(subgroupExclusiveAdd(fd) + 0.0));
    put64(k + 49u, doubleBitsToUint64(subgroupMul(gd)));
    put64(k + 51u, subgroupMin(l));
    put64(k + 53u, subgroupAnd(l | 0xffff0000ffff0000ul));
    o[k + 55u] = uint(subgroupAdd(uint16_t(w + 3u)));
    put64(k + 56u, subgroupMax(uint64_t(w + 1u) << 40u));
}
