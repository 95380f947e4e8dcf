#version 450
// Three colour attachments of 4, 2 and 1 components (32_ABGR, 32_GR, 32_R exports) and
// gl_FragDepth (mrtz).
layout(location = 0) in vec4 v;
layout(location = 0) out vec4 o0;
layout(location = 1) out uvec2 o1;
layout(location = 2) out float o2;
void main() {
    o0 = v;
    o1 = uvec2(v.xy * 255.0);
    o2 = v.z + v.w;
    gl_FragDepth = v.w * 0.5;
}
