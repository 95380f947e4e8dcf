#version 450
// Discards a checkerboard of 3x3 cells and pixels where green wins.
layout(location = 0) in vec4 vcol;
layout(location = 0) out vec4 o;
void main() {
    ivec2 cell = ivec2(gl_FragCoord.xy) / 3;
    if (((cell.x + cell.y) & 1) == 0) discard;
    if (vcol.g > 0.6) discard;
    o = vcol;
}
