#version 450
#extension GL_EXT_fragment_shader_barycentric : require
// pervertexEXT (VK_KHR_fragment_shader_barycentric): each vertex's raw value of
// vs_interp's smooth colour, never interpolated — vertices 0, 1, 2 of the primitive in
// Vulkan's order, then vertex (x mod 3) by a dynamic index, channel y mod 4 of vertex 1
// by a dynamic component. lavapipe 22.3 cannot create this pipeline:
// tools/cli/tests/draw_per_vertex.rs derives the expected values by hand.
layout(location = 0) pervertexEXT in vec4 c[];
layout(location = 0) out vec4 o0;
layout(location = 1) out vec4 o1;
layout(location = 2) out vec4 o2;
layout(location = 3) out vec4 o3;
void main() {
    int x = int(gl_FragCoord.x), y = int(gl_FragCoord.y);
    o0 = c[0];
    o1 = c[1];
    o2 = c[2];
    o3 = vec4(c[x % 3].xyz, c[1][y % 4]);
}
