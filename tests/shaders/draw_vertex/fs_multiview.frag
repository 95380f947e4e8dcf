#version 450
#extension GL_EXT_multiview : require
// gl_ViewIndex in the fragment stage: red and green the interpolated colour's, blue
// 1/8 + view/4, alpha 1 when the vertex stage saw the same view (its flat output), else
// 1/2.
layout(location = 0) in vec4 c;
layout(location = 1) flat in int vview;
layout(location = 0) out vec4 o;
void main() {
    int v = int(gl_ViewIndex);
    o = vec4(c.rg, 0.125 + 0.25 * float(v), vview == v ? 1.0 : 0.5);
}
