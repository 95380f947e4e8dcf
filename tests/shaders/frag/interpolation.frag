#version 450
// glslang-flags: -gV
// Interpolation qualifiers and interpolateAt* on inputs; sample-rate built-ins.
layout(location = 0) in vec4 smooth_in;
layout(location = 1) noperspective in vec4 np_in;
layout(location = 2) flat in ivec2 flat_in;
layout(location = 3) centroid in vec2 cen_in;
layout(location = 4) sample in float samp_in;
layout(location = 0) out vec4 color;
void main() {
    vec4 c = interpolateAtCentroid(smooth_in) + interpolateAtSample(smooth_in, gl_SampleID)
           + interpolateAtOffset(np_in, vec2(0.25, -0.25));
    color = c + vec4(vec2(flat_in), cen_in) + vec4(samp_in) + vec4(gl_SamplePosition, gl_FrontFacing ? 1.0 : 0.0, 0.0)
          + vec4(gl_PointCoord, gl_FragCoord.xy);
}
