#version 450
// spirv-opt: -O
// Helper functions with in/out/inout parameters and early returns (inlined by the front-end).
layout(location = 0) in vec4 pos;
layout(location = 0) out vec4 color;
float wave(float x, out float deriv) {
    deriv = cos(x);
    return sin(x);
}
void bump(inout vec4 p, float k) {
    if (k < 0.0) return;
    p.y += k;
}
vec3 pick(int i) {
    for (int k = 0; k < 8; ++k) {
        if (k == i) return vec3(float(k));
    }
    return vec3(-1.0);
}
void main() {
    vec4 p = pos;
    float d;
    float w = wave(p.x, d);
    bump(p, w * d);
    color = vec4(pick(int(p.z)), 1.0);
    gl_Position = p;
}
