#version 450
// Storage images in a fragment shader: read-modify-write, image atomics, early tests.
layout(early_fragment_tests) in;
layout(location = 0) out vec4 color;
layout(set = 0, binding = 0, rgba8) uniform image2D img;
layout(set = 0, binding = 1, r32ui) uniform uimage2D counter;
void main() {
    ivec2 p = ivec2(gl_FragCoord.xy);
    vec4 v = imageLoad(img, p);
    imageStore(img, p, v * 0.5);
    uint n = imageAtomicAdd(counter, p, 1u);
    uint m = imageAtomicCompSwap(counter, p / 2, 0u, n);
    color = vec4(float(n + m), vec3(imageSize(img), 0.0).xy, 1.0);
}
