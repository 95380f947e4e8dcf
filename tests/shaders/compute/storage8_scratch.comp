#version 450
#extension GL_EXT_shader_explicit_arithmetic_types : require
// Private arrays of 8- and 16-bit elements indexed by data: they live in scratch memory,
// written with byte/short stores (neighbours in the same dword must survive) and read
// back with zero-extending loads.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer In { uint d[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Out { uint o[]; };
void main() {
    uint g = gl_GlobalInvocationID.x;
    uint x = d[g];
    uint8_t a[16];
    uint16_t h[8];
    for (uint k = 0u; k < 16u; k++) {
        a[k] = uint8_t(x >> (k % 4u * 8u)) + uint8_t(k);
    }
    for (uint k = 0u; k < 8u; k++) {
        h[k] = uint16_t(x >> k);
    }
    a[x % 16u] = uint8_t(0xee);
    h[(x >> 4) % 8u] = uint16_t(g * 1000u);
    uint j = (x >> 8) % 16u;
    o[2u * g] = uint(a[j]) | (uint(a[(j + 1u) % 16u]) << 8) | (uint(a[(j + 5u) % 16u]) << 16)
        | (uint(a[15u - j]) << 24);
    uint m = (x >> 12) % 8u;
    o[2u * g + 1u] = uint(h[m]) | (uint(h[(m + 1u) % 8u]) << 16);
}
