#version 450
// The colour out four times, once per interpolation qualifier.
layout(location = 0) in vec4 pos;
layout(location = 1) in vec4 col;
layout(location = 0) out vec4 smooth_c;
layout(location = 1) flat out vec4 flat_c;
layout(location = 2) noperspective out vec4 linear_c;
layout(location = 3) centroid out vec4 centroid_c;
void main() {
    gl_Position = pos;
    smooth_c = col;
    flat_c = col.bgra;
    linear_c = col.gbra;
    centroid_c = col * 0.5;
}
