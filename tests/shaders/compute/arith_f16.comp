#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require
// f16 arithmetic on 16-bit storage: add/sub/mul/min/max exact (inputs keep results normal),
// division within 2 ULP, conversions f16 -> f32 exact and f32 -> f16 within 1 ULP.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer A { float16_t a[]; };
layout(std430, set = 0, binding = 1) readonly buffer B { float16_t b[]; };
layout(std430, set = 0, binding = 2) writeonly buffer O { float16_t o[]; };
layout(std430, set = 0, binding = 3) writeonly buffer D { float16_t d[]; };
layout(std430, set = 0, binding = 4) writeonly buffer W { float w[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    float16_t x = a[i];
    float16_t y = b[i];
    uint k = i * 6u;
    o[k + 0] = x + y;
    o[k + 1] = x - y;
    o[k + 2] = x * y;
    o[k + 3] = min(x, y);
    o[k + 4] = max(x, y) * float16_t(2.0);
    o[k + 5] = abs(x) - float16_t(0.5);
    d[i * 2u] = x / y;
    d[i * 2u + 1u] = float16_t(float(x) * 1.1f);
    w[i] = float(x) * 4.0 + float(y);
}
