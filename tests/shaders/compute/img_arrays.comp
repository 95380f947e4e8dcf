#version 450
// Arrays of images: an array of three r32f storage images indexed by a uniform value and a
// constant, a 2D array texture sampled by layer, and a separate texture and sampler
// combined in the shader.
layout(local_size_x = 4, local_size_y = 4) in;
layout(set = 0, binding = 0, r32f) uniform image2D imgs[3];
layout(set = 0, binding = 1) uniform sampler2DArray layers;
layout(set = 0, binding = 2) uniform texture2D plain;
layout(set = 0, binding = 3) uniform sampler point;
layout(push_constant) uniform Push { int which; } pc;

void main() {
    ivec2 p = ivec2(gl_LocalInvocationID.xy);
    vec2 uv = (vec2(p) + 0.5) / 4.0;
    float a = textureLod(layers, vec3(uv, float(p.x & 1) + 1.0), 0.0).x;
    float b = textureLod(sampler2D(plain, point), uv, 0.0).x;
    float c = imageLoad(imgs[pc.which], p).x;
    imageStore(imgs[pc.which], p, vec4(c + a));
    imageStore(imgs[0], p, vec4(imageLoad(imgs[0], p).x * b));
}
