#version 450
// 64-, 96- and 128-bit texels: an RGBA32UI storage image read and written in place (each
// lane its own texel, every new component mixing two old ones, so a stale or misplaced z
// or w shows), RGBA32F 3D and RG32F 2D storage loads (RG32F stored back in place),
// an RGBA32F sampled image fetched and an RGB32F (96-bit) one sampled with nearest
// filtering at texel centres. Every value is exact.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, rgba32ui) uniform uimage2D u128;       // 8 x 8
layout(set = 0, binding = 1, rgba32f) uniform readonly image3D f128; // 4 x 4 x 4
layout(set = 0, binding = 2, rg32f) uniform image2D f64i;           // 8 x 8
layout(set = 0, binding = 3) uniform sampler2D s128;                // RGBA32F 8 x 8
layout(set = 0, binding = 4) uniform sampler2D s96;                 // RGB32F 8 x 8
layout(set = 0, binding = 5) buffer Out { vec4 o[64 * 4]; } outp;

void main() {
    uint i = gl_LocalInvocationIndex;
    ivec2 p = ivec2(i % 8u, i / 8u);
    uvec4 u = imageLoad(u128, p);
    imageStore(u128, p, uvec4(u.x + u.w, u.y ^ u.z, u.z * 3u + i, u.w - u.x));
    vec4 f = imageLoad(f128, ivec3(i % 4u, (i / 4u) % 4u, i / 16u));
    vec4 g = imageLoad(f64i, p);
    imageStore(f64i, p, vec4(g.y * 2.0, g.x - 1.0, 0.0, 0.0));
    vec2 uv = (vec2(p) + 0.5) / 8.0;
    outp.o[4u * i] = f;
    outp.o[4u * i + 1u] = g;
    outp.o[4u * i + 2u] = texelFetch(s128, p.yx, 0);
    outp.o[4u * i + 3u] = textureLod(s96, uv, 0.0);
}
