#version 450
// Sampler kinds: a separate texture and sampler joined in GLSL (OpSampledImage), a cube
// map and a 2D array sampled with textureLod, a depth gather with compare, and a
// multisampled texture read per sample with its sample count.
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) uniform texture2D t2;
layout(set = 0, binding = 1) uniform sampler smp;
layout(set = 0, binding = 2) uniform samplerCube cube;
layout(set = 0, binding = 3) uniform sampler2DArray arr;
layout(set = 0, binding = 4) uniform sampler2DShadow shadow;
layout(set = 0, binding = 5) uniform sampler2DMS ms;
layout(std430, set = 0, binding = 6) buffer Out { vec4 r[]; };
layout(std430, set = 0, binding = 7) buffer Info { int samples; ivec3 arr_size; };
void main() {
    uvec2 g = gl_GlobalInvocationID.xy;
    uint k = g.y * 64u + g.x;
    vec2 uv = (vec2(g) + 0.5) / 64.0;
    r[5u * k + 0u] = textureLod(sampler2D(t2, smp), uv, 0.0);
    r[5u * k + 1u] = textureLod(cube, vec3(uv * 2.0 - 1.0, 1.0), 0.0);
    r[5u * k + 2u] = textureLod(arr, vec3(uv, 2.0), 0.0);
    r[5u * k + 3u] = textureGather(shadow, uv, 0.5);
    r[5u * k + 4u] = texelFetch(ms, ivec2(g), 0) + texelFetch(ms, ivec2(g), 3);
    if (k == 0u) {
        samples = textureSamples(ms);
        arr_size = textureSize(arr, 0);
    }
}
