#version 450
#extension GL_EXT_shader_explicit_arithmetic_types : require
// 16- and 8-bit shared arrays: neighbouring lanes write the two halves (and the four
// bytes) of the same dword; after the barrier every lane reads elements other lanes
// wrote, so a store that clobbered its neighbours would show. Two workgroups of 128.
layout(local_size_x = 128) in;
shared uint16_t h[128];
shared int16_t sh[128];
shared uint8_t b[128];
layout(std430, set = 0, binding = 0) readonly buffer In { uint d[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Out { uint o[]; };
void main() {
    uint l = gl_LocalInvocationID.x;
    uint g = gl_GlobalInvocationID.x;
    uint x = d[g];
    h[l] = uint16_t(x);
    sh[l] = int16_t(x >> 8);
    b[l] = uint8_t(x >> 16);
    barrier();
    uint j = (l * 5u + 3u) % 128u;
    o[2u * g] = uint(h[j]) | (uint(b[127u - l]) << 16) | (uint(b[j]) << 24);
    o[2u * g + 1u] = uint(int(sh[(l + 1u) % 128u]) - int(sh[j]));
}
