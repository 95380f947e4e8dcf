#version 450
// Separate textures and samplers, an array of textures indexed by a push constant, fetches,
// gathers and size/level queries.
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
layout(set = 0, binding = 0) uniform texture2D texs[4];
layout(set = 0, binding = 1) uniform sampler smp;
layout(set = 0, binding = 2) uniform samplerBuffer buf;
layout(push_constant) uniform PC { int which; } pc;
void main() {
    vec4 s = texture(sampler2D(texs[pc.which], smp), uv);
    vec4 t = texelFetch(sampler2D(texs[0], smp), ivec2(uv * 16.0), 0);
    vec4 g = textureGather(sampler2D(texs[1], smp), uv, 2);
    ivec2 sz = textureSize(sampler2D(texs[2], smp), 0);
    int lv = textureQueryLevels(sampler2D(texs[3], smp));
    vec4 bf = texelFetch(buf, int(uv.x * 64.0));
    vec2 lod = textureQueryLod(sampler2D(texs[0], smp), uv);
    color = s + t + g + bf + vec4(vec2(sz), float(lv), lod.x);
}
