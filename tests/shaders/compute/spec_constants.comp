#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
// Specialization constants of each kind: uint, int, bool, float, uint64, one left at its
// default, and a spec-constant expression (KK) used as an array size.
layout(local_size_x = 64) in;
layout(constant_id = 0) const uint K = 3u;
layout(constant_id = 1) const int S = -2;
layout(constant_id = 2) const bool FLAG = false;
layout(constant_id = 3) const float F = 1.5;
layout(constant_id = 4) const uint64_t BIG = 1ul;
layout(constant_id = 5) const uint UNSET = 11u;
const uint KK = K * 2u + 1u;
layout(std430, set = 0, binding = 0) writeonly buffer O { uint o[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Q { uint64_t q[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint table[KK];
    for (uint k = 0u; k < KK; k++) {
        table[k] = k * k + i;
    }
    uint v = i * KK + uint(S);
    if (FLAG) {
        v ^= 0xffu;
    }
    o[i * 4u + 0u] = v;
    o[i * 4u + 1u] = floatBitsToUint(float(i) * F);
    o[i * 4u + 2u] = UNSET + (i % K);
    o[i * 4u + 3u] = table[i % KK];
    q[i] = BIG * uint64_t(i) + uint64_t(K);
}
