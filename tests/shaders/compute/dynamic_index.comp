#version 450
// A private array indexed with data-dependent indices (read and read-modify-write), which
// a compiler must keep in indexable registers or scratch.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer I { uint d[]; };
layout(std430, set = 0, binding = 1) writeonly buffer O { uint o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint arr[16];
    uint s = d[i];
    for (int k = 0; k < 16; k++) {
        arr[k] = (s * uint(k + 1)) ^ (s >> k);
    }
    uint acc = 0u;
    for (int k = 0; k < 8; k++) {
        uint idx = (s >> (k * 4)) & 15u;
        acc += arr[idx];
        arr[(idx + 3u) & 15u] ^= acc;
    }
    o[i * 2u] = acc;
    o[i * 2u + 1u] = arr[s & 15u];
}
