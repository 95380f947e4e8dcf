#version 450
// Three phases through two shared arrays in a 96-invocation workgroup (not a power of two:
// a wave64 workgroup has a partial second wave), neighbours read across wave boundaries.
layout(local_size_x = 96) in;
layout(std430, set = 0, binding = 0) readonly buffer I { int d[]; };
layout(std430, set = 0, binding = 1) writeonly buffer O { int o[]; };
shared int a[96];
shared int b[96];
void main() {
    uint l = gl_LocalInvocationIndex;
    a[l] = d[gl_GlobalInvocationID.x];
    barrier();
    b[l] = a[(l + 95u) % 96u] + 2 * a[l] - a[(l + 1u) % 96u];
    barrier();
    a[l] = b[l] * 3 - b[95u - l];
    barrier();
    o[gl_GlobalInvocationID.x] = a[l] + b[(l * 7u) % 96u];
}
