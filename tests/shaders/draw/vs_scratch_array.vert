#version 450
// A function-local array indexed by a value of the position: scratch memory in the
// vertex stage (hardware VS on GFX9, NGG on GFX10.3 / GFX11). It moves the texture
// coordinate only (moved positions would put edges within rounding of pixel centres).
layout(location = 0) in vec4 pos;
layout(location = 1) in vec2 uv_in;
layout(location = 0) out vec2 uv;
void main() {
    vec2 wobble[20];
    for (int i = 0; i < 20; i++) {
        wobble[i] = vec2(float(i % 7) * 0.01, float(i % 5) * -0.01) + uv_in * 0.03;
    }
    int k = int(abs(pos.x * 13.0 + pos.y * 7.0) * 5.0) % 20;
    wobble[(k * 3) % 20] *= 2.0;
    gl_Position = pos;
    uv = uv_in + wobble[k] - wobble[(k + 11) % 20];
}
