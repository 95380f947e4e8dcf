#version 450
// A fragment shader whose only side effect is an image store (no atomics, no early tests):
// the write must run for fragments the depth test rejects, so DB_SHADER_CONTROL keeps the
// test late and the shader executing on hierarchical-Z fail.
layout(location = 0) out vec4 color;
layout(set = 0, binding = 0, rgba8) uniform writeonly image2D img;
void main() {
    imageStore(img, ivec2(gl_FragCoord.xy), vec4(1.0, 0.0, 0.0, 1.0));
    color = vec4(0.5);
}
