#version 450
// Centroid colour only (equals the centre with one sample).
layout(location = 3) centroid in vec4 centroid_c;
layout(location = 0) out vec4 o;
void main() { o = centroid_c * 2.0; }
