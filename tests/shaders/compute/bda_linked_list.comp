#version 450
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
// Pointer chasing: each lane walks a linked list stored in a buffer reached through a
// 64-bit device address, with divergent indices; a lane that reaches the end of its list
// stays on the last node. (The trip count is fixed: lavapipe 22.3 returns 0 for values
// loaded through a device address in a loop with a data-dependent exit.)
layout(local_size_x = 64) in;
layout(buffer_reference, std430, buffer_reference_align = 8) buffer Nodes { uvec2 n[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) buffer Out { uint sum[]; };
layout(push_constant) uniform P {
    Nodes nodes;
    Out out_words;
} pc;
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint cur = i;
    uint sum = 0u;
    uint steps = 0u;
    for (int s = 0; s < 12; s++) {
        uvec2 node = pc.nodes.n[cur];
        sum = sum * 31u + node.x;
        if (node.y != 0u) {
            cur = node.y - 1u;
            steps++;
        }
    }
    pc.out_words.sum[i] = sum ^ (steps << 24);
}
