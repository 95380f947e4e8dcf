#version 450
// std430 structs: vec3 followed by a float in its padding, ivec2, mat4, vec2, a float array
// with 4-byte stride; a whole struct loaded and another stored. Values are small integers,
// so every float result is exact.
layout(local_size_x = 32) in;
struct Item {
    vec3 pos;
    float w;
    ivec2 id;
    float s;
    uint flags;
    mat4 m;
    vec2 uv;
    float extra[3];
};
struct Out {
    vec3 a;
    uint b;
    vec4 c;
    vec2 d;
    float e[2];
    vec3 f;
};
layout(std430, set = 0, binding = 0) readonly buffer In { Item items[]; };
layout(std430, set = 0, binding = 1) writeonly buffer O { Out outs[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    Item it = items[i];
    Out o;
    o.a = it.pos * it.w + vec3(it.id, it.s);
    o.b = it.flags ^ uint(it.id.x);
    o.c = it.m * vec4(it.pos, 1.0);
    o.d = it.uv.yx - vec2(it.extra[0], it.extra[2]);
    o.e[0] = it.extra[1] * 2.0;
    o.e[1] = it.m[2][1];
    o.f = it.m[3].xyz + it.pos.zxy;
    outs[i] = o;
}
