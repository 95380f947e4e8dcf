#version 450
// Centre, noperspective-centre and centroid inputs and gl_FrontFacing (an input packed
// after the barycentrics): under forced per-sample interpolation (the PS prolog,
// docs/link.md) the colour equals fs_force_sample_ref's, whose inputs are `sample`.
layout(location = 0) in vec4 smooth_c;
layout(location = 2) noperspective in vec4 linear_c;
layout(location = 3) centroid in vec4 centroid_c;
layout(location = 0) out vec4 o;
void main() {
    o = vec4(smooth_c.r, linear_c.b, centroid_c.g, gl_FrontFacing ? 1.0 : 0.25);
}
