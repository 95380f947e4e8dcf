#version 450
// Fullscreen triangle from gl_VertexIndex alone; constant arrays indexed dynamically.
layout(location = 0) out vec2 uv;
const vec2 corners[3] = vec2[](vec2(-1.0, -1.0), vec2(3.0, -1.0), vec2(-1.0, 3.0));
void main() {
    vec2 c = corners[gl_VertexIndex % 3];
    uv = c * 0.5 + 0.5;
    gl_Position = vec4(c, 0.0, 1.0);
}
