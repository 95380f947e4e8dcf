#version 450
// Sample-rate shading (reading gl_SampleID runs the shader once per sample): the sample
// id, the coverage it sees (only its own bit, Vulkan's SampleMask input under sample
// shading) and the interpolated colour's red.
layout(location = 0) in vec4 vcol;
layout(location = 0) out vec4 o;
void main() {
    o = vec4(float(gl_SampleID) * 0.125, float(gl_SampleMaskIn[0]) / 255.0, vcol.r, 1.0);
}
