#version 450
// A divergent switch with a fall-through case, a shared case body, a conditional break
// inside a case, and a default.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer I { uint d[]; };
layout(std430, set = 0, binding = 1) writeonly buffer O { int o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint x = d[i];
    int r = 0;
    switch (x % 8u) {
    case 0u:
        r = 10;
        break;
    case 1u:
        r = 20;
    case 2u:
        r += 5;
        break;
    case 3u:
    case 4u:
        r = int(x) * 2;
        break;
    case 6u:
        r = -int(x);
        if (x > 100u) {
            break;
        }
        r += 1000;
        break;
    default:
        r = 77;
    }
    o[i] = r;
}
