#version 450
// The position and a texture coordinate, for the textured pipelines.
layout(location = 0) in vec4 pos;
layout(location = 1) in vec2 uv_in;
layout(location = 0) out vec2 uv;
void main() {
    gl_Position = pos;
    uv = uv_in;
}
