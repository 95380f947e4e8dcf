#version 450
#extension GL_ARB_shader_viewport_layer_array : require
// Instance i draws into layer i (gl_Layer, a vertex-stage output: SPIR-V 1.5's ShaderLayer
// capability), shifted right by i/4 of the viewport so a primitive routed to the wrong
// layer also lands on the wrong pixels; the colour passes through.
layout(location = 0) in vec4 pos;
layout(location = 1) in vec4 col;
layout(location = 0) out vec4 vcol;
void main() {
    gl_Position = pos + vec4(0.5 * float(gl_InstanceIndex), 0.0, 0.0, 0.0);
    gl_Layer = gl_InstanceIndex;
    vcol = col;
}
