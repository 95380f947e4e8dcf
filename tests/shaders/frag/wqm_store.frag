#version 450
// Whole-quad mode with memory side effects: the store before the derivatives runs in an
// exact island, the derivative inside a divergent loop and the conditional discard run
// in whole-quad mode, and the store after the last derivative runs after the switch to
// exact for good.
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 o;
layout(set = 0, binding = 0) buffer B { float v[]; } b;
void main() {
    b.v[0] = uv.x;
    vec2 acc = vec2(0.0);
    for (int i = 0; i < int(uv.y * 4.0); i++) {
        acc += dFdx(uv * float(i));
    }
    if (acc.x > 2.0) discard;
    vec2 d = fwidth(uv + acc);
    b.v[1] = d.y;
    o = vec4(acc, d);
}
