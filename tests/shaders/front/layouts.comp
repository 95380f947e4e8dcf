#version 450
#extension GL_EXT_scalar_block_layout : require
// target-env: vulkan1.2
// spirv-val-flags: --scalar-block-layout
// Explicit layouts: std140 vs std430 vs scalar, row-major matrices, arrays of structs with
// explicit strides, runtime arrays and their length, whole-struct copies.
layout(local_size_x = 1) in;
struct S { vec3 a; float b; mat2x3 m; };
layout(std140, set = 0, binding = 0) uniform U140 { layout(row_major) mat3 r; S s[2]; vec2 v2[3]; } u140;
layout(std430, set = 0, binding = 1) buffer B430 { layout(row_major) mat3x2 r; S s[2]; vec2 v2[3]; float tail[]; } b430;
layout(scalar, set = 0, binding = 2) buffer BS { vec3 p[4]; S s; } bs;
void main() {
    b430.s[1] = u140.s[0];
    b430.r = mat3x2(u140.r);
    b430.v2[2] = u140.v2[1] + bs.p[3].xy;
    bs.s = b430.s[0];
    b430.tail[b430.tail.length() - 1] = u140.r[1][2] + b430.s[1].m[1][2];
}
