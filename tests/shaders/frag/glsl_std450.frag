#version 450
// spirv-opt: -O
// Every GLSL.std.450 family at least once (trig, exp/log, rounding, packing, bit finding,
// matrices: determinant and inverse, modf/frexp/ldexp).
layout(location = 0) in vec4 x;
layout(location = 1) flat in ivec4 iv;
layout(location = 0) out vec4 o0;
layout(location = 1) out vec4 o1;
layout(location = 2) out uvec4 o2;
void main() {
    vec4 a = sin(x) + cos(x) + tan(x) + asin(x * 0.5) + acos(x * 0.5) + atan(x) + atan(x, x.wzyx);
    vec4 b = sinh(x) + cosh(x) + tanh(x) + asinh(x) + acosh(x + 2.0) + atanh(x * 0.5);
    vec4 c = exp(x) + log(abs(x) + 1.0) + exp2(x) + log2(abs(x) + 1.0) + sqrt(abs(x)) + inversesqrt(abs(x) + 1.0);
    vec4 d = round(x) + roundEven(x) + trunc(x) + floor(x) + ceil(x) + fract(x) + sign(x) + radians(x) + degrees(x);
    vec4 e = mix(x, x.yzwx, 0.3) + clamp(x, -1.0, 1.0) + step(0.5, x) + fma(x, x, x) + pow(abs(x), vec4(1.5)) + mod(x, 2.0);
    vec4 whole;
    vec4 fr = modf(x, whole);
    ivec4 ex;
    vec4 sig = frexp(x, ex);
    vec4 ld = ldexp(sig, ex);
    mat3 m = mat3(x.xyz, x.yzw, x.zwx);
    mat3 mi = inverse(m);
    mat2 m2 = inverse(mat2(x));
    float det = determinant(m) + determinant(mat4(x, x.yzwx, x.zwxy, x.wxyz));
    o0 = a + b + c + d + e + fr + whole + ld + vec4(mi[0] + cross(x.xyz, x.yzw), det) + vec4(m2[1], distance(x, x.wzyx), length(x));
    uint p = packHalf2x16(x.xy) ^ packUnorm4x8(x) ^ packSnorm4x8(x) ^ packUnorm2x16(x.zw) ^ packSnorm2x16(x.xy);
    vec2 up = unpackHalf2x16(p) + unpackUnorm2x16(p) + unpackSnorm2x16(p);
    vec4 up4 = unpackUnorm4x8(p) + unpackSnorm4x8(p);
    o1 = vec4(up, 0.0, 0.0) + up4 + vec4(min(iv, ivec4(3))) + vec4(max(abs(iv), ivec4(1))) + vec4(clamp(iv, -2, 2)) + vec4(sign(iv));
    uvec4 u = uvec4(iv);
    o2 = uvec4(findLSB(u)) + uvec4(findMSB(iv)) + uvec4(findMSB(u)) + bitCount(u) + bitfieldReverse(u)
       + bitfieldExtract(u, 3, 5) + uvec4(bitfieldExtract(iv, 2, 4)) + bitfieldInsert(u, u.wzyx, 4, 8)
       + min(u, uvec4(7u)) + max(u, uvec4(2u)) + clamp(u, 1u, 9u);
    uint hi, lo;
    umulExtended(u.x, u.y, hi, lo);
    uint carry;
    uint s = uaddCarry(u.z, u.w, carry);
    o2.x += hi + lo + s + carry;
}
