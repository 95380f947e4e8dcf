#version 450
// Constant dispatch (cf.rs "Constant conditions"): `mode()` switches on a specialization
// constant and returns from each case; `encode` switches on the call's result and
// `scale` branches on a bool specialization constant. With the constants known when the
// module is translated, only the arms taken are translated; the values written must be
// the same as when every arm is translated (the middle end folds those).
layout(local_size_x = 1) in;
layout(constant_id = 0) const uint FORMAT = 2;
layout(constant_id = 1) const bool WIDE = false;
layout(set = 0, binding = 0) buffer Out { uint o[]; };

uint mode() {
    switch (FORMAT) {
    case 9: case 10: return 1;
    case 2: case 37: return 2;
    case 70: return 3;
    }
    return 0;
}

uint encode(uint x) {
    uint r = 0;
    switch (mode()) {
    case 1: r = x * 1000003u; break;
    case 2: r = x * 2000003u + 7u; break;
    case 3: r = x ^ 3000017u; break;
    default: r = x + 4000037u; break;
    }
    return r;
}

uint scale(uint x) {
    if (WIDE) {
        return x * 5000011u;
    }
    return x + 6000011u;
}

void main() {
    o[0] = mode();
    o[1] = encode(5u);
    o[2] = scale(encode(o[0]));
    uint acc = 0;
    for (uint i = 0; i < 3; i++) {
        acc += encode(i);
    }
    o[3] = acc;
}
