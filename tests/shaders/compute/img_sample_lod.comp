#version 450
// Sampled images with explicit LOD: texelFetch of levels 0 and 1, texelFetchOffset,
// textureLod with a
// nearest sampler, bilinear at level 0 and trilinear between levels 0 and 1 with a linear
// one, textureSize and textureQueryLevels. Filtered results are compared within
// 2^-8 (8-bit subtexel and mip-blend precision; docs/emu.md).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform sampler2D tex_nearest;
layout(set = 0, binding = 1) uniform sampler2D tex_linear;
layout(set = 0, binding = 2) buffer Exact { vec4 exact_out[]; };
layout(set = 0, binding = 3) buffer Filtered { vec4 filtered_out[]; };

void main() {
    uint i = gl_LocalInvocationIndex;
    ivec2 p = ivec2(i % 8u, i / 8u);
    vec2 uv = (vec2(p) + vec2(0.25, 0.75)) / 8.0;
    exact_out[5u * i + 0u] = texelFetch(tex_nearest, p, 0);
    exact_out[5u * i + 1u] = texelFetch(tex_nearest, p / 2, 1);
    exact_out[5u * i + 2u] = textureLod(tex_nearest, uv, 0.0);
    exact_out[5u * i + 3u] = vec4(textureSize(tex_nearest, 0), textureSize(tex_linear, 2).x,
                                  textureQueryLevels(tex_nearest));
    exact_out[5u * i + 4u] = texelFetchOffset(tex_nearest, p / 2, 0, ivec2(3, 2));
    filtered_out[2u * i + 0u] = textureLod(tex_linear, uv, 0.0);
    filtered_out[2u * i + 1u] = textureLod(tex_linear, uv, 0.5);
}
