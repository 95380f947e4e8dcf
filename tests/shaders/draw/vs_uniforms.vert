#version 450
// A uniform buffer (set 0, binding 0: a 2x2 transform and an offset), push constants
// (a colour scale) and a specialization constant (a colour swizzle switch) in the
// vertex stage.
layout(location = 0) in vec4 pos;
layout(location = 1) in vec4 col;
layout(location = 0) out vec4 vcol;
layout(set = 0, binding = 0) uniform Transform {
    mat2 m;
    vec2 offset;
} xf;
layout(push_constant) uniform Push {
    vec4 scale;     // vertex stage: colour scale
    vec4 tint;      // fragment stage: tint
    int mode;       // fragment stage: 0 plain, 1 tinted, 2 inverted
} pc;
layout(constant_id = 0) const bool SWIZZLE = false;
layout(constant_id = 1) const float SHRINK = 1.0;
void main() {
    gl_Position = vec4(xf.m * pos.xy * SHRINK + xf.offset * pos.w, pos.zw);
    vec4 c = col * pc.scale;
    vcol = SWIZZLE ? c.bgra : c;
}
