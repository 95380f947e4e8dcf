#version 450
// Depth-comparison sampling (shadow maps), projective and gather variants.
layout(location = 0) in vec4 sc;
layout(location = 0) out float lit;
layout(set = 0, binding = 0) uniform sampler2DShadow sm;
layout(set = 0, binding = 1) uniform sampler2DArrayShadow sma;
void main() {
    float a = texture(sm, sc.xyz);
    float b = textureProj(sm, sc);
    float c = texture(sma, vec4(sc.xy, 1.0, sc.z));
    vec4 g = textureGather(sm, sc.xy, sc.z);
    float d = textureLod(sm, sc.xyz, 0.0);
    lit = (a + b + c + d + g.x) * 0.2;
}
