#version 450
// A `sample`-qualified input: interpolated at each sample's location, once per sample.
layout(location = 0) sample in vec4 vcol;
layout(location = 0) out vec4 o;
void main() { o = vcol; }
