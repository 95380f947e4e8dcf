#version 450
// A loop whose trip count depends on the pixel, with an early break (both on integer
// pixel coordinates, so no decision hangs on interpolation rounding).
layout(location = 0) in vec4 vcol;
layout(location = 0) out vec4 o;
void main() {
    int n = int(gl_FragCoord.x) % 7 + int(gl_FragCoord.y) % 5;
    vec3 acc = vec3(0.0);
    for (int i = 0; i < n; i++) {
        acc += vcol.rgb * (0.6 / float(i + 2));
        if (i == int(gl_FragCoord.y) % 4 + 2) break;
    }
    o = vec4(acc, 1.0);
}
