; Memory, export and interpolation instructions on GFX9 (gfx900), as llvm-mc prints them.
ds_write_b32 v1, v2 offset:16
ds_read2_b32 v[4:5], v1 offset0:1 offset1:2
ds_add_rtn_u32 v3, v1, v2 gds
ds_swizzle_b32 v1, v2 offset:swizzle(QUAD_PERM,0,1,2,3)
buffer_load_dword v1, off, s[8:11], s2 offset:4
buffer_load_dwordx4 v[4:7], v1, s[8:11], 0 offen offset:16 glc
buffer_store_dword v1, v[2:3], s[8:11], s4 idxen offen slc
buffer_atomic_add v1, v2, s[8:11], s3 idxen glc
tbuffer_load_format_xyzw v[4:7], v1, s[8:11], s2 format:[BUF_DATA_FORMAT_32_32_32_32,BUF_NUM_FORMAT_FLOAT] idxen
flat_load_dword v1, v[2:3] offset:8
global_load_dwordx2 v[4:5], v1, s[6:7] offset:-16
global_store_dword v[2:3], v1, off glc
global_atomic_add v1, v[2:3], v4, off glc
scratch_store_dword off, v1, s5 offset:4
scratch_load_dword v1, v2, off
image_sample v[0:3], v[4:5], s[8:15], s[16:19] dmask:0xf
image_load v[0:1], v[4:5], s[8:15] dmask:0x3 unorm
image_store v[0:3], v[4:6], s[8:15] dmask:0xf unorm da
exp mrt0 v0, v1, v2, v3 done vm
exp pos0 v4, v5, v6, v7
exp mrt0 v0, v0, v1, v1 compr
v_interp_p1_f32_e32 v2, v0, attr0.x
v_interp_p2_f32_e32 v2, v1, attr0.x
v_interp_mov_f32_e32 v3, p0, attr1.w
s_endpgm
