#version 450
// Implicit-LOD sampling of a mipmapped texture: the LOD comes from the quad's
// derivatives of uv.
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 o;
void main() {
    o = texture(tex, uv);
}
