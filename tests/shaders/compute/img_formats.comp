#version 450
// Sampled formats with packed or converted texels: A2B10G10R10 UNORM and UINT,
// B10G11R11 UFLOAT, R5G6B5 UNORM, R8G8B8A8 SNORM, R16G16B16A16 SNORM and R8G8B8A8 SRGB
// (converted to linear on read, before filtering). Each invocation fetches one texel of
// each (texelFetch: the format's conversion alone) and samples the float formats
// bilinearly half-way between four texels (the conversion, then the filter). SRGB results
// have their own buffer: lavapipe approximates the sRGB curve (within 2^-9 here).
layout(local_size_x = 16) in;
layout(set = 0, binding = 0) uniform sampler2D tex[5];   // 4 x 4 each, linear filtering
layout(set = 0, binding = 1) uniform usampler2D utex;    // A2B10G10R10 UINT, 4 x 4
layout(set = 0, binding = 2) uniform sampler2D srgb;     // R8G8B8A8 SRGB, 4 x 4, linear
layout(set = 0, binding = 3) buffer Fetched { vec4 f[16 * 5]; } fetched;
layout(set = 0, binding = 4) buffer Filtered { vec4 f[16 * 5]; } filtered;
layout(set = 0, binding = 5) buffer UFetched { uvec4 u[16]; } ufetched;
layout(set = 0, binding = 6) buffer Srgb { vec4 fetched[16]; vec4 filtered[16]; } srgb_out;

void main() {
    uint i = gl_LocalInvocationIndex;
    ivec2 p = ivec2(i % 4u, i / 4u);
    // between texels (x, y), (x + 1, y), (x, y + 1), (x + 1, y + 1), clamped at the edge
    vec2 uv = (vec2(p) + 1.0) / 4.0;
    for (int k = 0; k < 5; k++) {
        fetched.f[k * 16 + int(i)] = texelFetch(tex[k], p, 0);
        filtered.f[k * 16 + int(i)] = textureLod(tex[k], uv, 0.0);
    }
    ufetched.u[i] = texelFetch(utex, p, 0);
    srgb_out.fetched[i] = texelFetch(srgb, p, 0);
    srgb_out.filtered[i] = textureLod(srgb, uv, 0.0);
}
