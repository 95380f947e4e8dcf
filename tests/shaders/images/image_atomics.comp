#version 450
// Image atomics on r32ui / r32i 2D images whose results do not depend on the order:
// add, unsigned and signed min/max, and, or, xor; an exchange and a compare-swap of a
// texel each invocation owns, returning the old values.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, r32ui) uniform uimage2D counts;
layout(set = 0, binding = 1, r32i) uniform iimage2D signed_;
layout(set = 0, binding = 2, r32ui) uniform uimage2D own;
layout(std430, set = 0, binding = 3) buffer Out { uint old[]; };
void main() {
    uint x = gl_GlobalInvocationID.x;
    ivec2 q = ivec2(x & 3u, 0);
    imageAtomicAdd(counts, q, 1u);
    imageAtomicMin(counts, ivec2(0, 1), x);
    imageAtomicMax(counts, ivec2(1, 1), x);
    imageAtomicAnd(counts, ivec2(2, 1), ~(1u << (x & 31u)));
    imageAtomicOr(counts, ivec2(3, 1), 1u << (x & 31u));
    imageAtomicXor(counts, ivec2(0, 2), x);
    imageAtomicMin(signed_, ivec2(0, 0), int(x) - 32);
    imageAtomicMax(signed_, ivec2(1, 0), int(x) - 32);
    ivec2 mine = ivec2(x, 0);
    uint a = imageAtomicExchange(own, mine, x * 3u);
    uint b = imageAtomicCompSwap(own, mine, x * 3u, x + 7u);
    old[x] = a + (b << 16);
}
