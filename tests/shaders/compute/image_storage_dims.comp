#version 450
// Storage images of every other dimension: 1D, 3D, 2D array and cube (a cube is addressed
// as six layers, z = face), each loaded, stored back incremented, and sized.
layout(local_size_x = 4, local_size_y = 4) in;
layout(set = 0, binding = 0, rgba32ui) uniform uimage1D i1;
layout(set = 0, binding = 1, r32f) uniform image3D i3;
layout(set = 0, binding = 2, rgba8) uniform image2DArray ia;
layout(set = 0, binding = 3, rgba32i) uniform iimageCube ic;
layout(std430, set = 0, binding = 4) buffer Out { int s1; ivec3 s3; ivec3 sa; ivec2 sc; };
void main() {
    ivec3 p = ivec3(gl_GlobalInvocationID);
    imageStore(i1, p.x, imageLoad(i1, p.x) + uvec4(1u, 2u, 3u, 4u));
    imageStore(i3, p, imageLoad(i3, p) * 0.5);
    imageStore(ia, ivec3(p.xy, 1), imageLoad(ia, ivec3(p.xy, 0)).bgra);
    for (int face = 0; face < 6; face++) {
        imageStore(ic, ivec3(p.xy, face), imageLoad(ic, ivec3(p.xy, face)) - ivec4(face));
    }
    if (p == ivec3(0)) {
        s1 = imageSize(i1);
        s3 = imageSize(i3);
        sa = imageSize(ia);
        sc = imageSize(ic);
    }
}
