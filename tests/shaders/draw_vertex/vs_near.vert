#version 450
// Eye-space positions through a perspective projection (90° field of view, near 1, far
// 10, Vulkan's depth range [0, 1]): vertices behind the eye get w < 0 and z < 0, so
// their triangles are clipped against the near plane. A smooth and a flat colour.
layout(location = 0) in vec4 eye;
layout(location = 1) in vec4 col;
layout(location = 0) out vec4 vcol;
layout(location = 1) flat out vec4 fcol;
void main() {
    const float n = 1.0, f = 10.0;
    gl_Position = vec4(eye.x, eye.y, f / (n - f) * eye.z + n * f / (n - f), -eye.z);
    vcol = col;
    fcol = vec4(col.b, col.r, col.g, 1.0);
}
