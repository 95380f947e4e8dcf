#version 450
// Reads shared memory at index + k (push constant): k = 0 stays inside the 64-element
// array; a large k reads past the workgroup's LDS allocation, which Vulkan leaves
// undefined and the hardware answers with 0. Run by tools/cli/tests/run_cli.rs: the
// strict emulator reports the read.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer Out { uint o[]; };
layout(push_constant) uniform P { uint k; };
shared uint s[64];

void main() {
    uint i = gl_LocalInvocationIndex;
    s[i] = i + 1u;
    barrier();
    o[i] = s[i + k];
}
