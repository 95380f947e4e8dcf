#version 450
// Implicit-LOD sampling: texture() (with an offset), with a bias, shadow, projective,
// and the LOD query; their coordinates are computed in whole-quad mode.
layout(location = 0) in vec4 uv;
layout(location = 0) out vec4 o;
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(set = 0, binding = 1) uniform sampler2DShadow shadow;
void main() {
    vec2 p = uv.xy * 2.0 - 0.5;
    vec4 c = texture(tex, p) + textureOffset(tex, p, ivec2(1, -1)) + texture(tex, p, 1.5);
    c += textureProj(tex, uv.xyw);
    c.x += texture(shadow, vec3(p, uv.z));
    c.zw += textureQueryLod(tex, p);
    o = c;
}
