#version 450
// gl_SampleMaskIn without sample shading: the pixel's covered samples (one invocation
// per pixel), as a fraction of 255 in red and its bit count in green.
layout(location = 0) in vec4 vcol;
layout(location = 0) out vec4 o;
void main() {
    int m = gl_SampleMaskIn[0];
    o = vec4(float(m) / 255.0, float(bitCount(m)) * 0.125, vcol.b, 1.0);
}
