#version 450
// Row-major and column-major matrices in a std430 block (mat4 both ways, a row-major
// mat2x3 whose rows are vec2 with 8-byte stride, a row-major mat3 with 16-byte row stride),
// multiplied from both sides. Small integer data, exact results.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer M {
    layout(row_major) mat4 R;
    layout(column_major) mat4 C;
    layout(row_major) mat2x3 R23;
    layout(row_major) mat3 R3;
};
layout(std430, set = 0, binding = 1) readonly buffer V { vec4 v[]; };
layout(std430, set = 0, binding = 2) writeonly buffer O { vec4 o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    vec4 x = v[i];
    o[i * 4u + 0u] = R * x;
    o[i * 4u + 1u] = x * C;
    o[i * 4u + 2u] = vec4(R23 * x.xy, R23[1][2]);
    o[i * 4u + 3u] = vec4(R3 * x.yzw, R[1][2]);
}
