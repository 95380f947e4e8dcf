#version 450
// vkref draw's per-sample readback of a multisampled attachment (tools/vkref/src/draw.rs):
// every sample of every pixel, as the raw bits of what texelFetch returns, sample planes
// first: element (s * height + y) * width + x.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform usampler2DMS img;
layout(set = 0, binding = 1, std430) writeonly buffer Out { uvec4 texels[]; };
layout(push_constant) uniform P { uint width; uint height; uint samples; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= width * height * samples) {
        return;
    }
    uint x = i % width;
    uint y = i / width % height;
    int s = int(i / (width * height));
    uvec4 v = texelFetch(img, ivec2(x, y), s);
    texels[i] = v;
}
