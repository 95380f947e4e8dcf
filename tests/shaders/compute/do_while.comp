#version 450
// A do-while loop with a data-dependent trip count (Collatz steps, at most 200).
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer I { uint d[]; };
layout(std430, set = 0, binding = 1) writeonly buffer O { uint o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint x = d[i];
    uint steps = 0u;
    do {
        x = (x & 1u) == 1u ? 3u * x + 1u : x / 2u;
        steps++;
    } while (x != 1u && steps < 200u);
    o[i] = steps;
}
