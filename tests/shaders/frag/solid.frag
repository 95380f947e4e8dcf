#version 450
// The simplest fragment shader: a constant colour.
layout(location = 0) out vec4 color;
void main() { color = vec4(1.0, 0.5, 0.25, 1.0); }
