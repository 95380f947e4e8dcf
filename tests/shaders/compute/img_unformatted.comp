#version 450
#extension GL_EXT_shader_image_load_formatted : require
// Storage images declared without a format (SPIR-V `Unknown`:
// StorageImageReadWithoutFormat, StorageImageWriteWithoutFormat): the shader is the same
// for every element of each array, and the elements are bound with different formats
// (float arrays: RGBA8 UNORM, RGBA8 SNORM, RGBA16F, A2B10G10R10 UNORM, R32F, RG16F;
// integer arrays: R32UI, RGBA8UI), so only the descriptor says how a texel is
// converted. Lavapipe 22.3 lacks shaderStorageImageReadWithoutFormat, so this case is
// checked against its Rust expectation only; img_unformatted_store (stores alone) runs on
// lavapipe too. Each invocation loads one texel of every element, reports it, stores it
// back with x and z swapped (the same width in every format used), and writes 0s and 1s
// (exact in every format) into a write-only twin; integer texels are permuted and XORed with the index (in range for 8-bit channels).
layout(local_size_x = 8, local_size_y = 4) in;
layout(set = 0, binding = 0) uniform image2D fimg[6];
layout(set = 0, binding = 1) uniform writeonly image2D fout[6];
layout(set = 0, binding = 2) uniform uimage2D uimg[2];
layout(set = 0, binding = 3) buffer FOut { vec4 f[6 * 32]; } floats;
layout(set = 0, binding = 4) buffer UOut { uvec4 u[2 * 32]; } uints;

void main() {
    ivec2 p = ivec2(gl_LocalInvocationID.xy);
    uint i = gl_LocalInvocationIndex;
    for (int k = 0; k < 6; k++) {
        vec4 v = imageLoad(fimg[k], p);
        floats.f[k * 32 + int(i)] = v;
        imageStore(fimg[k], p, v.zyxw);
        uint b = i + uint(k);
        imageStore(fout[k], p, vec4(uvec4(b, b >> 1, b >> 2, b >> 3) & 1u));
    }
    for (int k = 0; k < 2; k++) {
        uvec4 v = imageLoad(uimg[k], p);
        uints.u[k * 32 + int(i)] = v;
        imageStore(uimg[k], p, v.yxwz ^ uvec4(i));
    }
}
