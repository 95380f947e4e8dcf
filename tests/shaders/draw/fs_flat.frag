#version 450
// Flat colour only (the provoking vertex's).
layout(location = 1) flat in vec4 flat_c;
layout(location = 0) out vec4 o;
void main() { o = flat_c; }
