#version 450
// Exactly rounded f32 operations: add, sub, mul, negation, abs, min, max, floor, ceil,
// trunc, roundEven, comparisons and select. Inputs are normal numbers whose results stay
// normal, so every result is bit-exact on any IEEE implementation.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer A { float a[]; };
layout(std430, set = 0, binding = 1) readonly buffer B { float b[]; };
layout(std430, set = 0, binding = 2) writeonly buffer O { float o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    float x = a[i];
    float y = b[i];
    uint k = i * 12u;
    o[k + 0] = x + y;
    o[k + 1] = x - y;
    o[k + 2] = x * y;
    o[k + 3] = -abs(x);
    o[k + 4] = min(x, y);
    o[k + 5] = max(x, y);
    o[k + 6] = floor(x);
    o[k + 7] = ceil(y);
    o[k + 8] = trunc(x);
    o[k + 9] = roundEven(y);
    o[k + 10] = x < y ? x : y * 2.0;
    o[k + 11] = (x >= 0.0 ? 1.0 : 0.0) + (y != x ? 2.0 : 0.0);
}
