#version 450
// Combined image samplers: implicit-lod, bias, explicit lod, gradients, projection, offset.
layout(location = 0) in vec2 uv;
layout(location = 1) in vec4 puv;
layout(location = 0) out vec4 color;
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(set = 0, binding = 1) uniform sampler2DArray arr;
layout(set = 0, binding = 2) uniform samplerCube cube;
layout(set = 0, binding = 3) uniform sampler3D vol;
void main() {
    vec4 a = texture(tex, uv);
    vec4 b = texture(tex, uv, 1.5);
    vec4 c = textureLod(arr, vec3(uv, 2.0), 0.0);
    vec4 d = textureGrad(tex, uv, dFdx(uv), dFdy(uv));
    vec4 e = textureProj(tex, puv.xyw);
    vec4 f = textureOffset(tex, uv, ivec2(1, -1));
    vec4 g = texture(cube, normalize(vec3(uv, 1.0)));
    vec4 h = texture(vol, vec3(uv, 0.5));
    color = a + b + c + d + e + f + g + h;
}
