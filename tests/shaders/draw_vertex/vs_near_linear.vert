#version 450
// vs_near.vert's projection (near 1, far 10: vertices behind the eye get w < 0 and are
// clipped against the near plane) with a noperspective colour beside the smooth and the
// flat one: across the triangles clipping makes, the noperspective one must stay the one
// affine function of the framebuffer position that the projected vertices define.
layout(location = 0) in vec4 eye;
layout(location = 1) in vec4 col;
layout(location = 0) out vec4 vcol;
layout(location = 1) flat out vec4 fcol;
layout(location = 2) noperspective out vec4 lcol;
void main() {
    const float n = 1.0, f = 10.0;
    gl_Position = vec4(eye.x, eye.y, f / (n - f) * eye.z + n * f / (n - f), -eye.z);
    vcol = col;
    fcol = vec4(col.b, col.r, col.g, 1.0);
    lcol = col.gbra;
}
