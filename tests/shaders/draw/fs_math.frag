#version 450
// Arithmetic: built-in functions, integer operations, conversions.
layout(location = 0) in vec4 vcol;
layout(location = 1) in vec2 uv;
layout(location = 0) out vec4 o;
void main() {
    float a = clamp(length(uv - 0.5) * 1.5, 0.0, 1.0);
    float b = fract(uv.x * 3.0) * smoothstep(0.2, 0.8, uv.y);
    uint h = uint(gl_FragCoord.x) * 2654435761u ^ uint(gl_FragCoord.y);
    float c = float(h & 255u) / 255.0;
    o = vec4(mix(vcol.r, a, 0.5), b, min(c, max(vcol.b, 0.2)), abs(vcol.a - 0.5) + 0.5);
}
