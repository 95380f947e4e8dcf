#version 450
#extension GL_EXT_control_flow_attributes : require
// Uniform register pressure: 120 uniform values derived from a uniform buffer stay live
// across three rounds of divergent work, more than the ~104 SGPRs a wave has, so a compiler
// that keeps uniform values in SGPRs must spill them (ACO: into VGPR lanes).
layout(local_size_x = 64) in;
layout(std140, set = 0, binding = 0) uniform U { uvec4 u[32]; };
layout(std430, set = 0, binding = 1) readonly buffer I { uint d[]; };
layout(std430, set = 0, binding = 2) writeonly buffer O { uint o[]; };
const int N = 120;
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint s[N];
    uint c = u[0].x;
    [[unroll]] for (int k = 0; k < N; k++) {
        c = c * 747796405u + u[k / 4][k % 4];
        s[k] = c ^ (c >> 11);
    }
    uint acc = d[i];
    [[unroll]] for (int r = 0; r < 3; r++) {
        [[unroll]] for (int k = 0; k < N; k++) {
            acc = (acc + s[k]) ^ (acc >> 3);
            s[k] = s[k] * 3u + uint(r);
        }
    }
    o[i] = acc;
}
