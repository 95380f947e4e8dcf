#version 450
#extension GL_EXT_multiview : require
// gl_ViewIndex without multiview: every draw renders view 0.
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 o;
void main() {
    o = vec4(uv, float(gl_ViewIndex + 1) * 0.25, gl_ViewIndex == 0 ? 1.0 : 0.5);
}
