#version 450
// Out-of-bounds image reads and writes, under Vulkan's robustImageAccess2: a read outside
// the image (x, y, z or layer) returns zero in every component the format has and
// Vulkan's conversion to RGBA for the ones it lacks (0, 0, 1); a write there has no
// effect. Half of the 8 x 8 coordinates (-2..5) fall outside the 4 x 4 images, layer 2 of
// a two-layer array and slice 2 of a two-slice 3D image are outside too.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, rgba8ui) uniform readonly uimage2D u8;   // 4 x 4
layout(set = 0, binding = 1, r32f) uniform readonly image2DArray f1;  // 4 x 4, 2 layers
layout(set = 0, binding = 2, rg16f) uniform readonly image3D h2;      // 4 x 4 x 2
layout(set = 0, binding = 3) uniform sampler2D t8;                     // RGBA8 UNORM 4 x 4
layout(set = 0, binding = 4) uniform usampler2D t32;                   // R32UI 4 x 4
layout(set = 0, binding = 5, r32ui) uniform writeonly uimage2D w;      // 4 x 4
layout(set = 0, binding = 6) buffer Out { uvec4 a[64]; vec4 b[64]; vec4 c[64]; uvec4 e[64]; } o;
layout(set = 0, binding = 7) buffer OutD { vec4 d[64]; } od;

void main() {
    uint i = gl_LocalInvocationIndex;
    ivec2 p = ivec2(int(i % 8u) - 2, int(i / 8u) - 2);
    int l = int(i % 3u);
    o.a[i] = imageLoad(u8, p);
    o.b[i] = imageLoad(f1, ivec3(p, l));
    o.c[i] = imageLoad(h2, ivec3(p, l));
    od.d[i] = texelFetch(t8, p, 0);
    o.e[i] = texelFetch(t32, p, 0);
    imageStore(w, p, uvec4(i + 1u));
}
