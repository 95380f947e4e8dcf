#version 450
// gl_SampleMask in a sample-rate shader (gl_SampleID read): each invocation writes a
// mask of its own and other samples; only its own sample's bit can keep it.
layout(location = 0) in vec4 vcol;
layout(location = 0) out vec4 o;
void main() {
    ivec2 p = ivec2(gl_FragCoord.xy);
    gl_SampleMask[0] = (p.x + p.y + gl_SampleID) % 3 == 0 ? 0 : 0xff;
    o = vec4(vcol.rg, float(gl_SampleID) * 0.25, 1.0);
}
