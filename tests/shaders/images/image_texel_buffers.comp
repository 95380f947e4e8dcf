#version 450
// Texel buffers: a uniform texel buffer read with texelFetch, a storage texel buffer
// loaded and stored by index, an r32ui storage texel buffer's atomics, and both sizes.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform samplerBuffer ub;
layout(set = 0, binding = 1, rgba32f) uniform imageBuffer sb;
layout(set = 0, binding = 2, r32ui) uniform uimageBuffer cb;
layout(std430, set = 0, binding = 3) buffer Out { int usize; int ssize; uint olds[]; };
void main() {
    int i = int(gl_GlobalInvocationID.x);
    vec4 u = texelFetch(ub, i);
    imageStore(sb, i, imageLoad(sb, i) + u);
    imageAtomicAdd(cb, 0, 1u);
    imageAtomicMax(cb, 1, uint(i));
    olds[i] = imageAtomicExchange(cb, 2 + i, uint(i) * 5u);
    if (i == 0) {
        usize = textureSize(ub);
        ssize = imageSize(sb);
    }
}
