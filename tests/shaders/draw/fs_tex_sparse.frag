#version 450
#extension GL_ARB_sparse_texture2 : require
// Sparse-residency sampling in a fragment shader (SparseResidency): sparseTextureARB with
// an implicit LOD (the quad's derivatives of uv), sparseTextureLodARB, and the depth-
// compare (Dref) form sparseTextureARB on a sampler2DShadow, each residency code tested
// with sparseTexelsResidentARB. Every image is resident, so the colour is the plain
// reads' (fs_tex_sparse_plain.frag), and magenta with alpha 0 if a code said otherwise.
// Lavapipe 22.3 has no shaderResourceResidency: draw_sparse compares this shader's image
// with lavapipe's of the plain twin (tex_sparse_plain.json).
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(set = 0, binding = 1) uniform sampler2DShadow depth;
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 o;
void main() {
    vec4 a, b;
    float d;
    int ca = sparseTextureARB(tex, uv, a);
    int cb = sparseTextureLodARB(tex, uv, 1.0, b);
    int cd = sparseTextureARB(depth, vec3(uv, 0.5), d);
    bool resident = sparseTexelsResidentARB(ca) && sparseTexelsResidentARB(cb)
        && sparseTexelsResidentARB(cd);
    o = resident ? vec4(a.rg, b.b, d) : vec4(1.0, 0.0, 1.0, 0.0);
}
