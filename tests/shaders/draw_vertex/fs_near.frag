#version 450
// The smooth colour with a quarter of the flat (provoking-vertex) one.
layout(location = 0) in vec4 vcol;
layout(location = 1) flat in vec4 fcol;
layout(location = 0) out vec4 o;
void main() { o = 0.75 * vcol + 0.25 * fcol; }
