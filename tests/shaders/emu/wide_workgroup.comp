#version 450
// The largest workgroup Vulkan allows (1024 invocations), as 1024x1x1 or, through the
// specialization constants, 1x1024x1: every invocation writes its slot through shared
// memory, reversed across the whole workgroup, so a missing or misnumbered invocation
// shows in the output. Run by tools/cli/tests/run_cli.rs on every target and wave size.
layout(local_size_x = 1024, local_size_x_id = 0, local_size_y_id = 1) in;

layout(std430, set = 0, binding = 0) buffer Out { uint o[]; };

shared uint s[1024];

void main() {
    uint i = gl_LocalInvocationIndex;
    s[i] = gl_LocalInvocationID.x * 7u + gl_LocalInvocationID.y * 3u;
    barrier();
    o[gl_WorkGroupID.x * 1024u + i] = s[1023u - i] + gl_WorkGroupID.x * 100000u;
}
