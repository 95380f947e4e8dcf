#version 450
// Shared-memory atomics: a per-workgroup histogram and maximum, initialised and flushed
// around barriers, then merged into global memory with buffer atomics.
layout(local_size_x = 128) in;
layout(std430, set = 0, binding = 0) readonly buffer I { uint d[]; };
layout(std430, set = 0, binding = 1) buffer H {
    uint hist[32];
    uint gmax;
};
shared uint sh[32];
shared uint smax;
void main() {
    uint l = gl_LocalInvocationIndex;
    if (l < 32u) {
        sh[l] = 0u;
    }
    if (l == 0u) {
        smax = 0u;
    }
    barrier();
    uint x = d[gl_GlobalInvocationID.x];
    atomicAdd(sh[x % 32u], 1u + (x >> 28));
    atomicMax(smax, x);
    barrier();
    if (l < 32u) {
        atomicAdd(hist[l], sh[l]);
    }
    if (l == 0u) {
        atomicMax(gmax, smax);
    }
}
