#version 450
// interpolateAtOffset of a smooth and of a noperspective colour, each into its own
// target.
layout(location = 0) in vec4 vcol;
layout(location = 1) noperspective in vec4 lcol;
layout(location = 0) out vec4 o0;
layout(location = 1) out vec4 o1;
void main() {
    o0 = interpolateAtOffset(vcol, vec2(0.25, -0.375));
    o1 = interpolateAtOffset(lcol, vec2(-0.5, 0.125));
}
