#version 450
// Arrays sized by specialization constants: a shared tile of BLOCK_SIZE floats and a
// shared ROWS x (BLOCK_SIZE/2 + 1) table (sizes from OpSpecConstant and OpSpecConstantOp).
// The test runs it with values other than the defaults, so sizes must come from them.
layout(local_size_x = 64) in;
layout(constant_id = 0) const uint BLOCK_SIZE = 32u;
layout(constant_id = 1) const int ROWS = 2;
const uint HALF = BLOCK_SIZE / 2u;
shared float tile[BLOCK_SIZE];
shared uint sums[ROWS][HALF + 1u];
layout(std430, set = 0, binding = 0) writeonly buffer O { uint o[]; };
void main() {
    uint l = gl_LocalInvocationID.x;
    uint g = gl_GlobalInvocationID.x;
    if (l < BLOCK_SIZE) {
        tile[l] = float(l + gl_WorkGroupID.x) * 0.5;
    }
    for (uint k = l; k < uint(ROWS) * (HALF + 1u); k += 64u) {
        sums[k / (HALF + 1u)][k % (HALF + 1u)] = k * 3u;
    }
    barrier();
    o[3u * g] = floatBitsToUint(tile[(l * 5u) % BLOCK_SIZE]);
    o[3u * g + 1u] = sums[l % uint(ROWS)][l % (HALF + 1u)];
    o[3u * g + 2u] = uint(tile.length()) | (uint(sums.length()) << 8) | (uint(sums[0].length()) << 16);
}
