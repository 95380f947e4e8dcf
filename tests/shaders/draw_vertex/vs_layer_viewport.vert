#version 450
#extension GL_ARB_shader_viewport_layer_array : require
// target-env: vulkan1.1
// Both built-ins from one vertex shader (SPIR-V 1.3: the ShaderViewportIndexLayerEXT
// capability of SPV_EXT_shader_viewport_index_layer, so the epilog packs both into one
// export channel): instance i into layer i, triangle t into viewport (t + i) % 2.
layout(location = 0) in vec4 pos;
layout(location = 1) in vec4 col;
layout(location = 0) out vec4 vcol;
void main() {
    gl_Position = pos;
    gl_Layer = gl_InstanceIndex;
    gl_ViewportIndex = (gl_VertexIndex / 3 + gl_InstanceIndex) % 2;
    vcol = col;
}
