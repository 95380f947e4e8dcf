#version 450
// A uniform buffer (set 1, binding 2: a palette indexed by the pixel), push constants
// and specialization constants in the fragment stage.
layout(location = 0) in vec4 vcol;
layout(location = 0) out vec4 o;
layout(set = 1, binding = 2) uniform Palette {
    vec4 colors[4];
    float weight;
} pal;
layout(push_constant) uniform Push {
    vec4 scale;
    vec4 tint;
    int mode;
} pc;
layout(constant_id = 3) const int BANDS = 4;
layout(constant_id = 4) const float GAIN = 1.0;
void main() {
    int band = int(gl_FragCoord.y) * BANDS / 40;
    vec4 c = mix(vcol, pal.colors[band % 4], pal.weight);
    if (pc.mode == 1) {
        c *= pc.tint;
    } else if (pc.mode == 2) {
        c = vec4(1.0) - c;
    }
    o = c * GAIN;
}
