#version 450
// Model-view-projection from a std140 UBO with a row-major matrix and a matrix array.
layout(location = 0) in vec3 pos;
layout(location = 1) in vec3 normal;
layout(location = 0) out vec3 world_normal;
layout(location = 1) out float depth;
layout(std140, set = 0, binding = 0) uniform Camera {
    layout(row_major) mat4 view_proj;
    mat4 models[4];
    mat3 normal_mat;
    float scale;
} cam;
void main() {
    mat4 model = cam.models[gl_InstanceIndex & 3];
    vec4 w = model * vec4(pos * cam.scale, 1.0);
    gl_Position = cam.view_proj * w;
    world_normal = normalize(cam.normal_mat * normal);
    depth = gl_Position.z / gl_Position.w;
    gl_PointSize = 1.0;
}
