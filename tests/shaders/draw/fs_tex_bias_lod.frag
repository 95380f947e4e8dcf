#version 450
// Implicit LOD with a bias (colour 0) and the LOD itself (textureQueryLod, colour 1).
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 o;
layout(location = 1) out vec4 lod;
void main() {
    o = texture(tex, uv, 1.0);
    lod = vec4(textureQueryLod(tex, uv), 0.0, 1.0);
}
