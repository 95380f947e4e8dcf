#version 450
// 64-bit integer images (Int64ImageEXT): atomics on r64ui and r64i images whose results need
// all 64 bits (carries out of the low dword, signed and unsigned order across the halves),
// compare-and-swap and exchange whose returned values are deterministic (one invocation per
// texel compares with the initial value), and imageLoad / imageStore of whole 64-bit texels.
#extension GL_EXT_shader_image_int64 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, r64ui) uniform u64image2D sums;
layout(set = 0, binding = 1, r64i) uniform i64image2D signed_;
layout(set = 0, binding = 2, r64ui) uniform u64image2D claims;
layout(set = 0, binding = 3, r64ui) uniform u64image2D rw;
layout(set = 0, binding = 4) buffer Old { uint64_t old[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    ivec2 p = ivec2(i % 8u, (i / 8u) % 8u);
    // the low dwords of four invocations overflow into the high dword
    imageAtomicAdd(sums, p, (uint64_t(i) << 32) | uint64_t(i * 2654435761u));
    imageAtomicMax(sums, p + ivec2(0, 8), uint64_t(i * 40503u) << 24 | uint64_t(i));
    imageAtomicAnd(sums, p + ivec2(0, 16), ~(1ul << (i / 64u + 40u)) & ~(1ul << (i % 7u)));
    imageAtomicOr(sums, p + ivec2(0, 24), (1ul << (i / 64u + 33u)) | uint64_t(i));
    imageAtomicXor(sums, p + ivec2(0, 32), uint64_t(i) * 0x9e3779b97f4a7c15ul);
    // signed order: values straddle zero, and the high dwords decide
    int64_t s = int64_t(i) * 0x100000001l - 0x8000000080l;
    imageAtomicMin(signed_, p, s);
    imageAtomicMax(signed_, p + ivec2(0, 8), -s);
    // compare-and-swap: only the first 64 invocations can match (the texels start at 0)
    uint64_t v = (uint64_t(i + 1u) << 32) | uint64_t(~i);
    if (i < 64u) {
        old[i] = imageAtomicCompSwap(claims, p, 0ul, v);
    } else if (i < 128u) {
        // never matches; which value it sees depends on the order of the workgroups
        old[i] = imageAtomicCompSwap(claims, p, ~0ul, v) == ~0ul ? 1ul : 0ul;
    } else if (i < 192u) {
        old[i] = imageAtomicExchange(claims, p + ivec2(0, 8), v);
    } else {
        // load, change both halves, store: one invocation per texel
        uint64_t t = imageLoad(rw, p).x;
        imageStore(rw, p, u64vec4(t + 0xffffffffful + uint64_t(i)));
        old[i] = t;
    }
}
