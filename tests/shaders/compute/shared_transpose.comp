#version 450
// A 2-D workgroup (16x16) transposing a 64x32 matrix through a padded shared tile.
layout(local_size_x = 16, local_size_y = 16) in;
layout(std430, set = 0, binding = 0) readonly buffer I { uint d[]; };
layout(std430, set = 0, binding = 1) writeonly buffer O { uint o[]; };
shared uint tile[16][17];
const uint W = 64u;
const uint H = 32u;
void main() {
    uvec2 g = gl_GlobalInvocationID.xy;
    uvec2 l = gl_LocalInvocationID.xy;
    tile[l.y][l.x] = d[g.y * W + g.x];
    barrier();
    uvec2 t = gl_WorkGroupID.yx * 16u + l;
    o[t.y * H + t.x] = tile[l.x][l.y];
}
