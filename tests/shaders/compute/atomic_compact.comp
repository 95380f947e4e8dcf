#version 450
// Stream compaction: the value returned by atomicAdd picks each selected element's slot.
// The count is exact; the slots' order is decided by the atomics, so the output is
// compared as a multiset.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer I { uint d[]; };
layout(std430, set = 0, binding = 1) buffer C { uint count; };
layout(std430, set = 0, binding = 2) writeonly buffer O { uint items[]; };
void main() {
    uint x = d[gl_GlobalInvocationID.x];
    if ((x % 3u) == 0u) {
        uint slot = atomicAdd(count, 1u);
        items[slot] = x;
    }
}
