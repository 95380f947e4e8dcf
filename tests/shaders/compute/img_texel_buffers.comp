#version 450
// Texel buffers: a uniform texel buffer (rgba32f) read with texelFetch, a storage texel
// buffer (r32ui) written and counted into with an atomic, an rgba8 storage texel buffer
// written, and textureSize / imageSize of each.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform samplerBuffer src;
layout(set = 0, binding = 1, r32ui) uniform uimageBuffer dst;
layout(set = 0, binding = 2, rgba8) uniform writeonly imageBuffer dst8;

void main() {
    int i = int(gl_GlobalInvocationID.x);
    vec4 v = texelFetch(src, i);
    imageStore(dst, i, uvec4(uint(v.x + v.y * v.z + v.w)));
    imageStore(dst8, i, v / 64.0);
    if (v.w > 32.0) {
        imageAtomicAdd(dst, textureSize(src), 1u);
    }
    if (i == 0) {
        imageAtomicAdd(dst, textureSize(src) + 1, uint(imageSize(dst) * 1000 + imageSize(dst8)));
    }
}
