#version 450
// VertexIndex / InstanceIndex (BaseVertex and BaseInstance added by the ABI), a UBO
// transform, a flat integer and a vec2 varying.
layout(set = 0, binding = 0) uniform Xform { mat4 mvp; vec4 offset; };
layout(location = 0) in vec2 in_uv;
layout(location = 0) out vec2 uv;
layout(location = 1) flat out int id;
void main() {
    float x = float(gl_VertexIndex & 1) * 2.0 - 1.0;
    float y = float(gl_VertexIndex >> 1) * 2.0 - 1.0;
    gl_Position = mvp * vec4(x, y, 0.0, 1.0) + offset * float(gl_InstanceIndex);
    uv = in_uv;
    id = gl_VertexIndex * 16 + gl_InstanceIndex;
}
