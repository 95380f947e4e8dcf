#version 450
// Signed 32-bit integer arithmetic: wrapping add/sub/mul, truncating division, modulo with
// non-negative operands (GLSL leaves % of negatives undefined, and lavapipe evaluates
// glslang's OpSMod with the dividend's sign), shifts, bitwise ops, abs/sign/min/max/clamp. Divisors are
// never 0 and INT_MIN / -1 never occurs.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer A { int a[]; };
layout(std430, set = 0, binding = 1) readonly buffer B { int b[]; };
layout(std430, set = 0, binding = 2) writeonly buffer O { int o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    int x = a[i];
    int y = b[i];
    uint k = i * 16u;
    o[k + 0] = x + y;
    o[k + 1] = x - y;
    o[k + 2] = x * y;
    o[k + 3] = x / y;
    o[k + 4] = (x & 0x7fffffff) % max(abs(y), 1);
    o[k + 5] = x >> (y & 31);
    o[k + 6] = x << (y & 31);
    o[k + 7] = int(uint(x) >> uint(y & 31));
    o[k + 8] = x & y;
    o[k + 9] = x | y;
    o[k + 10] = x ^ ~y;
    o[k + 11] = -x;
    o[k + 12] = abs(x);
    o[k + 13] = sign(x) + 3 * sign(y);
    o[k + 14] = min(x, y) - max(x, y);
    o[k + 15] = clamp(x, -1000, 1000) + (x < y ? 1 : 0) + (x == y ? 2 : 0) + (x >= y ? 4 : 0);
}
