#version 450
// No vertex input: positions and colours from gl_VertexIndex (a constant table by a
// switch, so no local-array scratch), the colour also depends on gl_InstanceIndex.
layout(location = 0) out vec4 vcol;
layout(location = 1) flat out uint vid;
void main() {
    int v = gl_VertexIndex % 6;
    vec2 p;
    switch (v) {
    case 0: p = vec2(-0.9, -0.9); break;
    case 1: p = vec2(0.8, -0.85); break;
    case 2: p = vec2(-0.85, 0.9); break;
    case 3: p = vec2(0.95, -0.7); break;
    case 4: p = vec2(0.9, 0.9); break;
    default: p = vec2(-0.7, 0.95); break;
    }
    float s = 1.0 - 0.3 * float(gl_InstanceIndex);
    gl_Position = vec4(p * s, 0.5, 1.0);
    vcol = vec4(float(v) / 5.0, float(gl_VertexIndex & 1), float(gl_InstanceIndex) * 0.5, 1.0);
    vid = uint(gl_VertexIndex);
}
