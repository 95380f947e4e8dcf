#version 450
// Position and colour straight through; gl_PerVertex output block.
layout(location = 0) in vec4 in_pos;
layout(location = 1) in vec4 in_color;
layout(location = 0) out vec4 color;
void main() {
    gl_Position = in_pos;
    color = in_color;
}
