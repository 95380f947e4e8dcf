#version 450
// The lavapipe runner's fill of a multisampled image (tools/vkref/src/ms_fill.rs): Vulkan
// copies no buffer into a multisampled image, so every sample of every texel of every
// layer is stored from a storage buffer holding the raw bits of the value to store,
// element ((layer * height + y) * width + x) * samples + sample (the emulator's layout:
// the samples of a texel together). The image has no format qualifier
// (shaderStorageImageWriteWithoutFormat): the view's format converts the value.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform writeonly image2DMSArray img;
layout(set = 0, binding = 1, std430) readonly buffer In { uvec4 texels[]; };
layout(push_constant) uniform P { uint width; uint height; uint samples; uint layers; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= width * height * layers * samples) {
        return;
    }
    uint s = i % samples;
    uint x = i / samples % width;
    uint y = i / (samples * width) % height;
    uint l = i / (samples * width * height);
    imageStore(img, ivec3(x, y, l), int(s), uintBitsToFloat(texels[i]));
}
