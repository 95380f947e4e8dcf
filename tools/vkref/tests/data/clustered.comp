#version 450
#extension GL_KHR_shader_subgroup_clustered : require
// Uses clustered subgroup reductions, which lavapipe 22.3 does not offer: running it must
// be a MissingFeature error, not a driver crash.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer O { uint o[]; };
void main() {
    o[gl_GlobalInvocationID.x] = subgroupClusteredAdd(o[gl_GlobalInvocationID.x], 4u);
}
