#version 450
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference2 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
// Buffer device addresses with pointer arithmetic, shared-memory and buffer atomics, barriers.
layout(local_size_x = 64) in;
layout(buffer_reference) buffer Node;
layout(buffer_reference, std430, buffer_reference_align = 8) buffer Node { uint value; uint pad; Node next; };
layout(buffer_reference, std430) buffer Counters { uint c[]; };
layout(buffer_reference, std430, buffer_reference_align = 16) buffer Vec4s { vec4 v; };
layout(push_constant) uniform PC { Node head; Counters counters; Vec4s vs; } pc;
shared uint hist[16];
void main() {
    uint i = gl_LocalInvocationIndex;
    if (i < 16u) hist[i] = 0u;
    barrier();
    Node n = pc.head;
    uint steps = 0u;
    while (uint64_t(n) != 0ul && steps < 8u) {
        atomicAdd(hist[n.value & 15u], 1u);
        n = n.next;
        steps++;
    }
    // Pointer arithmetic: indexing a reference (OpPtrAccessChain) and an address cast.
    pc.vs[i].v = vec4(float(steps));
    Node second = Node(uint64_t(pc.head) + 16ul);
    pc.vs[i + 64u].v.x = float(second.value);
    memoryBarrierShared();
    barrier();
    if (i < 16u) {
        atomicMax(pc.counters.c[i], hist[i]);
        atomicCompSwap(pc.counters.c[i + 16u], 0u, steps);
        atomicExchange(pc.counters.c[i + 32u], i);
    }
}
