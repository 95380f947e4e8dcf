#version 450
// spirv-opt: -O
// Nested loops with break/continue out of switches and ifs, a do-while, returns from inside
// loops of a called function (escape through several constructs).
layout(local_size_x = 32) in;
layout(std430, set = 0, binding = 0) buffer B { int v[]; };
int search(int key) {
    for (int a = 0; a < 4; ++a) {
        for (int b = 0; b < 4; ++b) {
            if (v[a * 4 + b] == key) return a * 4 + b;
        }
    }
    return -1;
}
void main() {
    uint id = gl_GlobalInvocationID.x;
    int acc = 0;
    for (int k = 0; k < 16; ++k) {
        switch (v[k] & 3) {
        case 0: acc += 1; continue;
        case 1: acc -= 2; break;
        case 2: if (acc > 100) break; acc *= 2; break;
        default:
            for (int j = 0; j < 3; ++j) { if (j == k) break; acc ^= j; }
        }
        if (acc < -50) break;
    }
    int n = 0;
    do { n += 3; } while (n < acc && n < 90);
    v[id] = acc + n + search(int(id));
}
