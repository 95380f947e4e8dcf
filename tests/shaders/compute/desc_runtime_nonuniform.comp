#version 450
#extension GL_EXT_nonuniform_qualifier : require
// Runtime-sized descriptor arrays indexed per invocation (`nonuniformEXT`): separate
// sampled images with one sampler, storage buffers (loads, stores, atomics) and storage
// images (loads and stores), each array the last binding of its set. Neighbouring lanes
// use different elements, so every wave takes several trips of the waterfall loop.
// Every lane writes only its own texel and buffer word; the atomics add into one word
// of each buffer element.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { uvec4 o[]; } outp;
layout(set = 0, binding = 1) uniform sampler smp;
layout(set = 0, binding = 2) uniform texture2D tex[];
layout(set = 1, binding = 0) buffer B { uint v[]; } bufs[];
layout(set = 2, binding = 0, r32ui) uniform uimage2D imgs[];

void main() {
    uint i = gl_LocalInvocationIndex;
    uint t = (i * 5u + 1u) % 3u;
    uint k = (i + i / 3u) % 4u;
    uint m = (i * 3u) % 2u + (i / 32u);
    vec2 uv = (vec2(i % 4u, (i / 4u) % 4u) + 0.5) / 4.0;
    uint a = uint(textureLod(sampler2D(tex[nonuniformEXT(t)], smp), uv, 0.0).x);
    uint b = bufs[nonuniformEXT(k)].v[i];
    bufs[nonuniformEXT(k)].v[i] = b * 3u + a;
    atomicAdd(bufs[nonuniformEXT(k)].v[64], i + 1u);
    ivec2 p = ivec2(i % 8u, i / 8u);
    uint c = imageLoad(imgs[nonuniformEXT(m)], p).x;
    imageStore(imgs[nonuniformEXT(m)], p, uvec4(c + a * 16u + k));
    outp.o[i] = uvec4(a, b, c, t + 4u * k + 16u * m);
}
