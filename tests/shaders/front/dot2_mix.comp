#version 450
// spirv-val: none (SPV_VALVE_mixed_float_dot_product is newer than Debian 12's spirv-val)
// SPV_VALVE_mixed_float_dot_product (llama.cpp's Vulkan kernels use it where the device
// offers VK_VALVE_shader_mixed_float_dot_product): a.x*b.x + a.y*b.y + acc with a 32-bit
// and a 16-bit accumulator. Inputs are small multiples of 1/4, so every product and sum is
// exact and the result does not depend on how the implementation rounds.
#extension GL_EXT_spirv_intrinsics : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int32 : require

spirv_instruction(extensions = ["SPV_VALVE_mixed_float_dot_product"], capabilities = [6912], id = 6916)
float dot2_acc32(f16vec2 a, f16vec2 b, float acc);
spirv_instruction(extensions = ["SPV_VALVE_mixed_float_dot_product"], capabilities = [6913], id = 6917)
float16_t dot2_acc16(f16vec2 a, f16vec2 b, float16_t acc);

layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer In { uint a[64]; uint b[64]; float c[64]; };
layout(std430, set = 0, binding = 1) writeonly buffer Out { float r32[64]; float r16[64]; };

void main() {
    uint i = gl_LocalInvocationIndex;
    f16vec2 x = unpackFloat2x16(a[i]);
    f16vec2 y = unpackFloat2x16(b[i]);
    r32[i] = dot2_acc32(x, y, c[i]);
    r16[i] = float(dot2_acc16(x, y, float16_t(c[i])));
}
