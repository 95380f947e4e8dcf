#version 450
// A sampled image and a separate sampler read with explicit LODs (texelFetch of a level
// chosen by the pixel column, textureLod with a LOD from the pixel row, textureSize),
// plus a storage image read with imageLoad.
layout(set = 0, binding = 0) uniform texture2D img;
layout(set = 0, binding = 1) uniform sampler smp;
layout(set = 0, binding = 2, rgba8) uniform readonly image2D simg;
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 o;
void main() {
    ivec2 p = ivec2(gl_FragCoord.xy);
    int level = (p.x / 16) % 3;
    ivec2 size = textureSize(sampler2D(img, smp), level);
    vec4 fetched = texelFetch(sampler2D(img, smp), p % size, level);
    vec4 lod = textureLod(sampler2D(img, smp), uv, float(p.y / 8) * 0.75);
    vec4 stored = imageLoad(simg, p % 8);
    o = fetched * 0.5 + lod * 0.25 + stored * 0.25;
}
