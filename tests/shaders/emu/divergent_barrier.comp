#version 450
// A barrier inside control flow that depends on the invocation, which Vulkan leaves
// undefined: only invocations with index < LIMIT (specialization constant 0) reach it.
// LIMIT below a wave's width: the wave that reaches it runs it with part of EXEC; LIMIT a
// multiple of the wave width: whole waves skip it and end. LIMIT = 128 (every invocation)
// is the valid program. Run by tools/cli/tests/run_cli.rs: the strict emulator reports
// the first two and runs the third.
layout(local_size_x = 128) in;
layout(constant_id = 0) const uint LIMIT = 16;
layout(std430, set = 0, binding = 0) buffer Out { uint o[]; };
shared uint s[128];

void main() {
    uint i = gl_LocalInvocationIndex;
    s[i] = i * 5u;
    if (i < LIMIT) {
        barrier();
        o[i] = s[LIMIT - 1u - i];
    }
}
