#version 450
// gl_PrimitiveID read in a fragment shader (the Geometry capability): colours each
// primitive by its id, a flat parameter the vertex stage's epilog adds after the colour
// (primitive_id_strip_restart.json, tests/backend_graphics.rs).
layout(location = 0) in vec4 c;
layout(location = 0) out vec4 o;
void main() {
    o = vec4(c.rgb, 1.0) * (0.25 + 0.25 * float(gl_PrimitiveID % 4));
}
