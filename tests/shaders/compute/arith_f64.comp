#version 450
// f64 arithmetic: add/sub/mul/min/max/floor/abs exact; fma on operands whose product is
// exact (so fused and unfused agree); division and sqrt within a few ULP.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer A { double a[]; };
layout(std430, set = 0, binding = 1) readonly buffer B { double b[]; };
layout(std430, set = 0, binding = 2) writeonly buffer O { double o[]; };
layout(std430, set = 0, binding = 3) writeonly buffer Q { double q[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    double x = a[i];
    double y = b[i];
    uint k = i * 8u;
    o[k + 0] = x + y;
    o[k + 1] = x - y;
    o[k + 2] = x * y;
    o[k + 3] = fma(x, y, x);
    o[k + 4] = min(x, y) - abs(y);
    o[k + 5] = max(x, y);
    o[k + 6] = floor(x) + ceil(y);
    o[k + 7] = double(float(x)) + double(int(y));
    q[i * 2u + 0u] = x / y;
    q[i * 2u + 1u] = sqrt(abs(x));
}
