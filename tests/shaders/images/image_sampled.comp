#version 450
// Sampled images in compute (explicit LOD only): textureLod, textureLodOffset,
// texelFetch, textureGather (a component, and with an offset), textureGrad, a depth
// compare with an explicit LOD, textureSize, textureQueryLevels.
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(set = 0, binding = 1) uniform sampler2DShadow depth;
layout(std430, set = 0, binding = 2) buffer Out { vec4 r[]; };
layout(std430, set = 0, binding = 3) buffer Info { ivec2 size; int levels; };
void main() {
    uvec2 g = gl_GlobalInvocationID.xy;
    uint k = g.y * 64u + g.x;
    vec2 uv = (vec2(g) + 0.5) / 64.0;
    r[6u * k + 0u] = textureLod(tex, uv, 0.0);
    r[6u * k + 1u] = textureLod(tex, uv, 1.5) + textureLodOffset(tex, uv, 0.0, ivec2(1, -1));
    r[6u * k + 2u] = texelFetch(tex, ivec2(g), 1);
    r[6u * k + 3u] = textureGather(tex, uv, 2) + textureGatherOffset(tex, uv, ivec2(-2, 3));
    r[6u * k + 4u] = textureGrad(tex, uv, vec2(0.01, 0.0), vec2(0.0, 0.02));
    r[6u * k + 5u] = vec4(textureLod(depth, vec3(uv, 0.5), 0.0),
                          textureGrad(depth, vec3(uv, 0.25), vec2(0.0), vec2(0.0)), 0.0, 1.0);
    if (k == 0u) {
        size = textureSize(tex, 0);
        levels = textureQueryLevels(tex);
    }
}
