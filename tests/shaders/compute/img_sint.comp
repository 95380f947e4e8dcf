#version 450
// Signed integer texel formats, and 16-bit unsigned ones: R8G8B8A8, R16G16B16A16 and R32
// SINT and R16G16B16A16 UINT, sampled (texelFetch through isampler2D / usampler2D) and as
// storage images loaded and stored in place. A SINT channel reads sign-extended; a store
// keeps the value (all stored values lie within the channel's range), negative ones
// included; R32 SINT wraps in the shader's own arithmetic.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform isampler2D s8;             // RGBA8 SINT 8 x 8
layout(set = 0, binding = 1) uniform isampler2D s16;            // RGBA16 SINT 8 x 8
layout(set = 0, binding = 2) uniform usampler2D u16;            // RGBA16 UINT 8 x 8
layout(set = 0, binding = 3, rgba8i) uniform iimage2D i8;       // 8 x 8
layout(set = 0, binding = 4, rgba16i) uniform iimage2D i16;     // 8 x 8
layout(set = 0, binding = 5, rgba16ui) uniform uimage2D ui16;   // 8 x 8
layout(set = 0, binding = 6, r32i) uniform iimage2D i32;        // 8 x 8
layout(set = 0, binding = 7) buffer Out { ivec4 a[64]; ivec4 b[64]; uvec4 c[64]; ivec4 d[64]; } o;

void main() {
    uint i = gl_LocalInvocationIndex;
    ivec2 p = ivec2(i % 8u, i / 8u);
    o.a[i] = texelFetch(s8, p, 0);
    o.b[i] = texelFetch(s16, p.yx, 0);
    o.c[i] = texelFetch(u16, p, 0);
    ivec4 v8 = imageLoad(i8, p);
    imageStore(i8, p, v8.wzyx / 2 - ivec4(1, 0, -1, 3));
    ivec4 v16 = imageLoad(i16, p);
    imageStore(i16, p, -(v16 >> 1));
    uvec4 w16 = imageLoad(ui16, p);
    imageStore(ui16, p, (w16 ^ uvec4(0x5a5au)) & uvec4(0xffffu));
    int v32 = imageLoad(i32, p).x;
    imageStore(i32, p, ivec4(v32 * -3 + int(i)));
    o.d[i] = ivec4(v8.x, v16.w, int(w16.z), v32);
}
