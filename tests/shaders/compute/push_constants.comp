#version 450
// Push constants (std430 by default): uint, float, ivec2, vec4, uint; used in arithmetic
// and as the trip count of a uniform loop.
layout(local_size_x = 64) in;
layout(push_constant) uniform P {
    uint n;
    float scale;
    ivec2 off;
    vec4 color;
    uint mask;
} pc;
layout(std430, set = 0, binding = 0) writeonly buffer O { vec4 o[]; };
layout(std430, set = 0, binding = 1) writeonly buffer C { uint cnt[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    vec4 c = pc.color * pc.scale + vec4(float(pc.off.x), float(pc.off.y), float(i), 0.0);
    uint acc = 0u;
    for (uint k = 0u; k < pc.n; k++) {
        acc += (i ^ k) & pc.mask;
    }
    o[i] = c;
    cnt[i] = acc;
}
