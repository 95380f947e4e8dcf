#version 450
// imageSize of storage cube and cube-array images, beside loads through them and
// textureSize of a sampled cube. A storage view of a cube is described as a 2D array of
// its faces (as RADV does), so the size query addresses that descriptor as a 2D array,
// and a cube array's layer count is its faces divided by 6. Every value is exact.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, r32f) uniform readonly imageCube ic;        // 4 x 4
layout(set = 0, binding = 1, r32f) uniform readonly imageCubeArray ica;  // 2 x 2, 3 cubes
layout(set = 0, binding = 2) uniform samplerCube sc;                     // 8 x 8, 2 levels
layout(set = 0, binding = 3) buffer Out { ivec4 sizes[4]; vec4 o[64]; } outp;

void main() {
    uint i = gl_LocalInvocationIndex;
    ivec3 c = ivec3((i / 6u) % 4u, (i / 24u) % 4u, i % 6u);
    outp.o[i] = vec4(imageLoad(ic, c).x, imageLoad(ica, ivec3(i % 2u, (i / 2u) % 2u, i / 4u)).x,
                     float(imageSize(ic).x * 100 + imageSize(ica).z), 0.0);
    if (i == 0u) {
        outp.sizes[0] = ivec4(imageSize(ic), 0, 0);
        outp.sizes[1] = ivec4(imageSize(ica), 0);
        outp.sizes[2] = ivec4(textureSize(sc, 0), textureSize(sc, 1));
        outp.sizes[3] = ivec4(imageSize(ica).zyx, imageSize(ic).y);
    }
}
