#version 450
// GLSL.std.450 transcendentals, compared within bounds from Vulkan's precision table:
// sin/cos/atan/atan2/asin/tanh to 5e-4 absolute on their ranges (sin/cos 2^-11 on
// [-pi, pi], atan 4096 ULP); exp/exp2/pow to 64 ULP (exp 3+2|x| ULP with |x| <= 10, pow
// inherited from exp2(y*log2(x))); log/log2 to 4 ULP or 2^-21 absolute (3 ULP, or 2^-21
// absolute on [0.5, 2]); length/distance/normalize/smoothstep/mix/sqrt to 8 ULP or 1e-5
// absolute.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer A { vec4 a[]; };
layout(std430, set = 0, binding = 1) writeonly buffer T { float t[]; };
layout(std430, set = 0, binding = 2) writeonly buffer E { float e[]; };
layout(std430, set = 0, binding = 3) writeonly buffer G { float g[]; };
layout(std430, set = 0, binding = 4) writeonly buffer L { float l[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    vec4 v = a[i];
    float ang = v.x;          // [-pi, pi]
    float r = v.y;            // [-10, 10]
    float p = v.z;            // [0.01, 1000]
    float q = v.w;            // [-0.99, 0.99]
    uint k = i * 6u;
    t[k + 0u] = sin(ang);
    t[k + 1u] = cos(ang);
    t[k + 2u] = atan(r);
    t[k + 3u] = atan(q, r);
    t[k + 4u] = asin(q);
    t[k + 5u] = tanh(q * 3.0);
    uint j = i * 3u;
    e[j + 0u] = exp(r);
    e[j + 1u] = exp2(r);
    e[j + 2u] = pow(abs(q) + 0.5, r * 0.3);
    l[j + 0u] = log(p);
    l[j + 1u] = log2(p);
    l[j + 2u] = log(q + 1.0);
    vec3 x3 = v.xyz;
    vec3 y3 = vec3(q, r, 1.0);
    g[k + 0u] = length(x3);
    g[k + 1u] = distance(x3, y3);
    g[k + 2u] = normalize(x3).y;
    g[k + 3u] = smoothstep(-2.0, 3.0, r);
    g[k + 4u] = mix(r, ang, abs(q));
    g[k + 5u] = sqrt(p) * 0.5 + inversesqrt(p);
}
