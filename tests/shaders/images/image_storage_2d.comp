#version 450
// Storage images, 2D: every invocation reads its texel of an rgba32f image, writes a
// transformed copy into a second image, and records the image size (imageSize). The
// second load reads only .y (dmask 0x2).
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0, rgba32f) uniform readonly image2D src;
layout(set = 0, binding = 1, rgba32f) uniform writeonly image2D dst;
layout(std430, set = 0, binding = 2) buffer Out { ivec2 size; };
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    vec4 t = imageLoad(src, p);
    float n = imageLoad(src, p + ivec2(1, 0)).y;
    imageStore(dst, p, t.wzyx * 2.0 + vec4(p, n, 1.0));
    if (p == ivec2(0)) {
        size = imageSize(src);
    }
}
