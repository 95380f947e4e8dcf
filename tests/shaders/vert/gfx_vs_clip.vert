#version 450
// Two clip distances and one cull distance: one distance export after pos0.
layout(location = 0) in vec4 pos;
layout(set = 0, binding = 0) uniform Planes { vec4 plane0; vec4 plane1; };
out float gl_ClipDistance[2];
out float gl_CullDistance[1];
void main() {
    gl_Position = pos;
    gl_ClipDistance[0] = dot(pos, plane0);
    gl_ClipDistance[1] = dot(pos, plane1);
    gl_CullDistance[0] = pos.w - 0.5;
}
