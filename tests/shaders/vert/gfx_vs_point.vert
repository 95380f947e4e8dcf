#version 450
// gl_PointSize (the pos1 export) and no vertex input at all.
layout(push_constant) uniform P { float size; };
void main() {
    gl_Position = vec4(float(gl_VertexIndex) * 0.25 - 1.0, 0.0, 0.5, 1.0);
    gl_PointSize = size;
}
