#version 450
// One clip distance packed before two cull distances (CLIP_DIST_ENA_0, CULL_DIST_ENA_1
// and _2): a triangle is culled when x < −0.2·w at all three vertices (cull 0) or
// y > 0.45·w at all three (cull 1), and clipped where x + y < −1.3·w (clip 0).
layout(location = 0) in vec4 pos;
layout(location = 1) in vec4 col;
layout(location = 0) out vec4 vcol;
out gl_PerVertex {
    vec4 gl_Position;
    float gl_ClipDistance[1];
    float gl_CullDistance[2];
};
void main() {
    gl_Position = pos;
    gl_ClipDistance[0] = dot(pos, vec4(1.0, 1.0, 0.0, 1.3));
    gl_CullDistance[0] = pos.x + 0.2 * pos.w;
    gl_CullDistance[1] = 0.45 * pos.w - pos.y;
    vcol = col;
}
