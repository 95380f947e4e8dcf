#version 450
// Every interpolation kind the backend selects: smooth, noperspective, flat (integer),
// centroid; one vec4 colour export.
layout(location = 0) in vec4 smooth_in;
layout(location = 1) noperspective in vec2 np_in;
layout(location = 2) flat in ivec2 flat_in;
layout(location = 3) centroid in float cen_in;
layout(location = 0) out vec4 color;
void main() {
    color = smooth_in * cen_in + vec4(np_in, vec2(flat_in));
}
