#version 450
// Position (vec4, location 0) and colour (vec4, location 1): the colour out smooth
// (location 0) and swizzled at location 1, for a noperspective input.
layout(location = 0) in vec4 pos;
layout(location = 1) in vec4 col;
layout(location = 0) out vec4 vcol;
layout(location = 1) out vec4 lcol;
void main() { gl_Position = pos; vcol = col; lcol = col.gbra; }
