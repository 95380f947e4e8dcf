#version 450
// Position (vec4, location 0) and colour (vec4, location 1) passed through.
layout(location = 0) in vec4 pos;
layout(location = 1) in vec4 col;
layout(location = 0) out vec4 vcol;
void main() { gl_Position = pos; vcol = col; }
