#version 450
// spirv-opt: -O
// Values whose results are fixed by constants (checked by tests/front_semantics.rs in the
// IR interpreter): matrices (times vector, times matrix, transpose, outer product), structs
// and arrays copied whole and by member, dynamic vector indexing, swizzles and inserts,
// conversions and bitcasts, bitfield operations.
layout(local_size_x = 1) in;
struct S { ivec2 a; int b[3]; };
layout(std430, set = 0, binding = 0) buffer O { int o[32]; S s_out; };
int pick(ivec4 v, int k) { return v[k]; }
void main() {
    int seed = o[31] * 0;  // a run-time zero: keeps glslang from folding
    mat3 m = mat3(1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, float(9 + seed));
    vec3 v = vec3(1.0, -1.0, 2.0);
    vec3 mv = m * v;
    vec3 vm = v * m;
    mat3 mm = m * transpose(m);
    mat2x3 op = outerProduct(v, vec2(2.0, 3.0));
    o[0] = int(mv.x) * 10000 + int(mv.y) * 100 + int(mv.z);
    o[1] = int(vm.x) * 10000 + int(vm.y) * 100 + int(vm.z);
    o[2] = int(mm[1][2]);
    o[3] = int(op[1][2]);
    S s;
    s.a = ivec2(7, 8 + seed);
    s.b = int[3](1, 2, 3);
    S t = s;
    t.b[1] = 20;
    s_out = t;
    ivec4 iv = ivec4(10, 11, 12, 13 + seed);
    for (int k = 0; k < 4; ++k) o[4 + k] = pick(iv, (k + 1) & 3);
    iv.zw = iv.xy;
    iv[seed + 1] = 99;
    o[8] = iv.x * 1000000 + iv.y * 10000 + iv.z * 100 + iv.w;
    float f = -2.75 + float(seed);
    o[9] = int(f);
    o[10] = int(floatBitsToUint(f) >> 20);
    o[11] = int(uint(-7 + seed) >> 28);
    o[12] = bitfieldExtract(0x12345678 + seed, 8, 8);
    o[13] = bitfieldInsert(0x11111111 + seed, 0xabc, 4, 12);
    o[14] = bitCount(0xf0f0 + seed) + findMSB(0x400 + seed) * 100 + findLSB(0x400 + seed) * 10000;
    o[15] = (-17 + seed) / 5 * 100 + (-17 + seed) % 5;
    uint big = 0xffffffffu + uint(seed);
    o[16] = int(big / 3u);
}
