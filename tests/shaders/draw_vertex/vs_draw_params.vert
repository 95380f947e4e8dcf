#version 450
#extension GL_ARB_shader_draw_parameters : require
// gl_DrawID, gl_BaseVertex and gl_BaseInstance read directly: each draw of a multi-draw
// moves its triangles right by its draw index, each instance down by its index within
// the draw, and the colour carries all three (and the vertex's index within the draw).
layout(location = 0) in vec4 pos;
layout(location = 0) out vec4 vcol;
void main() {
    int instance = gl_InstanceIndex - gl_BaseInstanceARB;
    vec2 off = vec2(0.5 * float(gl_DrawIDARB), 0.5 * float(instance));
    gl_Position = vec4(pos.xy + off, pos.zw);
    vcol = vec4(float(gl_DrawIDARB) / 4.0, float(gl_BaseVertexARB) / 16.0,
                float(gl_BaseInstanceARB) / 8.0,
                float(gl_VertexIndex - gl_BaseVertexARB) / 16.0);
}
