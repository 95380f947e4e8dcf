#version 450
// A constant colour (no inputs).
layout(location = 0) out vec4 o;
void main() { o = vec4(0.25, 0.5, 0.75, 0.5); }
