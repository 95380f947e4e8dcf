#version 450
// Vertex-stage arithmetic: a rotation by an angle from the position, a loop and a branch.
layout(location = 0) in vec4 pos;
layout(location = 1) in vec4 col;
layout(location = 0) out vec4 vcol;
layout(location = 1) out vec2 uv;
void main() {
    float a = 0.3;
    mat2 r = mat2(cos(a), sin(a), -sin(a), cos(a));
    vec2 p = r * pos.xy;
    vec4 c = col;
    for (int i = 0; i < 3; i++) {
        c = c.yzxw * 0.9 + 0.05;
    }
    if (p.x < 0.0) c.a *= 0.5;
    gl_Position = vec4(p, pos.zw);
    vcol = c;
    uv = pos.xy * 0.5 + 0.5;
}
