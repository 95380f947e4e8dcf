#version 450
// Clip and cull distances, an output struct, flat integer outputs.
layout(location = 0) in vec4 pos;
layout(location = 0) out flat uint vid;
layout(location = 1) out Block { vec2 a; float b; } outb;
out float gl_ClipDistance[2];
layout(set = 0, binding = 0) uniform Planes { vec4 plane[2]; };
void main() {
    gl_Position = pos;
    for (int k = 0; k < 2; ++k) gl_ClipDistance[k] = dot(pos, plane[k]);
    vid = uint(gl_VertexIndex) + uint(gl_InstanceIndex) * 3u;
    outb.a = pos.xy;
    outb.b = pos.z;
}
