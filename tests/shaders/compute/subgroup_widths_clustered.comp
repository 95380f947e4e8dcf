#version 450
// Clustered subgroup reductions on 8-, 16- and 64-bit values (the clustered half of
// subgroup_widths.comp, apart because lavapipe 22.3 has no clustered operations): f16
// products of clusters of 4, u16 sums and f16 maxima of clusters of 8, a u64 product of
// clusters of 4 and an i64 maximum of clusters of 8. The f16 data are small integers and
// halves, so every result is exact in any order.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_clustered : require
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
    uint16_t h = uint16_t(x);
    float16_t f = float16_t(int(x & 15u) - 7);
    uint q = x & 3u;
    float16_t g = q == 0u ? 0.5hf : (q == 1u ? -1.0hf : (q == 2u ? 2.0hf : 1.0hf));
    uint64_t l = packUint2x32(uvec2(x * 2654435761u, x ^ 0x9e3779b9u));
    int64_t sl = int64_t(l);
    uint k = i * 7u;

    o[k + 0u] = hb(subgroupClusteredMul(g, 4u));
    o[k + 1u] = uint(subgroupClusteredAdd(h, 8u));
    o[k + 2u] = hb(subgroupClusteredMax(f, 8u));
    put64(k + 3u, subgroupClusteredMul(l | 1ul, 4u));
    put64(k + 5u, uint64_t(subgroupClusteredMax(sl, 8u)));
}
