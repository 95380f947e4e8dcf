#version 450
// Two user clip planes (gl_ClipDistance, linear in clip space): each triangle keeps the
// part where x + 0.3·y ≥ 0.109375·w and 0.25·x − y ≥ −0.515625·w.
layout(location = 0) in vec4 pos;
layout(location = 1) in vec4 col;
layout(location = 0) out vec4 vcol;
out gl_PerVertex {
    vec4 gl_Position;
    float gl_ClipDistance[2];
};
void main() {
    gl_Position = pos;
    gl_ClipDistance[0] = dot(pos, vec4(1.0, 0.3, 0.0, -0.109375));
    gl_ClipDistance[1] = dot(pos, vec4(0.25, -1.0, 0.0, 0.515625));
    vcol = col;
}
