#version 450
// A function-local array written and read at per-pixel indices: it lives in scratch
// memory (the graphics scratch setup of GFX9/GFX10.3, architected scratch on GFX11).
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 o;
void main() {
    vec4 table[24];
    for (int i = 0; i < 24; i++) {
        table[i] = vec4(float(i) / 23.0, uv.x * float(i & 3), uv.y, 1.0 - float(i) / 46.0);
    }
    int k = int(uv.x * 23.0 + uv.y * 7.0) % 24;
    table[(k * 5) % 24] += vec4(0.25);
    o = table[k] * 0.5 + table[(k + 7) % 24] * 0.25;
}
