#version 450
// gl_FragCoord (x, y, z and 1/w) and gl_FrontFacing.
layout(location = 0) out vec4 color;
void main() {
    vec4 c = gl_FragCoord * vec4(1.0 / 64.0, 1.0 / 64.0, 1.0, 1.0);
    color = gl_FrontFacing ? c : c.wzyx;
}
