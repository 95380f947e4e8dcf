#version 450
// 16-bit texel buffers in plain GLSL: an RGBA16F uniform texel buffer fetched at an i16
// index and converted to f16 (a D16 format load), an RGBA16F storage texel buffer stored
// with f16 data widened to f32 (a D16 format store) and loaded as f32 (a 32-bit format
// load of a 16-bit format), and an RGBA16F storage image stored with widened f16 data
// (a D16 image store). Texels are multiples of 1/8 in [-8, 8), so every result is exact.
#extension GL_EXT_shader_explicit_arithmetic_types : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform samplerBuffer src;
layout(set = 0, binding = 1, rgba16f) uniform imageBuffer dst;
layout(set = 0, binding = 2, rgba16f) uniform writeonly image2D img;
layout(set = 0, binding = 3) buffer Out { vec4 o[]; };

void main() {
    uint i = gl_LocalInvocationIndex;
    int16_t k = int16_t(63u - i);
    f16vec4 h = f16vec4(texelFetch(src, int(k)));
    o[3u * i + 0u] = vec4(h);
    f16vec4 s = h * 0.5hf + f16vec4(0.25hf);
    imageStore(dst, int(i), vec4(s));
    o[3u * i + 1u] = imageLoad(dst, int(i));
    imageStore(img, ivec2(i % 8u, i / 8u), vec4(h.wzyx));
    o[3u * i + 2u] = vec4(imageSize(dst), 0.0, 0.0, 1.0);
}
