#version 450
// Fine and coarse derivatives, fwidth variants; MRT outputs.
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 o0;
layout(location = 1) out vec2 o1;
void main() {
    o0 = vec4(dFdxFine(uv), dFdyCoarse(uv)) + vec4(fwidth(uv), fwidthFine(uv)) + vec4(fwidthCoarse(uv.x));
    o1 = dFdx(uv) + dFdy(uv) + vec2(dFdxCoarse(uv.y), dFdyFine(uv.x));
}
