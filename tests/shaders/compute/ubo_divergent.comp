#version 450
// Uniform-buffer loads at lane-dependent offsets (vec4, uvec2 and a scalar out of a vec4)
// beside uniform ones, two workgroups so the workgroup id selects an element too.
layout(local_size_x = 64) in;
layout(std140, set = 0, binding = 0) uniform U {
    vec4 tab[64];
    uvec2 pairs[32];
    float scale;
};
layout(std430, set = 0, binding = 1) writeonly buffer O { vec4 o[]; };
void main() {
    uint l = gl_LocalInvocationID.x;
    vec4 t = tab[63u - l];
    uvec2 p = pairs[l / 2u];
    o[gl_GlobalInvocationID.x] = t * scale
        + vec4(float(p.x), float(p.y), tab[(l * 7u) % 64u].y, tab[gl_WorkGroupID.x].w);
}
