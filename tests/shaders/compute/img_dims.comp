#version 450
// 1D, 1D-array, 3D and cube-array images, run rather than only compiled: texelFetch at
// two levels, textureLod with nearest filtering at LOD 0 and 1 (texel centres), textureSize
// at levels 0 and 1, and storage images of the same dimensions loaded and stored in place
// with imageSize (each lane its own texel). Not imageSize of the storage cube array: its
// descriptor is a 2D array of faces, as RADV writes it, and the compiler's size query
// names the CUBE dim, which the emulator refuses to pair with it. Cube-array lookups aim
// at the centre of a face texel (never near an edge), in cube 0 and cube 1. Every value
// is exact (R32F texels, nearest sampling).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform sampler1D t1;             // 8, 2 levels
layout(set = 0, binding = 1) uniform sampler1DArray t1a;       // 8 x 3 layers, 2 levels
layout(set = 0, binding = 2) uniform sampler3D t3;             // 4 x 4 x 4, 2 levels
layout(set = 0, binding = 3) uniform samplerCubeArray tca;     // 4 x 4, 2 cubes, 2 levels
layout(set = 0, binding = 4, r32f) uniform image1D i1;         // 64
layout(set = 0, binding = 5, r32f) uniform image1DArray i1a;   // 8 x 8 layers
layout(set = 0, binding = 6, r32f) uniform image3D i3;         // 4 x 4 x 4
layout(set = 0, binding = 7, r32f) uniform imageCubeArray ica; // 2 x 2, 3 cubes (18 faces)
layout(set = 0, binding = 8) buffer Out { vec4 o[64 * 6]; ivec4 sizes[8]; } outp;

void main() {
    uint i = gl_LocalInvocationIndex;
    int x = int(i % 8u), l = int(i / 8u) % 3, z = int(i / 16u);
    float u = (float(x) + 0.5) / 8.0;
    vec4 r0 = vec4(texelFetch(t1, x, 0).x, texelFetch(t1, x / 2, 1).x,
                   textureLod(t1, u, 0.0).x, textureLod(t1, u, 1.0).x);
    vec4 r1 = vec4(texelFetch(t1a, ivec2(x, l), 0).x, texelFetch(t1a, ivec2(x / 2, l), 1).x,
                   textureLod(t1a, vec2(u, float(l)), 0.0).x,
                   textureLod(t1a, vec2(u, float(l)), 1.0).x);
    ivec3 p3 = ivec3(x % 4, x / 4 + 2 * (int(i / 32u)), z);
    vec3 c3 = (vec3(p3) + 0.5) / 4.0;
    vec4 r2 = vec4(texelFetch(t3, p3, 0).x, texelFetch(t3, p3 / 2, 1).x,
                   textureLod(t3, c3, 0.0).x, textureLod(t3, c3, 1.0).x);
    // face f = i % 6, texel (a, b) of a 4 x 4 face, cube i / 32
    int f = int(i % 6u), a = int(i / 6u) % 4, b = int(i / 24u) % 4;
    float s = (float(a) + 0.5) / 2.0 - 1.0, t = (float(b) + 0.5) / 2.0 - 1.0;
    vec3 d = f == 0 ? vec3(1.0, -t, -s) : f == 1 ? vec3(-1.0, -t, s)
           : f == 2 ? vec3(s, 1.0, t) : f == 3 ? vec3(s, -1.0, -t)
           : f == 4 ? vec3(s, -t, 1.0) : vec3(-s, -t, -1.0);
    float cube = float(i / 32u);
    vec4 r3 = vec4(textureLod(tca, vec4(d, cube), 0.0).x, textureLod(tca, vec4(d, cube), 1.0).x,
                   textureLod(tca, vec4(d * 3.0, cube), 0.0).x, 0.0);
    float s1 = imageLoad(i1, int(i)).x;
    float s2 = imageLoad(i1a, ivec2(x, int(i / 8u))).x;
    float s3 = imageLoad(i3, ivec3(i % 4u, (i / 4u) % 4u, i / 16u)).x;
    float s4 = imageLoad(ica, ivec3(i % 2u, (i / 2u) % 2u, i / 4u)).x;
    imageStore(i1, int(i), vec4(s1 * 2.0 + 1.0));
    imageStore(i1a, ivec2(x, int(i / 8u)), vec4(s2 - 3.0));
    imageStore(i3, ivec3(i % 4u, (i / 4u) % 4u, i / 16u), vec4(-s3));
    imageStore(ica, ivec3(i % 2u, (i / 2u) % 2u, i / 4u), vec4(s4 + 0.5));
    outp.o[6u * i] = r0;
    outp.o[6u * i + 1u] = r1;
    outp.o[6u * i + 2u] = r2;
    outp.o[6u * i + 3u] = r3;
    outp.o[6u * i + 4u] = vec4(s1, s2, s3, s4);
    outp.o[6u * i + 5u] = vec4(float(f), float(a), float(b), cube);
    if (i == 0u) {
        outp.sizes[0] = ivec4(textureSize(t1, 0), textureSize(t1, 1), 0, 0);
        outp.sizes[1] = ivec4(textureSize(t1a, 0), textureSize(t1a, 1));
        outp.sizes[2] = ivec4(textureSize(t3, 0), 0);
        outp.sizes[3] = ivec4(textureSize(t3, 1), 0);
        outp.sizes[4] = ivec4(textureSize(tca, 0), 0);
        outp.sizes[5] = ivec4(textureSize(tca, 1), 0);
        outp.sizes[6] = ivec4(imageSize(i1), imageSize(i1a), 0);
        outp.sizes[7] = ivec4(imageSize(i3), textureQueryLevels(tca));
    }
}
