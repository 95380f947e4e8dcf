#version 450
// Three render targets of different widths.
layout(location = 0) in vec4 vcol;
layout(location = 0) out vec4 o0;
layout(location = 1) out vec4 o1;
layout(location = 2) out float o2;
void main() {
    o0 = vcol;
    o1 = vec4(vcol.a, vcol.b - 0.5, gl_FragCoord.x, -gl_FragCoord.y);
    o2 = vcol.r + vcol.g * 2.0 + 5.0;
}
