#version 450
// Long image addresses: textureGrad on a 3D image (nine address VGPRs) and with an offset
// (ten), and on a layered shadow map with and without an offset (eight, nine: offset,
// compare, four derivatives, x, y, layer). GFX10.3's NSA form names each address; GFX11's
// names at most five, the fifth a tuple of the rest (partial NSA); GFX9 takes one tuple.
// The derivatives select level 0 or 1 exactly (rho 1 or 2), filtering is nearest and
// coordinates sit inside texels on both levels, so every result is exact.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform sampler3D vol;
layout(set = 0, binding = 1) uniform sampler2DArrayShadow depth;
layout(set = 0, binding = 2) buffer O { vec4 o[]; };

void main() {
    uint i = gl_LocalInvocationIndex;
    // level-1 texel p (4x4x4); (2p + 0.5) / 8 is inside level-0 texel 2p as well
    ivec3 p = ivec3(i % 4u, (i / 4u) % 4u, i / 16u);
    vec3 c = (vec3(p) * 2.0 + 0.5) / 8.0;
    float s = float(1u + (i & 1u)) / 8.0;
    vec3 dx = vec3(s, 0.0, 0.0), dy = vec3(0.0, s, 0.0);
    o[3u * i + 0u] = textureGrad(vol, c, dx, dy);
    o[3u * i + 1u] = textureGradOffset(vol, c, dx, dy, ivec3(1, 0, -1));
    // the shadow map: 8x8, two layers, one level
    vec2 uv = (vec2(i % 8u, i / 8u) + 0.5) / 8.0;
    float layer = float(i & 1u);
    float ref = float((i * 7u) % 64u) / 64.0 + 1.0 / 128.0;
    vec2 dx2 = vec2(s, 0.0), dy2 = vec2(0.0, s);
    float a = textureGrad(depth, vec4(uv, layer, ref), dx2, dy2);
    float b = textureGradOffset(depth, vec4(uv, layer, ref), dx2, dy2, ivec2(-1, 1));
    o[3u * i + 2u] = vec4(a, b, 0.0, 1.0);
}
