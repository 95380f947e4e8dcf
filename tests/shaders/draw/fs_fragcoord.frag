#version 450
// Window position and facing.
layout(location = 0) in vec4 vcol;
layout(location = 0) out vec4 o;
void main() {
    o = vec4(gl_FragCoord.x / 48.0, gl_FragCoord.y / 40.0,
             gl_FrontFacing ? 1.0 : 0.25, gl_FragCoord.z);
}
