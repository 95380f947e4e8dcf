#version 450
// Screen-space linear colour only.
layout(location = 2) noperspective in vec4 linear_c;
layout(location = 0) out vec4 o;
void main() { o = linear_c; }
