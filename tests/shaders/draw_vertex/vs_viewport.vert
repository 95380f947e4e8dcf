#version 450
#extension GL_ARB_shader_viewport_layer_array : require
// Triangle t (vertices 3t..3t+2) goes to viewport t % 4 (gl_ViewportIndex, SPIR-V 1.5's
// ShaderViewportIndex capability): the same clip-space triangle lands in the viewport's
// rectangle, so each triangle shows where its viewport is; the colour passes through.
layout(location = 0) in vec4 pos;
layout(location = 1) in vec4 col;
layout(location = 0) out vec4 vcol;
void main() {
    gl_Position = pos;
    gl_ViewportIndex = (gl_VertexIndex / 3) % 4;
    vcol = col;
}
