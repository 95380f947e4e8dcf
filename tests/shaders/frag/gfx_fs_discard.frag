#version 450
// Discard under divergent control flow, in a loop, then a colour export of the
// survivors.
layout(location = 0) in vec4 col;
layout(location = 0) out vec4 color;
layout(set = 0, binding = 0) uniform Params { float cutoff; int steps; };
void main() {
    if (col.a < cutoff) discard;
    vec4 c = col;
    for (int i = 0; i < steps; i++) {
        c *= 0.5;
        if (c.r > 4.0) discard;
    }
    color = c;
}
