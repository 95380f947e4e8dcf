#version 450
// spirv-opt: -O
// GLSL.std.450 functions the front-end expands into ALU sequences, at fixed inputs, for
// tests/front_semantics.rs to compare with Rust's libm (within a tolerance).
layout(local_size_x = 1) in;
layout(std430, set = 0, binding = 0) buffer O { float o[64]; };
void main() {
    float z = o[63] * 0.0;  // a run-time zero
    float x = 0.375 + z, y = -1.625 + z;
    int k = 0;
    o[k++] = atan(x); o[k++] = atan(y); o[k++] = atan(7.5 + z);
    o[k++] = atan(x, y); o[k++] = atan(y, x); o[k++] = atan(-x, y);
    o[k++] = asin(x); o[k++] = acos(x); o[k++] = asin(-0.875 + z);
    o[k++] = sinh(x); o[k++] = cosh(y); o[k++] = tanh(x); o[k++] = tanh(30.0 + z);
    o[k++] = asinh(y); o[k++] = acosh(2.5 + z); o[k++] = atanh(x);
    o[k++] = exp(x); o[k++] = log(2.5 + z); o[k++] = tan(x);
    o[k++] = radians(90.0 + z); o[k++] = degrees(1.0 + z);
    o[k++] = smoothstep(0.0, 2.0, 0.5 + z); o[k++] = step(0.5, x);
    vec3 a = vec3(1.0, 2.0 + z, 3.0), b = vec3(-2.0, 0.5, 1.0 + z);
    vec3 c = cross(a, b);
    o[k++] = c.x; o[k++] = c.y; o[k++] = c.z;
    o[k++] = length(a); o[k++] = distance(a, b); o[k++] = normalize(a).y;
    vec3 n = normalize(vec3(0.0, 1.0 + z, 0.0));
    vec3 r = reflect(normalize(vec3(1.0, -1.0 + z, 0.0)), n);
    o[k++] = r.x; o[k++] = r.y;
    vec3 t = refract(normalize(vec3(1.0, -1.0 + z, 0.0)), n, 0.5);
    o[k++] = t.x; o[k++] = t.y;
    o[k++] = faceforward(n, vec3(0.0, 1.0, 0.0), n).y;
    mat3 m = mat3(2.0, 1.0, 0.0, 1.0, 3.0 + z, 1.0, 0.0, 1.0, 4.0);
    o[k++] = determinant(m);
    mat3 mi = inverse(m);
    o[k++] = mi[0][0]; o[k++] = mi[1][2]; o[k++] = mi[2][1];
    mat2 m2 = inverse(mat2(4.0, 7.0 + z, 2.0, 6.0));
    o[k++] = m2[0][0]; o[k++] = m2[1][0];
    float whole;
    o[k++] = modf(-3.25 + z, whole); o[k++] = whole;
    int e;
    o[k++] = frexp(40.0 + z, e); o[k++] = float(e);
    o[k++] = ldexp(0.75 + z, 3);
    o[k++] = determinant(mat4(1.0, 2.0, 0.0, 1.0, 0.0, 1.0 + z, 3.0, 0.0, 2.0, 0.0, 1.0, 1.0, 1.0, 1.0, 0.0, 2.0));
}
