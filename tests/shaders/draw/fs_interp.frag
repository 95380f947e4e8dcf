#version 450
// Mixes the four interpolation kinds of vs_interp: each stays visible in one channel.
layout(location = 0) in vec4 smooth_c;
layout(location = 1) flat in vec4 flat_c;
layout(location = 2) noperspective in vec4 linear_c;
layout(location = 3) centroid in vec4 centroid_c;
layout(location = 0) out vec4 o;
void main() { o = vec4(smooth_c.r, flat_c.g, linear_c.b, centroid_c.r + centroid_c.a); }
