#version 450
// spirv-opt: -O
// Blinn-Phong with a light loop over a std140 array of structs; reflect/refract/faceforward.
struct Light { vec3 pos; float range; vec3 color; float pad; };
layout(std140, set = 0, binding = 0) uniform Lights { Light lights[8]; int count; vec3 eye; };
layout(location = 0) in vec3 wpos;
layout(location = 1) in vec3 wnorm;
layout(location = 0) out vec4 color;
void main() {
    vec3 n = normalize(wnorm);
    vec3 v = normalize(eye - wpos);
    vec3 acc = vec3(0.0);
    for (int k = 0; k < count; ++k) {
        vec3 l = lights[k].pos - wpos;
        float dist = length(l);
        if (dist > lights[k].range) continue;
        l /= dist;
        vec3 h = normalize(l + v);
        float diff = max(dot(n, l), 0.0);
        float spec = pow(max(dot(n, h), 0.0), 32.0);
        float att = smoothstep(lights[k].range, 0.0, dist);
        acc += (diff + spec) * att * lights[k].color;
    }
    vec3 r = reflect(-v, n);
    vec3 t = refract(-v, n, 0.75);
    vec3 f = faceforward(n, -v, n);
    color = vec4(acc + 0.01 * (r + t + f), 1.0);
}
