#version 450
// The position alone: no output location.
layout(location = 0) in vec4 pos;
void main() { gl_Position = pos; }
