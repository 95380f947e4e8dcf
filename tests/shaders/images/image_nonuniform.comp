#version 450
#extension GL_EXT_nonuniform_qualifier : require
// Arrays of descriptors indexed per invocation (nonuniformEXT): the descriptor indices
// are divergent, so each use loads its descriptors in a waterfall loop (one trip per
// distinct index): a storage image store, and a texture + sampler pair with two indices.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, r32f) uniform image2D imgs[4];
layout(set = 0, binding = 1) uniform texture2D texs[4];
layout(set = 0, binding = 2) uniform sampler smps[2];
void main() {
    uint i = gl_GlobalInvocationID.x;
    vec4 t = textureLod(nonuniformEXT(sampler2D(texs[i & 3u], smps[i >> 5])), vec2(0.5), 0.0);
    imageStore(imgs[nonuniformEXT(i & 3u)], ivec2(i, 0), t);
}
