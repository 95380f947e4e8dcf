#version 450
// Cube maps: textureLod (nearest) in the direction of each texel centre of each face of a
// cube, and of a cube array's second cube.
layout(local_size_x = 24) in;
layout(set = 0, binding = 0) uniform samplerCube cube;
layout(set = 0, binding = 1) uniform samplerCubeArray cubes;
layout(set = 0, binding = 2) readonly buffer Dirs { vec4 dirs[]; };
layout(set = 0, binding = 3) buffer Out { vec2 o[]; };

void main() {
    uint i = gl_LocalInvocationIndex;
    vec3 d = dirs[i].xyz;
    o[i] = vec2(textureLod(cube, d, 0.0).x, textureLod(cubes, vec4(d, 1.0), 0.0).x);
}
