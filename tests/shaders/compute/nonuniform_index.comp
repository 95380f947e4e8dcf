#version 450
#extension GL_EXT_nonuniform_qualifier : require
// Descriptor arrays indexed by a different element in each invocation (`nonuniformEXT`):
// storage buffers read and written (plain stores and atomics), uniform buffers, sampled
// images and storage images. The indices differ between neighbouring lanes, so every wave
// needs several rounds of the waterfall loop. The buffer elements have different lengths
// (each descriptor covers its own element, and `length()` reads it), and every access
// stays inside its element. Lavapipe (Mesa 22.3) offers none of the non-uniform indexing
// features: this case is checked against its Rust expectation only (corpus::LAVAPIPE_LACKS).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer Src { uint v[]; } src[4];
layout(set = 0, binding = 1) buffer Dst { uint v[]; } dst[3];
layout(set = 0, binding = 2) uniform Scale { uvec4 s[4]; } scale[2];
layout(set = 0, binding = 3) uniform sampler2D tex[3];
layout(set = 0, binding = 4, r32ui) uniform uimage2D counters[2];
layout(set = 0, binding = 5) buffer Out { uint o[]; } outp;

void main() {
    uint i = gl_LocalInvocationIndex;
    uint k = (i * 7u + 3u) % 4u;
    uint w = (i + i / 5u) % 3u;
    // Element k holds 16 * (k + 1) words.
    uint a = src[nonuniformEXT(k)].v[i % uint(src[nonuniformEXT(k)].v.length())];
    uint s = scale[nonuniformEXT((i >> 1) & 1u)].s[i % 4u].x;
    dst[nonuniformEXT(w)].v[i] = a * s + k;
    atomicAdd(dst[nonuniformEXT(w)].v[64], a + 1u);
    vec2 uv = (vec2(i % 4u, (i / 4u) % 4u) + 0.5) / 4.0;
    float t = textureLod(tex[nonuniformEXT(i % 3u)], uv, 0.0).x;
    imageAtomicAdd(counters[nonuniformEXT(k & 1u)], ivec2(i % 2u, 0), i);
    outp.o[i] = uint(t) + 1000u * k;
}
