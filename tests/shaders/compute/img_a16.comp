#version 450
// Storage-image addresses that are 16-bit integers in plain GLSL (i16/u16 values widened
// to int for imageLoad / imageStore), which the middle end narrows back so the hardware
// reads them as A16: 1D, 2D, 2D-array and 3D images, loads, stores, a read-modify-write,
// and reads and writes outside the image (x, y in -2..5 on 4 x 4 images; layer 2 of two;
// a 1D coordinate past the end), which robustImageAccess2 answers with zero texels and
// dropped writes whether the address is 16 or 32 bits wide.
#extension GL_EXT_shader_explicit_arithmetic_types : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, rgba8ui) uniform readonly uimage2D u8;   // 4 x 4
layout(set = 0, binding = 1, r32f) uniform readonly image2DArray f1;  // 4 x 4, 2 layers
layout(set = 0, binding = 2, r32ui) uniform uimage3D vol;             // 4 x 4 x 4
layout(set = 0, binding = 3, r32ui) uniform readonly uimage1D line;   // 48
layout(set = 0, binding = 4, r32ui) uniform writeonly uimage2D w;     // 4 x 4
layout(set = 0, binding = 5, rgba16f) uniform writeonly image2D h;    // 8 x 8
layout(set = 0, binding = 6) buffer Out { uvec4 a[64]; vec4 b[64]; uvec4 c[64]; } o;

void main() {
    uint i = gl_LocalInvocationIndex;
    i16vec2 p = i16vec2(int16_t(i % 8u), int16_t(i / 8u)) - i16vec2(2s);
    int16_t l = int16_t(i % 3u);
    o.a[i] = imageLoad(u8, ivec2(p));
    o.b[i] = imageLoad(f1, ivec3(p, l));
    u16vec3 v = u16vec3(uint16_t(i & 3u), uint16_t((i >> 2u) & 3u), uint16_t(i >> 4u));
    uint old = imageLoad(vol, ivec3(v)).x;
    imageStore(vol, ivec3(v), uvec4(old * 3u + i));
    uint16_t k = uint16_t(i) - uint16_t(8u);
    o.c[i] = uvec4(old, imageLoad(line, int(k)).x, 0u, 0u);
    imageStore(w, ivec2(p), uvec4(i + 1u));
    i16vec2 q = i16vec2(int16_t(i % 8u), int16_t(i / 8u));
    imageStore(h, ivec2(q), vec4(float(i), float(i) * -0.125, 0.5, 1.0));
}
