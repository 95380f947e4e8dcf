#version 450
// Dual-source blending: two colours for location 0 (Index 0 and Index 1). Every third
// pixel by its coordinates is discarded, so lane pairs with one dead pixel occur (GFX11
// exports both sources through each lane pair).
layout(location = 0) in vec4 vcol;
layout(location = 0, index = 0) out vec4 src0;
layout(location = 0, index = 1) out vec4 src1;
void main() {
    ivec2 p = ivec2(gl_FragCoord.xy);
    if ((p.x + 2 * p.y) % 3 == 0) discard;
    src0 = vcol;
    src1 = vec4(vcol.b, 1.0 - vcol.r, 0.25 + 0.5 * vcol.g, vcol.a * 0.5 + 0.25);
}
