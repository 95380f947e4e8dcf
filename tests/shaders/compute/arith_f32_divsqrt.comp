#version 450
// f32 division, reciprocal, sqrt and inversesqrt: compared within 3 ULP (Vulkan allows
// 2.5 ULP for division and 2 ULP for inversesqrt; AMD's v_rcp/v_sqrt are approximate).
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer A { float a[]; };
layout(std430, set = 0, binding = 1) readonly buffer B { float b[]; };
layout(std430, set = 0, binding = 2) writeonly buffer O { float o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    float x = a[i];
    float y = b[i];
    uint k = i * 4u;
    o[k + 0] = x / y;
    o[k + 1] = 1.0 / y;
    o[k + 2] = sqrt(abs(x));
    o[k + 3] = inversesqrt(abs(y));
}
