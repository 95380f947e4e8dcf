#version 450
#extension GL_ARB_sparse_texture2 : require
// Sparse-residency reads (SparseResidency): sparseTexelFetchARB (levels 0 and 1),
// sparseTextureLodARB, sparseTextureGatherARB, sparseImageLoadARB of an rgba8 and an r32ui
// storage image, and sparseTexelsResidentARB. Every image here is fully resident: each
// residency code reads 0 (resident) and each texel as the plain read gives it; the level-1
// fetch keeps only its code. Lavapipe 22.3 has no sparseResidency feature: the case is
// checked against its Rust expectation alone (corpus::LAVAPIPE_LACKS).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(set = 0, binding = 1, rgba8) uniform readonly image2D img;
layout(set = 0, binding = 2, r32ui) uniform readonly uimage2D uimg;
layout(set = 0, binding = 3) buffer Texels { vec4 t[]; };
layout(set = 0, binding = 4) buffer Codes { uint c[]; };

void main() {
    uint i = gl_LocalInvocationIndex;
    ivec2 p = ivec2(i % 8u, i / 8u);
    vec2 uv = (vec2(p) + vec2(0.25, 0.75)) / 8.0; // nearest: texel p
    vec2 guv = (vec2(p) + vec2(0.75)) / 8.0;      // gather footprint from texel p
    vec4 a, b, g, s, unused;
    uvec4 u;
    int ca = sparseTexelFetchARB(tex, p, 0, a);
    int cb = sparseTextureLodARB(tex, uv, 0.0, b);
    int cg = sparseTextureGatherARB(tex, guv, g, 1);
    int cs = sparseImageLoadARB(img, p, s);
    int cu = sparseImageLoadARB(uimg, p, u);
    int cl = sparseTexelFetchARB(tex, p / 2, 1, unused);
    t[4u * i + 0u] = a;
    t[4u * i + 1u] = b;
    t[4u * i + 2u] = g;
    t[4u * i + 3u] = s;
    bool all = sparseTexelsResidentARB(ca) && sparseTexelsResidentARB(cb)
        && sparseTexelsResidentARB(cg) && sparseTexelsResidentARB(cs)
        && sparseTexelsResidentARB(cu) && sparseTexelsResidentARB(cl);
    c[8u * i + 0u] = uint(ca);
    c[8u * i + 1u] = uint(cb);
    c[8u * i + 2u] = uint(cg);
    c[8u * i + 3u] = uint(cs);
    c[8u * i + 4u] = uint(cu);
    c[8u * i + 5u] = uint(cl);
    c[8u * i + 6u] = u.x;
    c[8u * i + 7u] = all ? 1u : 0u;
}
