#version 450
// Integer hashing: eight rounds of a PCG-style permutation and a xorshift mix per lane,
// stressing wrapping 32-bit multiplies, xors and variable shifts in a uniform loop.
layout(local_size_x = 128) in;
layout(std430, set = 0, binding = 0) buffer D { uint d[]; };
uint pcg(uint v) {
    uint state = v * 747796405u + 2891336453u;
    uint word = ((state >> ((state >> 28u) + 4u)) ^ state) * 277803737u;
    return (word >> 22u) ^ word;
}
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint h = d[i];
    for (int r = 0; r < 8; r++) {
        h = pcg(h ^ uint(r));
        h ^= h << 13;
        h ^= h >> 17;
        h ^= h << 5;
    }
    d[i] = h;
}
