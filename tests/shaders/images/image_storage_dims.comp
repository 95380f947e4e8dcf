#version 450
// Storage images of every other dimension: 1D, 3D, 2D array and cube (a cube is addressed
// as six layers, z = face; a cube array as 6·layers, z = face + 6·layer), each loaded,
// stored back changed, and sized.
layout(local_size_x = 4, local_size_y = 4) in;
layout(set = 0, binding = 0, rgba32ui) uniform uimage1D i1;
layout(set = 0, binding = 1, r32f) uniform image3D i3;
layout(set = 0, binding = 2, rgba8) uniform image2DArray ia;
layout(set = 0, binding = 3, rgba32i) uniform iimageCube ic;
layout(set = 0, binding = 5, rgba32f) uniform imageCubeArray ica;
layout(std430, set = 0, binding = 4) buffer Out { int s1; ivec3 s3; ivec3 sa; ivec2 sc; ivec3 sca; };
void main() {
    ivec3 p = ivec3(gl_GlobalInvocationID);
    imageStore(i1, p.x, imageLoad(i1, p.x) + uvec4(1u, 2u, 3u, 4u));
    imageStore(i3, p, imageLoad(i3, p) * 0.5);
    imageStore(ia, ivec3(p.xy, 1), imageLoad(ia, ivec3(p.xy, 0)).bgra);
    for (int face = 0; face < 6; face++) {
        imageStore(ic, ivec3(p.xy, face), imageLoad(ic, ivec3(p.xy, face)) - ivec4(face));
    }
    imageStore(ica, ivec3(p.xy, 6 + 2), imageLoad(ica, ivec3(p.xy, 2)) + 1.0);
    if (p == ivec3(0)) {
        s1 = imageSize(i1);
        s3 = imageSize(i3);
        sa = imageSize(ia);
        sc = imageSize(ic);
        sca = imageSize(ica);
    }
}
