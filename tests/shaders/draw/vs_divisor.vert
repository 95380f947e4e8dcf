#version 450
// Instance divisors (VK_EXT_vertex_attribute_divisor; the descriptions give each binding's
// divisor): instance n draws two triangles over cell (n % 4, n / 4 % 4) of a 4x4 grid and
// passes its four per-instance inputs, each from a binding with its own divisor, flat.
layout(location = 0) in vec2 corner;   // per vertex, in cell units
layout(location = 1) in float a;
layout(location = 2) in float b;
layout(location = 3) in float c;
layout(location = 4) in float d;
layout(location = 1) flat out vec4 flat_c;
void main() {
    int n = gl_InstanceIndex;
    vec2 cell = vec2(float(n % 4), float(n / 4 % 4));
    gl_Position = vec4((cell + corner) * 0.5 - 1.0, 0.5, 1.0);
    flat_c = vec4(a, b, c, d);
}
