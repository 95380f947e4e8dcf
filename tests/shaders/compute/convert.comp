#version 450
// Conversions: float <-> int/uint (in range), double <-> float/int, bit casts, and the
// packing built-ins (packHalf2x16/unpackHalf2x16 on representable values, packUnorm4x8 and
// packSnorm2x16 away from rounding ties, unpackUnorm4x8 within 1 ULP).
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer A { float a[]; };
layout(std430, set = 0, binding = 1) readonly buffer B { int b[]; };
layout(std430, set = 0, binding = 2) writeonly buffer O { uint o[]; };
layout(std430, set = 0, binding = 3) writeonly buffer U { float u[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    float x = a[i];
    int y = b[i];
    uint k = i * 10u;
    o[k + 0] = uint(int(x));
    o[k + 1] = uint(abs(x));
    o[k + 2] = floatBitsToUint(float(y));
    o[k + 3] = floatBitsToUint(float(uint(y) >> 8));
    o[k + 4] = packHalf2x16(vec2(float(y & 1023) * 0.25, -float((y >> 10) & 255)));
    o[k + 5] = packUnorm4x8(vec4(float(y & 255) / 256.0 + 0.001, 0.25, 1.5, -0.5));
    o[k + 6] = packSnorm2x16(vec2(float(y & 255) / 256.0 + 0.00001, -0.75));
    o[k + 7] = floatBitsToUint(float(double(x) * 2.0lf));
    o[k + 8] = uint(int(double(y) / 4.0lf));
    o[k + 9] = floatBitsToUint(intBitsToFloat((y & 0x3fffffff) | 0x01000000) + 0.5);
    vec2 h = unpackHalf2x16(uint(y));
    vec4 n = unpackUnorm4x8(uint(y));
    u[i * 3u + 0u] = h.x + h.y;
    u[i * 3u + 1u] = n.x + n.y;
    u[i * 3u + 2u] = n.z * n.w;
}
