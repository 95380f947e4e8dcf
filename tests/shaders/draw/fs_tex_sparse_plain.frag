#version 450
// The non-sparse twin of fs_tex_sparse.frag: the same three reads (implicit LOD,
// explicit LOD 1, depth compare against 0.5) without residency codes.
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(set = 0, binding = 1) uniform sampler2DShadow depth;
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 o;
void main() {
    vec4 a = texture(tex, uv);
    vec4 b = textureLod(tex, uv, 1.0);
    float d = texture(depth, vec3(uv, 0.5));
    o = vec4(a.rg, b.b, d);
}
