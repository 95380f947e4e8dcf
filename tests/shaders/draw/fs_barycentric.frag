#version 450
#extension GL_EXT_fragment_shader_barycentric : require
#extension GL_EXT_fragment_shading_rate : require
// gl_BaryCoordEXT's first two weights (perspective-correct), the second weight of
// gl_BaryCoordNoPerspEXT, and gl_ShadingRateEXT (0: 1x1 without VRS state). lavapipe
// has neither extension: tools/cli/tests/draw_barycentric.rs checks the values by hand.
layout(location = 0) out vec4 o;
void main() {
    o = vec4(gl_BaryCoordEXT.xy, gl_BaryCoordNoPerspEXT.y, float(gl_ShadingRateEXT));
}
