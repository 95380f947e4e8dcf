#version 450
// Points: position (vec3, location 0), size (location 1) and colour (location 2).
layout(location = 0) in vec3 pos;
layout(location = 1) in float size;
layout(location = 2) in vec4 col;
layout(location = 0) out vec4 vcol;
void main() {
    gl_Position = vec4(pos, 1.0);
    gl_PointSize = size;
    vcol = col;
}
