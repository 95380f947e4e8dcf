#version 450
// gl_SampleMask beside gl_FragDepth (both in the MRTZ export, 32_ABGR): a mask pattern
// of the pixel's position and a depth from the colour, under a depth test.
layout(location = 0) in vec4 vcol;
layout(location = 0) out vec4 o;
void main() {
    ivec2 p = ivec2(gl_FragCoord.xy);
    gl_SampleMask[0] = ~(p.x * 3 + p.y) & 0xf | 0x30;
    gl_FragDepth = 0.25 + 0.5 * vcol.g;
    o = vec4(vcol.rgb, float(p.x & 3) * 0.25);
}
