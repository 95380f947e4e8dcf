#version 450
// Stores to storage images declared without a format (StorageImageWriteWithoutFormat):
// one shader, arrays bound with different formats (RGBA8 UNORM, RGBA8 SNORM, RGBA16F,
// A2B10G10R10 UNORM, R32F, RG16F; R32UI, RGBA8UI, RGBA32UI), the conversion chosen by
// each descriptor alone. The float values are 0, 1 and -1, exact in every format (the
// unsigned normalized ones clamp -1 to 0); the integer values fit 8 bits.
layout(local_size_x = 8, local_size_y = 4) in;
layout(set = 0, binding = 0) uniform writeonly image2D fout[6];
layout(set = 0, binding = 1) uniform writeonly uimage2D uout[3];

void main() {
    ivec2 p = ivec2(gl_LocalInvocationID.xy);
    uint i = gl_LocalInvocationIndex;
    for (int k = 0; k < 6; k++) {
        uint b = i + uint(k);
        vec4 v = vec4(uvec4(b, b >> 1, b >> 2, b >> 3) & 1u);
        imageStore(fout[k], p, (b & 16u) != 0u ? -v : v);
    }
    for (int k = 0; k < 3; k++) {
        imageStore(uout[k], p, uvec4(i, 3u * i, 255u - i, 7u * uint(k) + i));
    }
}
