#version 450
// gl_Layer and gl_ViewportIndex read flat (the provoking vertex's values): red and green
// are the interpolated colour's, blue 1/8 + layer/4, alpha 1/8 + viewport/4.
layout(location = 0) in vec4 c;
layout(location = 0) out vec4 o;
void main() {
    o = vec4(c.rg, 0.125 + 0.25 * float(gl_Layer), 0.125 + 0.25 * float(gl_ViewportIndex));
}
