#version 450
// 16-bit conversions around image operations in plain, Vulkan-valid GLSL, which the
// middle end folds into the hardware's 16-bit forms (passes/fold_image_16bit.rs):
// f16vec4(texelFetch / textureLod / textureGrad / imageLoad) become D16 reads (also
// through a component extract), f16 coordinates and LODs widened to f32 become A16
// addresses, i16 texel coordinates widened to int become A16 fetch and load addresses,
// and f16 derivatives widened to f32 become G16 derivatives. Every texel is a multiple of
// 1/8 in an RGBA16F image and every coordinate exact in f16, so the exact results are
// exact; the linear sample is compared within 3 x 2^-8 (images.rs).
#extension GL_EXT_shader_explicit_arithmetic_types : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(set = 0, binding = 1) uniform sampler2D lin;
layout(set = 0, binding = 2, rgba16f) uniform readonly image2D img;
layout(set = 0, binding = 3) uniform sampler2DArray layers;
layout(set = 0, binding = 4) buffer Exact { vec4 o[]; };
layout(set = 0, binding = 5) buffer Filtered { vec4 fo[]; };

void main() {
    uint i = gl_LocalInvocationIndex;
    ivec2 p = ivec2(i % 8u, i / 8u);
    i16vec2 p16 = i16vec2(p);
    f16vec2 uv16 = (f16vec2(p16) + f16vec2(0.25hf, 0.75hf)) * 0.125hf;
    vec2 uv = (vec2(p) + vec2(0.25, 0.75)) / 8.0;
    float16_t lod16 = float16_t(i & 1u);
    // f16 derivatives the compiler cannot fold to constants (q is 1: i < 64)
    float16_t q = float16_t((i >> 10u) + 1u);
    f16vec2 dx16 = f16vec2(0.25hf * q, 0.0hf), dy16 = f16vec2(0.0hf, 0.25hf * q);
    // D16 fetch; and D16 + A16 with i16 coordinates at mip level 1
    o[8u * i + 0u] = vec4(f16vec4(texelFetch(tex, p, 0)));
    o[8u * i + 1u] = vec4(f16vec4(texelFetch(tex, ivec2(p16 / int16_t(2)), 1)));
    // D16 + A16: f16 coordinates and LOD widened to f32
    o[8u * i + 2u] = vec4(f16vec4(textureLod(tex, vec2(uv16), float(lod16))));
    // D16 through component extracts (LOD 0: image_sample_lz)
    vec4 t = textureLod(tex, uv, 0.0);
    o[8u * i + 3u] = vec4(float(float16_t(t.z)), float(float16_t(t.x)), 0.0, 1.0);
    // G16: f16 derivatives of 2 texels (LOD 1), with f32 and with f16 coordinates
    o[8u * i + 4u] = vec4(f16vec4(textureGrad(tex, uv, vec2(dx16), vec2(dy16))));
    o[8u * i + 5u] = vec4(f16vec4(textureGrad(tex, vec2(uv16), vec2(dx16), vec2(dy16))));
    // A16 with an f16 layer (layer i & 1)
    o[8u * i + 6u] = vec4(f16vec4(textureLod(layers, vec3(vec2(uv16), float(lod16)), 0.0)));
    // D16 storage load at i16 coordinates
    o[8u * i + 7u] = vec4(f16vec4(imageLoad(img, ivec2(p16))));
    // D16 of a trilinear sample between levels 0 and 1
    fo[i] = vec4(f16vec4(textureLod(lin, uv, 0.5)));
}
