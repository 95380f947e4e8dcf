#version 450
// Per-vertex position and colour, per-instance offset and scale (binding 1, instance rate).
layout(location = 0) in vec4 pos;
layout(location = 1) in vec4 col;
layout(location = 2) in vec3 inst;   // xy offset, z scale
layout(location = 0) out vec4 vcol;
void main() {
    gl_Position = vec4(pos.xy * inst.z + inst.xy, pos.zw);
    vcol = col * (0.5 + 0.25 * float(gl_InstanceIndex % 3));
}
