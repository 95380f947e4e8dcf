#version 450
// LocalSizeId through specialization constants, a spec-constant-sized shared array and
// OpSpecConstantOp arithmetic.
layout(local_size_x_id = 0, local_size_y_id = 1) in;
layout(constant_id = 0) const uint WX = 8u;
layout(constant_id = 1) const uint WY = 4u;
layout(constant_id = 2) const int SHIFT = 1;
const uint N = WX * WY;
const uint HALF = N >> SHIFT;
shared float tile[N];
layout(std430, set = 0, binding = 0) buffer B { float data[]; };
void main() {
    uint i = gl_LocalInvocationIndex;
    tile[i] = data[gl_GlobalInvocationID.x];
    barrier();
    if (i < HALF) data[gl_GlobalInvocationID.x] = tile[i] + tile[i + HALF];
}
