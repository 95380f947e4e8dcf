#version 450
// A std140 uniform block: float array with 16-byte stride, vec3 + float packed, mat3 with
// 16-byte column stride, ivec2, vec2 array with 16-byte stride; read with uniform and
// divergent indices. Small integer data, exact results.
layout(local_size_x = 64) in;
layout(std140, set = 0, binding = 0) uniform U {
    float f[4];
    vec3 v;
    float g;
    mat3 m3;
    ivec2 iv;
    vec2 arr[2];
    uint scale;
};
layout(std430, set = 0, binding = 1) writeonly buffer O { vec4 o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    float t = float(i);
    vec3 r = m3 * (v + vec3(t));
    o[i] = vec4(r, f[i & 3u] * g + float(iv.x * int(i) - iv.y)) + vec4(arr[i & 1u], arr[(i + 1u) & 1u]) * float(scale);
}
