#version 450
#extension GL_EXT_nonuniform_qualifier : require
// Arrays of descriptors: storage images and combined image+samplers chosen by a constant
// index and by a dynamically uniform one (a push constant), and a runtime-sized array of
// sampled images (RuntimeDescriptorArray) with a separate sampler.
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0, rgba32f) uniform image2D imgs[4];
layout(set = 0, binding = 1) uniform sampler2D texs[3];
layout(set = 1, binding = 0) uniform sampler smp;
layout(set = 1, binding = 1) uniform texture2D many[];
layout(push_constant) uniform P { int which; };
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    vec2 uv = (vec2(p) + 0.5) / 8.0;
    vec4 a = imageLoad(imgs[1], p) + textureLod(texs[2], uv, 0.0);
    vec4 b = imageLoad(imgs[which], p) + textureLod(texs[which], uv, 0.0);
    vec4 c = textureLod(sampler2D(many[which + 5], smp), uv, 0.0);
    imageStore(imgs[3], p, a + b + c);
}
