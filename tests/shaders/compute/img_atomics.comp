#version 450
// Image atomics on an r32ui image: every invocation adds, maxes, ors and xors into the
// texel of its index modulo 64; compare-and-swap claims a second image's texels (deterministically: only one
// invocation per texel compares with the initial value).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, r32ui) uniform uimage2D sums;
layout(set = 0, binding = 1, r32ui) uniform uimage2D claims;
layout(set = 0, binding = 2) buffer Won { uint won[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    ivec2 p = ivec2(i % 8u, (i / 8u) % 8u);
    imageAtomicAdd(sums, p, i);
    imageAtomicMax(sums, p + ivec2(0, 8), i * 2654435761u);
    imageAtomicOr(sums, p + ivec2(0, 16), 1u << (i / 64u));
    imageAtomicXor(sums, p + ivec2(0, 24), i * 40503u);
    // only the first 64 invocations can match (the texels start at 0 and never hold ~0)
    // (the comparator is uniform per branch: lavapipe mishandles a per-invocation one)
    uint swapped;
    if (i < 64u) {
        swapped = imageAtomicCompSwap(claims, p, 0u, i + 1u) == 0u ? 1u : 0u;
    } else {
        swapped = imageAtomicCompSwap(claims, p, 0xffffffffu, i + 1u) == 0xffffffffu ? 1u : 0u;
    }
    won[i] = swapped;
}
