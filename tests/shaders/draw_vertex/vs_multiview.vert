#version 450
#extension GL_EXT_multiview : require
// Multiview (SPV_KHR_multiview): view v shifts the geometry right by v/8 of the viewport
// and down by v/16 (whole pixels), so a view drawn into another view's layer also lands
// on other pixels; the colour passes through and the view index goes on flat.
layout(location = 0) in vec4 pos;
layout(location = 1) in vec4 col;
layout(location = 0) out vec4 vcol;
layout(location = 1) flat out int vview;
void main() {
    float v = float(gl_ViewIndex);
    gl_Position = pos + vec4(0.25 * v, 0.125 * v, 0.0, 0.0);
    vcol = col;
    vview = int(gl_ViewIndex);
}
