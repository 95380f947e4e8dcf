#version 450
// Writes its depth from the colour (the depth test uses it).
layout(location = 0) in vec4 vcol;
layout(location = 0) out vec4 o;
void main() { o = vcol; gl_FragDepth = vcol.r * 0.5 + vcol.b * 0.25; }
