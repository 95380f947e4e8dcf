#version 450
// A flat integer varying decides the colour.
layout(location = 0) in vec4 vcol;
layout(location = 1) flat in uint vid;
layout(location = 0) out vec4 o;
void main() { o = (vid % 2u) == 0u ? vcol : vcol.bgra; }
