#version 450
// gl_PointCoord in red/green, the point's colour in blue and alpha.
layout(location = 0) in vec4 vcol;
layout(location = 0) out vec4 o;
void main() { o = vec4(gl_PointCoord, vcol.b, vcol.a); }
