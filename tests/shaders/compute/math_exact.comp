#version 450
// GLSL.std.450 functions with exact results on this data: fma on operands whose product
// is exact (fused and unfused agree), ldexp, frexp, fract of non-negative values, step,
// sign, clamp, min/max, and int/uint abs/min/max/clamp/findMSB.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer A { vec4 a[]; };
layout(std430, set = 0, binding = 1) readonly buffer B { ivec4 b[]; };
layout(std430, set = 0, binding = 2) writeonly buffer O { float o[]; };
layout(std430, set = 0, binding = 3) writeonly buffer P { int p[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    vec4 v = a[i];
    ivec4 n = b[i];
    uint k = i * 8u;
    o[k + 0u] = fma(v.x, v.y, v.z);
    o[k + 1u] = ldexp(v.w, n.x);
    int ex;
    float m = frexp(v.z, ex);
    o[k + 2u] = m;
    o[k + 3u] = fract(abs(v.w));
    o[k + 4u] = step(v.x, v.y) + sign(v.z) * 2.0;
    o[k + 5u] = clamp(v.w, -1.5, 2.5);
    o[k + 6u] = min(v.x, max(v.y, v.z));
    o[k + 7u] = float(ex);
    uint j = i * 4u;
    p[j + 0u] = abs(n.y) + min(n.z, n.w);
    p[j + 1u] = max(n.y, n.z) - clamp(n.w, -100, 100);
    p[j + 2u] = findMSB(n.y) + findLSB(n.z) * 64;
    p[j + 3u] = int(max(uint(n.z), uint(n.w)) >> 16);
}
