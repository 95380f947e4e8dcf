#version 450
#extension GL_EXT_nonuniform_qualifier : require
// Runtime-sized descriptor arrays (RuntimeDescriptorArray, descriptorIndexing) of
// combined image samplers, storage buffers and storage images, each the last binding of
// its set (the packed layout places such an array after the set's other bindings), indexed
// by constants and by a dynamically uniform index from push constants. No index is
// non-uniform here (desc_runtime_nonuniform has those), so drivers without the
// non-uniform indexing features run it. The push constants are k = 3 and m = 0, so the
// buffer element written is not one read.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { uvec4 o[]; } outp;
layout(set = 0, binding = 1) uniform sampler2D tex[];
layout(set = 1, binding = 0) buffer B { uint v[]; } bufs[];
layout(set = 2, binding = 0, r32ui) uniform uimage2D imgs[];
layout(push_constant) uniform P { uint k; uint m; } pc;

void main() {
    uint i = gl_LocalInvocationIndex;
    vec2 uv = (vec2(i % 4u, (i / 4u) % 4u) + 0.5) / 4.0;
    uint a = uint(textureLod(tex[2], uv, 0.0).x);
    uint b = uint(textureLod(tex[pc.k], uv, 0.0).x);
    ivec2 sz = textureSize(tex[pc.m], 0);
    uint c = bufs[1].v[i % 16u] + bufs[pc.m].v[i % 8u] * 3u;
    bufs[pc.k].v[i] = a * 7u + i;
    uint d = imageLoad(imgs[0], ivec2(i % 2u, 0)).x;
    imageAtomicAdd(imgs[pc.k], ivec2(i % 2u, 0), i + 1u);
    outp.o[i] = uvec4(a + 1000u * b, c, d, uint(sz.x * 100 + sz.y));
}
