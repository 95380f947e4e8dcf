#version 450
#extension GL_EXT_fragment_shading_rate : require
// Position (vec4, location 0) and colour (vec4, location 1) passed through, and a
// per-vertex primitive shading rate (gl_PrimitiveShadingRateEXT) that varies with the
// vertex: every valid combination of the Vulkan rate flags (horizontal none / 2 / 4
// pixels x vertical none / 2 / 4). Without a fragment-shading-rate state the pipeline's
// combiners keep the pipeline rate (1x1), so the image is the one without the rate.
layout(location = 0) in vec4 pos;
layout(location = 1) in vec4 col;
layout(location = 0) out vec4 vcol;
void main() {
    gl_Position = pos;
    vcol = col;
    int h = gl_VertexIndex % 3;
    int v = (gl_VertexIndex / 3) % 3;
    gl_PrimitiveShadingRateEXT = (h == 0 ? 0 : gl_ShadingRateFlag2HorizontalPixelsEXT << (h - 1))
        | (v == 0 ? 0 : gl_ShadingRateFlag2VerticalPixelsEXT << (v - 1));
}
