#version 450
// A tree reduction in shared memory over a 256-invocation workgroup (several waves on any
// AMD wave size), with a barrier after every level; one sum per workgroup.
layout(local_size_x = 256) in;
layout(std430, set = 0, binding = 0) readonly buffer I { uint d[]; };
layout(std430, set = 0, binding = 1) writeonly buffer O { uint o[]; };
shared uint s[256];
void main() {
    uint l = gl_LocalInvocationIndex;
    s[l] = d[gl_GlobalInvocationID.x];
    barrier();
    for (uint stride = 128u; stride > 0u; stride >>= 1) {
        if (l < stride) {
            s[l] += s[l + stride];
        }
        barrier();
    }
    if (l == 0u) {
        o[gl_WorkGroupID.x] = s[0];
    }
}
