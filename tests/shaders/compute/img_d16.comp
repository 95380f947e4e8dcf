#version 450
// spirv-val-env: spv1.5 (SPIR-V's own rules: spirv-val's Vulkan rules predate f16 sampled types and fail them with VUID-StandaloneSpirv-OpTypeImage-04656)
// 16-bit image data and addresses (GL_AMD_gpu_shader_half_float_fetch: f16 sampled types,
// SPIR-V Float16ImageAMD): f16 fetches and explicit-LOD samples (D16 results), f16
// coordinates and LODs (A16), f16 derivatives (G16 on GFX10+, A16 on GFX9), an f16
// layered lookup (the layer rounded in f16), and an f16 storage image loaded and stored
// in place (D16 load and store). Every texel is an f16 value (rgba16f), every coordinate
// exact in f16, and the sampler nearest, so every result is exact
// (tools/vkref/src/corpus/images.rs).
#extension GL_AMD_gpu_shader_half_float_fetch : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform f16sampler2D tex;
layout(set = 0, binding = 1, rgba16f) uniform f16image2D img;
layout(set = 0, binding = 2) uniform f16sampler2DArray layers;
layout(set = 0, binding = 3) buffer Out { vec4 o[]; };

void main() {
    uint i = gl_LocalInvocationIndex;
    ivec2 p = ivec2(i % 8u, i / 8u);
    vec2 uv = (vec2(p) + vec2(0.25, 0.75)) / 8.0;
    f16vec2 uv16 = f16vec2(uv);
    f16vec2 dx = f16vec2(0.25, 0.0), dy = f16vec2(0.0, 0.25);
    // D16 fetches at levels 0 and 1
    o[8u * i + 0u] = vec4(texelFetch(tex, p, 0));
    o[8u * i + 1u] = vec4(texelFetch(tex, p / 2, 1));
    // A16 + D16: f16 coordinates and LOD
    o[8u * i + 2u] = vec4(textureLod(tex, uv16, float16_t(1.0)));
    // D16 with f32 coordinates (LOD 0: image_sample_lz)
    o[8u * i + 3u] = vec4(textureLod(tex, uv, 0.0).zx, 0.0, 1.0);
    // f16 derivatives of 2 texels: LOD 1; with f16 and with f32 coordinates
    o[8u * i + 4u] = vec4(textureGrad(tex, uv16, dx, dy));
    o[8u * i + 5u] = vec4(textureGrad(tex, uv, dx, dy));
    // A16 with a layer (rounded in f16: layer i & 1)
    o[8u * i + 6u] = vec4(textureLod(layers, f16vec3(uv16, float16_t(i & 1u) + float16_t(0.25)),
                                     float16_t(0.0)));
    // D16 storage load and store in place
    f16vec4 s = imageLoad(img, p);
    imageStore(img, p, s * float16_t(0.5) + f16vec4(float16_t(0.25)));
    o[8u * i + 7u] = vec4(s.yw, float(s.x + s.z), 0.0);
}
