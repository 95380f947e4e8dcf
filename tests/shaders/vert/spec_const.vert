#version 450
// Specialization constants, including ones computed by OpSpecConstantOp.
layout(constant_id = 0) const int COUNT = 3;
layout(constant_id = 1) const float SCALE = 2.0;
layout(constant_id = 2) const bool FLIP = false;
const int TWICE = COUNT * 2 + 1;
layout(location = 0) in vec4 pos;
layout(location = 0) out vec4 o;
void main() {
    float acc = 0.0;
    for (int k = 0; k < TWICE; ++k) acc += float(k);
    vec4 p = pos * SCALE;
    if (FLIP) p.y = -p.y;
    o = vec4(acc, float(COUNT), 0.0, 1.0);
    gl_Position = p;
}
