#version 450
#extension GL_EXT_demote_to_helper_invocation : require
// demote keeps the invocation alive as a helper, so derivatives after it stay defined.
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
layout(set = 0, binding = 0) uniform sampler2D tex;
void main() {
    if (uv.x > 0.9) demote;
    vec4 c = texture(tex, uv);
    color = helperInvocationEXT() ? vec4(0.0) : c;
}
