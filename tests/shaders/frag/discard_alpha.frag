#version 450
// spirv-opt: -O
// Alpha test with discard inside control flow; writes depth.
layout(location = 0) in vec4 col;
layout(location = 0) out vec4 color;
layout(set = 0, binding = 0) uniform Params { float cutoff; int mode; };
void main() {
    if (col.a < cutoff) discard;
    vec4 c = col;
    switch (mode) {
    case 0: c.rgb = c.bgr; break;
    case 1:
    case 2: c.rgb *= 0.5;  // falls through
    case 3: c.a = 1.0; break;
    default: c = vec4(0.0);
    }
    color = c;
    gl_FragDepth = gl_FragCoord.z * 0.5;
}
