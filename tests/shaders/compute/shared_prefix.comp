#version 450
// A workgroup-wide inclusive prefix sum (Hillis-Steele) over 128 invocations with a
// double-buffered shared array and a barrier per step.
layout(local_size_x = 128) in;
layout(std430, set = 0, binding = 0) readonly buffer I { uint d[]; };
layout(std430, set = 0, binding = 1) writeonly buffer O { uint o[]; };
shared uint buf[2][128];
void main() {
    uint l = gl_LocalInvocationIndex;
    buf[0][l] = d[gl_GlobalInvocationID.x];
    barrier();
    uint src = 0u;
    for (uint off = 1u; off < 128u; off <<= 1) {
        uint v = buf[src][l];
        if (l >= off) {
            v += buf[src][l - off];
        }
        buf[1u - src][l] = v;
        barrier();
        src = 1u - src;
    }
    o[gl_GlobalInvocationID.x] = buf[src][l];
}
