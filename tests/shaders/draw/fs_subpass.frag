#version 450
// An input attachment read at the fragment's pixel (subpassLoad). lavapipe's draws have
// no render pass, so draw_corpus compares it with fs_subpass_same (imageLoad at
// FragCoord.xy, the same meaning).
layout(input_attachment_index = 0, set = 0, binding = 0) uniform subpassInput src;
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 o;
void main() {
    o = subpassLoad(src) * vec4(0.5, 1.0, 1.0, 1.0) + vec4(uv, 0.0, 0.0) * 0.25;
}
