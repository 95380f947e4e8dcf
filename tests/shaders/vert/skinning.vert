#version 450
// Skinning with bone matrices from an SSBO (std430, row-major 4x3) and a loop over weights.
layout(location = 0) in vec3 pos;
layout(location = 1) in uvec4 bones;
layout(location = 2) in vec4 weights;
layout(std430, set = 0, binding = 0) readonly buffer Bones { layout(row_major) mat4x3 bone[]; };
layout(push_constant) uniform PC { mat4 vp; uint nbones; } pc;
void main() {
    vec3 p = vec3(0.0);
    for (int k = 0; k < 4; ++k) {
        uint b = min(bones[k], pc.nbones - 1u);
        p += weights[k] * (bone[b] * vec4(pos, 1.0));
    }
    gl_Position = pc.vp * vec4(p, 1.0);
}
