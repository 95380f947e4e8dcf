#version 450
// No output at all: the stage still ends with the (null) export that tells the
// hardware the pixel is done; with a discard the kill mask matters.
layout(location = 0) flat in int k;
void main() {
    if (k == 3) discard;
}
