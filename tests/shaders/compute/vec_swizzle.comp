#version 450
// Vector operations: swizzles on both sides, cross and dot, mix with a boolean vector,
// vector comparisons with any/all, integer vector arithmetic. Half-integer data, exact.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer A { vec4 a[]; };
layout(std430, set = 0, binding = 1) readonly buffer B { ivec4 b[]; };
layout(std430, set = 0, binding = 2) writeonly buffer O { vec4 o[]; };
layout(std430, set = 0, binding = 3) writeonly buffer P { ivec4 p[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    vec4 x = a[i];
    ivec4 y = b[i];
    vec4 fy = vec4(y);
    o[i * 3u + 0u] = x.wzyx * 2.0 + x.xxyy;
    o[i * 3u + 1u] = vec4(cross(x.xyz, fy.xyz), dot(x, fy));
    vec4 t = x;
    t.zx = fy.yw;
    o[i * 3u + 2u] = mix(t, fy, lessThan(x, fy));
    p[i * 2u + 0u] = y.zwxy * ivec4(3) - (y >> 1) + ivec4(greaterThanEqual(y, ivec4(0)));
    p[i * 2u + 1u] = ivec4(any(greaterThan(x, fy)), all(lessThan(x, vec4(10.0))), int(x.x), clamp(y.w, -5, 5));
}
