#version 450
#extension GL_EXT_control_flow_attributes : require
// Loop controls (issue 15's unrolling policy). A 256-iteration [[unroll]] loop (a per-lane
// hash chain) and a 64-iteration [[unroll]] loop with a divergent if in its body are both
// past gcnc's default unrolling limits (32 iterations, 512 IR instructions) and are
// unrolled because the source asks for it; a [[dont_unroll]] loop of 4 iterations, small
// enough for the default limits, stays a loop.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer I { uint d[]; };
layout(std430, set = 0, binding = 1) writeonly buffer O { uint o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint x = d[i];
    uint h = x;
    [[unroll]] for (uint k = 0u; k < 256u; k++) {
        h = (h ^ k) * 16777619u;
    }
    uint s = 0u;
    [[unroll]] for (int k = 0; k < 64; k++) {
        if (((x >> (k & 31)) & 1u) != 0u) {
            s += uint(k) * 3u + (x >> 7);
        } else {
            s ^= uint(k) << 5;
        }
    }
    uint t = x;
    [[dont_unroll]] for (uint k = 0u; k < 4u; k++) {
        t = t * 5u + k;
    }
    o[3u * i] = h;
    o[3u * i + 1u] = s;
    o[3u * i + 2u] = t;
}
