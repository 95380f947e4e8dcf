#version 450
// Divergent if/else chains and a switch on the pixel.
layout(location = 0) in vec4 vcol;
layout(location = 0) out vec4 o;
void main() {
    vec4 c;
    if (vcol.r > 0.5) {
        c = vec4(1.0, vcol.g, 0.0, 1.0);
    } else if (vcol.g > vcol.b) {
        c = vec4(0.0, 1.0, vcol.r, 1.0);
    } else {
        c = vcol.bgra;
    }
    switch (int(gl_FragCoord.x + gl_FragCoord.y) % 4) {
    case 0: c.a = 0.25; break;
    case 1: c.a = 0.5; break;
    case 2: c.rgb *= 0.5; break;
    default: break;
    }
    o = c;
}
