#version 450
// SPV_KHR_subgroup_uniform_control_flow (DXVK's compute shaders use it): the
// SubgroupUniformControlFlowKHR execution mode is a promise gcnc needs no action for.
#extension GL_EXT_subgroup_uniform_control_flow : require
#extension GL_KHR_shader_subgroup_ballot : require
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer O { uint o[]; };
void main() [[subgroup_uniform_control_flow]] {
    o[gl_LocalInvocationIndex] = subgroupBroadcastFirst(gl_LocalInvocationIndex);
}
