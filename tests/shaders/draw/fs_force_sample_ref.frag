#version 450
// fs_force_sample with every input interpolated per sample by its decoration: what
// forced per-sample interpolation must give (lavapipe renders it as the reference).
layout(location = 0) sample in vec4 smooth_c;
layout(location = 2) noperspective sample in vec4 linear_c;
layout(location = 3) sample in vec4 centroid_c;
layout(location = 0) out vec4 o;
void main() {
    o = vec4(smooth_c.r, linear_c.b, centroid_c.g, gl_FrontFacing ? 1.0 : 0.25);
}
