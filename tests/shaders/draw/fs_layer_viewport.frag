#version 450
// gl_Layer and gl_ViewportIndex read in a fragment shader (they need the Geometry
// capability): the vertex shader writes neither, so Vulkan gives 0 for both; any other
// value shifts blue and alpha away from the interpolated colour.
layout(location = 0) in vec4 c;
layout(location = 0) out vec4 o;
void main() {
    o = c;
    o.b += 0.25 * float(gl_Layer);
    o.a -= 0.5 * float(gl_ViewportIndex + 1) - 0.5;
}
