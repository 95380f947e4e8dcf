#version 450
// spirv-opt: -O
// Control flow whose result is fully determined by constants, so a test can run the
// front-end's IR in the reference interpreter and compare every output with the same
// algorithm written in Rust (tests/front_semantics.rs): switch fall-through, continue and
// break out of a switch, returns from nested loops of a called function, inout parameters,
// do-while, short-circuit operators (OpPhi), and an early return from main.
layout(local_size_x = 1) in;
layout(std430, set = 0, binding = 0) buffer O { int o[16]; };

int search(int key) {
    for (int a = 0; a < 4; ++a) {
        for (int b = 0; b < 4; ++b) {
            if (a * 4 + b == key) return a * 10 + b;
        }
    }
    return -1;
}

void swap(inout int x, inout int y) {
    int t = x;
    x = y;
    y = t;
}

int calls = 3;  // a Private global with an initializer

bool side(int k) {
    calls++;
    o[15] += k;
    return k > 2;
}

void main() {
    int acc = 0;
    for (int i = 0; i < 12; ++i) {
        switch (i % 5) {
        case 0: acc += 1; continue;
        case 1: acc += 10;
        case 2: acc += 100; break;
        case 3: if (i > 10) break; acc += 1000; break;
        default:
            for (int j = 0; j < 5; ++j) {
                if (j == 3) break;
                acc += j;
            }
        }
        if (acc > 3000) break;
        acc += 2;
    }
    o[0] = acc;
    o[1] = search(7);
    o[2] = search(99);
    int x = 3, y = 5;
    swap(x, y);
    o[3] = x * 10 + y;
    int n = 0, steps = 0;
    do {
        n = (n & 1) == 1 ? n * 3 + 1 : n + 5;
        steps++;
    } while (n < 60 && steps < 20);
    o[4] = n;
    o[5] = steps;
    o[15] = 0;
    int hits = 0;
    for (int k = 0; k < 6; ++k) {
        if (side(k) && side(k + 10)) hits++;
        if (k == 1 || side(k * 100)) hits += 100;
    }
    o[6] = hits;
    o[10] = calls;
    for (int k = 0; k < 10; ++k) {
        if (k == 4) {
            o[7] = 44;
            return;
        }
        o[8] = k;
    }
    o[9] = 1;
}
