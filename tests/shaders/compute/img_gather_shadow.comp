#version 450
// textureGather (component 0 and 1), textureGatherOffset, and depth compare: textureLod on
// a shadow sampler (LESS, nearest) and textureGather with a reference.
layout(local_size_x = 16) in;
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(set = 0, binding = 1) uniform sampler2DShadow depth;
layout(set = 0, binding = 2) buffer Out { vec4 o[]; };

void main() {
    uint i = gl_LocalInvocationIndex;
    vec2 p = vec2(i % 4u, i / 4u);
    vec2 uv = (p + vec2(0.75)) / 4.0;
    vec2 centre = (p + vec2(0.5)) / 4.0;
    float ref = 0.0625 * float(i) + 0.03125;
    o[5u * i + 0u] = textureGather(tex, uv, 0);
    o[5u * i + 1u] = textureGather(tex, uv, 1);
    o[5u * i + 2u] = textureGatherOffset(tex, uv, ivec2(1, -1), 0);
    o[5u * i + 3u] = vec4(textureLod(depth, vec3(centre, ref), 0.0));
    o[5u * i + 4u] = textureGather(depth, uv, ref);
}
