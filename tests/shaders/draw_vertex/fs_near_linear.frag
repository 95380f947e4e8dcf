#version 450
// Two noperspective channels, a smooth one, and a noperspective one mixed with the flat
// (provoking-vertex) colour.
layout(location = 0) in vec4 vcol;
layout(location = 1) flat in vec4 fcol;
layout(location = 2) noperspective in vec4 lcol;
layout(location = 0) out vec4 o;
void main() { o = vec4(lcol.r, lcol.g, vcol.b, 0.5 * lcol.b + 0.5 * fcol.g); }
