#version 450
// Storage images: load, modify and store in place for rgba8, r32f, rgba16f and r32ui, and
// imageSize of each (tools/vkref/src/corpus/images.rs).
layout(local_size_x = 4, local_size_y = 4) in;
layout(set = 0, binding = 0, rgba8) uniform image2D img_rgba8;
layout(set = 0, binding = 1, r32f) uniform image2D img_r32f;
layout(set = 0, binding = 2, rgba16f) uniform image2D img_rgba16f;
layout(set = 0, binding = 3, r32ui) uniform uimage2D img_r32ui;
layout(set = 0, binding = 4) buffer Sizes { ivec2 sizes[4]; };

void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    vec4 c = imageLoad(img_rgba8, p);
    imageStore(img_rgba8, p, c.wzyx);
    float f = imageLoad(img_r32f, p).x;
    imageStore(img_r32f, p, vec4(f * 2.0 + 1.0));
    vec4 h = imageLoad(img_rgba16f, p);
    imageStore(img_rgba16f, p, h * 0.5 + vec4(0.25));
    uint u = imageLoad(img_r32ui, p).x;
    imageStore(img_r32ui, p, uvec4((u ^ 0x5a5a5a5au) + uint(p.x + 8 * p.y)));
    if (p == ivec2(0)) {
        sizes[0] = imageSize(img_rgba8);
        sizes[1] = imageSize(img_r32f);
        sizes[2] = imageSize(img_rgba16f);
        sizes[3] = imageSize(img_r32ui);
    }
}
