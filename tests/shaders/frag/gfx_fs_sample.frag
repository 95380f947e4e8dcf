#version 450
// Per-sample shading: gl_SampleID, gl_SampleMaskIn and a sample-qualified input.
layout(location = 0) sample in vec2 s;
layout(location = 0) out vec4 color;
void main() {
    color = vec4(s, float(gl_SampleID), float(gl_SampleMaskIn[0]));
}
