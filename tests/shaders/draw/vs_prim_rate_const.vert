#version 450
#extension GL_EXT_fragment_shading_rate : require
// Position (vec4, location 0) and colour (vec4, location 1) passed through, and a
// constant primitive shading rate of 2x1 pixels (horizontal 2) with the point size also
// written: the rate shares the misc position export (pos1.y) with gl_PointSize (pos1.x).
layout(location = 0) in vec4 pos;
layout(location = 1) in vec4 col;
layout(location = 0) out vec4 vcol;
void main() {
    gl_Position = pos;
    gl_PointSize = 1.0;
    vcol = col;
    gl_PrimitiveShadingRateEXT = gl_ShadingRateFlag2HorizontalPixelsEXT;
}
