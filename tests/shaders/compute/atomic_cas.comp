#version 450
// Compare-and-swap retry loops (lanes contending for 8 counters) and atomicExchange on
// per-lane locations (the returned old value is the host's initial content).
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer I { uint d[]; };
layout(std430, set = 0, binding = 1) buffer C { uint counters[8]; };
layout(std430, set = 0, binding = 2) buffer X { uint own[]; };
layout(std430, set = 0, binding = 3) writeonly buffer O { uint o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint x = d[i];
    uint slot = x & 7u;
    uint old = counters[slot];
    while (true) {
        uint prev = atomicCompSwap(counters[slot], old, old + (x >> 24));
        if (prev == old) {
            break;
        }
        old = prev;
    }
    o[i] = atomicExchange(own[i], x);
}
