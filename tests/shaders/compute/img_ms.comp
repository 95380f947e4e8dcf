#version 450
// Multisampled images read by a compute shader: texelFetch of every sample of a 4-sample
// RGBA8 UNORM sampled image, imageLoad of every sample of a 4-sample R32UI storage 2D
// array (both layers, samples in two orders) and of a 4-sample RGBA16F storage image,
// textureSamples and imageSamples. Every sample of every texel holds its own value.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform sampler2DMS t;                     // 4 x 4
layout(set = 0, binding = 1, r32ui) uniform readonly uimage2DMSArray u; // 4 x 4, 2 layers
layout(set = 0, binding = 2, rgba16f) uniform readonly image2DMS h;     // 4 x 4
layout(set = 0, binding = 3) buffer Out { uvec4 b[64]; vec4 c[64]; ivec4 n; } o;
layout(set = 0, binding = 4) buffer OutA { vec4 a[64]; } oa;

void main() {
    uint i = gl_LocalInvocationIndex;
    ivec2 p = ivec2(i % 4u, (i / 4u) % 4u);
    int s = int(i / 16u);
    oa.a[i] = texelFetch(t, p, s);
    o.b[i] = uvec4(imageLoad(u, ivec3(p, 0), s).x, imageLoad(u, ivec3(p, 1), 3 - s).x, 0u, 0u);
    o.c[i] = imageLoad(h, p, s);
    if (i == 0u) {
        o.n = ivec4(textureSamples(t), imageSamples(u), imageSamples(h), 0);
    }
}
