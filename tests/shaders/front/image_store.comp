#version 450
// An image store: translated by the front-end; the compute backend does not select images yet
// (tools/cli/tests/backend_cli.rs uses it for a located "unsupported" error).
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0, rgba8) uniform writeonly image2D dst;
void main() {
    imageStore(dst, ivec2(gl_GlobalInvocationID.xy), vec4(1.0, 0.5, 0.25, 1.0));
}
