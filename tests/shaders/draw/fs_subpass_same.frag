#version 450
// fs_subpass's meaning without an input attachment: a storage image read at the
// fragment's pixel.
layout(set = 0, binding = 0, rgba8) uniform readonly image2D src;
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 o;
void main() {
    o = imageLoad(src, ivec2(gl_FragCoord.xy)) * vec4(0.5, 1.0, 1.0, 1.0) + vec4(uv, 0.0, 0.0) * 0.25;
}
