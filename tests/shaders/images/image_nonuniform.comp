#version 450
#extension GL_EXT_nonuniform_qualifier : require
// An array of storage images indexed per invocation (nonuniformEXT): the descriptor index
// is divergent, which needs a waterfall loop the backend does not build yet, so the
// compile must fail with a typed Unsupported error (tests/backend_images.rs).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, r32f) uniform image2D imgs[4];
void main() {
    uint i = gl_GlobalInvocationID.x;
    imageStore(imgs[nonuniformEXT(i & 3u)], ivec2(i, 0), vec4(1.0));
}
