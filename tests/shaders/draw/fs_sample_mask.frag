#version 450
// gl_SampleMask written per pixel (a pattern of the pixel's position covering 0 to 4 of
// the 4 samples), ANDed with the pixel's coverage; the interpolated colour.
layout(location = 0) in vec4 vcol;
layout(location = 0) out vec4 o;
void main() {
    ivec2 p = ivec2(gl_FragCoord.xy);
    gl_SampleMask[0] = (p.x * 5 + p.y * 3) & 0xf;
    o = vcol;
}
