#version 450
#extension GL_EXT_control_flow_attributes : require
// Register pressure that forces spilling: 300 values per lane are live at once (each is
// updated by a running hash in every round, so none can be recomputed), more than the 256
// VGPRs an AMD wave can address.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer I { uint d[]; };
layout(std430, set = 0, binding = 1) writeonly buffer O { uint o[]; };
const int N = 300;
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint seed = d[i];
    uint v[N];
    [[unroll]] for (int k = 0; k < N; k++) {
        seed = seed * 1664525u + 1013904223u;
        v[k] = seed ^ (seed >> 15);
    }
    uint acc = 0u;
    [[unroll]] for (int r = 0; r < 3; r++) {
        [[unroll]] for (int k = 0; k < N; k++) {
            acc = (acc ^ v[k]) * 0x9e3779b1u + uint(r);
            v[k] += acc >> 7;
        }
    }
    uint x = 0u;
    [[unroll]] for (int k = 0; k < N; k++) {
        x ^= v[k] << (k & 7);
    }
    o[i * 2u] = acc;
    o[i * 2u + 1u] = x;
}
