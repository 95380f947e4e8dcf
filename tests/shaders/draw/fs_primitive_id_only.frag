#version 450
// The colour from gl_PrimitiveID alone: the vertex stage has no other output.
layout(location = 0) out vec4 o;
void main() {
    uint p = uint(gl_PrimitiveID);
    o = vec4(float(p % 5u) / 4.0, float((p / 5u) % 5u) / 4.0, float(p / 25u) / 4.0, 1.0);
}
