#version 450
#extension GL_EXT_demote_to_helper_invocation : require
// Demote, then sample with an implicit LOD: the demoted lanes go on as helpers, so the
// derivatives of the surviving lanes' quads stay defined.
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 o;
void main() {
    ivec2 p = ivec2(gl_FragCoord.xy);
    if (((p.x ^ p.y) & 3) == 1) {
        demote;
    }
    o = texture(tex, uv * 1.5);
}
