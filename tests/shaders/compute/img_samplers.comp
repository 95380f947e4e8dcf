#version 450
// Sampler address modes and filters on 2D and 3D images: repeat, mirrored repeat, clamp
// to edge, clamp to border (transparent black, opaque black, opaque white) and mirror
// clamp to edge, each with nearest (smp[m]) and with linear (smp[7 + m]) filtering, at
// coordinates from -4.5 to 10.75 texels (outside the image on both sides, several
// periods of repeat and mirror). The nearest coordinates sit at texel centres (no
// rounding ties); the linear ones a quarter texel off a centre (weights 1/4 and 3/4).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform texture2D t2;      // RGBA8 UNORM, 4 x 4
layout(set = 0, binding = 1) uniform texture3D t3;      // RGBA8 UNORM, 4 x 4 x 4
layout(set = 0, binding = 2) uniform sampler smp[14];
layout(set = 0, binding = 3) buffer Nearest { vec4 o2[64 * 7]; vec4 o3[64 * 7]; } nearest;
layout(set = 0, binding = 4) buffer Linear { vec4 o2[64 * 7]; vec4 o3[64 * 7]; } linear;

void main() {
    uint i = gl_LocalInvocationIndex;
    // in texels: x from -4.5 to 10.5, y in {-3.5, -0.5, 2.5, 5.5}, z in {-3.5 .. 4.5}
    vec3 c = vec3(float(i % 16u) - 5.0, float(i / 16u) * 3.0 - 4.0, float(i % 5u) * 2.0 - 4.0) + 0.5;
    vec3 d = c + vec3(0.25, -0.25, 0.25);
    for (int m = 0; m < 7; m++) {
        int o = m * 64 + int(i);
        nearest.o2[o] = textureLod(sampler2D(t2, smp[m]), c.xy / 4.0, 0.0);
        nearest.o3[o] = textureLod(sampler3D(t3, smp[m]), c / 4.0, 0.0);
        linear.o2[o] = textureLod(sampler2D(t2, smp[7 + m]), d.xy / 4.0, 0.0);
        linear.o3[o] = textureLod(sampler3D(t3, smp[7 + m]), d / 4.0, 0.0);
    }
}
