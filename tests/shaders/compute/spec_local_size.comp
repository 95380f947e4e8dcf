#version 450
// target-env: vulkan1.3
// Workgroup size from specialization constants (LocalSizeId in SPIR-V 1.6), a 2-D
// dispatch, and the built-ins that describe it.
layout(local_size_x_id = 0, local_size_y_id = 1) in;
layout(constant_id = 2) const uint MUL = 1u;
layout(std430, set = 0, binding = 0) writeonly buffer O { uint o[]; };
layout(std430, set = 0, binding = 1) writeonly buffer G { uint g[]; };
void main() {
    uint width = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    uint idx = gl_GlobalInvocationID.y * width + gl_GlobalInvocationID.x;
    o[idx] = gl_LocalInvocationIndex * MUL + (gl_WorkGroupSize.x << 16) + (gl_WorkGroupSize.y << 24);
    g[idx] = gl_WorkGroupID.x + 10u * gl_WorkGroupID.y + 100u * gl_NumWorkGroups.y + 1000u * gl_LocalInvocationID.y;
}
