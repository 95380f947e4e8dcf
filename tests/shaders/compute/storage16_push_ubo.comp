#version 450
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_8bit_storage : require
#extension GL_EXT_shader_16bit_storage : require
// 8/16-bit push constants and uniform buffers (storagePushConstant8/16,
// uniformAndStorageBuffer8/16BitAccess): scalars at uniform offsets, u16vec4 and i8vec4
// UBO elements at lane-dependent offsets, and push-constant arrays (32- and 16-bit)
// indexed per lane and (16- and 8-bit) by the workgroup id, a uniform dynamic offset.
layout(local_size_x = 32) in;
layout(push_constant) uniform P {
    uint16_t a;
    int16_t b;
    uint8_t c;
    int8_t d;
    float16_t h;
    uint k[8];
    uint16_t s[8];
    uint8_t t[8];
} pc;
layout(std140, set = 0, binding = 0) uniform U {
    u16vec4 q[16];
    i8vec4 e[4];
};
layout(std430, set = 0, binding = 1) writeonly buffer O { uint o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    u16vec4 v = q[i % 16u];
    i8vec4 e4 = e[i % 4u];
    uint r = uint(pc.a) + uint(int(pc.b)) + uint(pc.c) + uint(int(pc.d));
    o[4u * i + 0u] = r + uint(v.x) + (uint(v.w) << 16);
    o[4u * i + 1u] = pc.k[i % 8u] ^ uint(int(e4.y) * 1000 + int(e4.w));
    o[4u * i + 2u] = uint(pc.s[(i * 3u) % 8u]) | (uint(q[(i + 1u) % 16u].y) << 16);
    o[4u * i + 3u] = floatBitsToUint(float(pc.h) * float(i));
    uint w = gl_WorkGroupID.x;
    o[4u * i + 3u] ^= uint(pc.s[w + 1u]) << 16 | uint(pc.t[(w * 3u) % 8u]);
}
