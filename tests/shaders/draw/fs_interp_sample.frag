#version 450
// interpolateAtSample with a constant and a dynamic sample index (no sample shading of
// its own), and gl_SamplePosition (which makes the shader run per sample).
layout(location = 0) in vec4 vcol;
layout(location = 0) out vec4 o0;
layout(location = 1) out vec4 o1;
void main() {
    o0 = interpolateAtSample(vcol, 3);
    o1 = vec4(gl_SamplePosition, interpolateAtSample(vcol, gl_SampleID).xy);
}
