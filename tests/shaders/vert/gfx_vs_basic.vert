#version 450
// Whole-pipeline VS: a vec3 position and a vec4 colour fetched from the vertex buffer,
// the position exported with w = 1, the colour as one parameter.
layout(location = 0) in vec3 in_pos;
layout(location = 1) in vec4 in_color;
layout(location = 0) out vec4 color;
void main() {
    gl_Position = vec4(in_pos, 1.0);
    color = in_color;
}
