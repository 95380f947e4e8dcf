#version 450
// `.length()` of runtime arrays (OpArrayLength): the element count comes from the bound
// buffer's size, after the block's fixed members, for elements of 4, 12 (vec3 in a struct
// of 16) and 8 bytes; each invocation also indexes by it.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer A { uint a[]; };
struct S { vec3 p; float w; };
layout(std430, set = 0, binding = 1) readonly buffer B { uint head[4]; S s[]; };
layout(std430, set = 0, binding = 2) readonly buffer C { uvec2 c[]; };
layout(std430, set = 0, binding = 3) writeonly buffer O { uint o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint na = uint(a.length()), ns = uint(s.length()), nc = uint(c.length());
    o[4u * i] = na;
    o[4u * i + 1u] = ns;
    o[4u * i + 2u] = nc;
    o[4u * i + 3u] = a[i % na] + uint(s[i % ns].w) + c[i % nc].y;
}
