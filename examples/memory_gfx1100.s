; Memory, export and interpolation instructions on GFX11 (gfx1100), as llvm-mc prints them.
ds_store_b32 v1, v2 offset:16
ds_load_2addr_b32 v[4:5], v1 offset0:1 offset1:2
buffer_load_b32 v1, off, s[8:11], s2 offset:4 glc slc dlc
buffer_store_b64 v[2:3], v4, s[8:11], 0 offen
tbuffer_load_format_xy v[1:2], v2, s[8:11], s3 format:[BUF_FMT_32_32_FLOAT] idxen
global_load_b32 v1, v[2:3], off offset:-8
global_store_b128 v1, v[4:7], s[6:7] offset:64
scratch_load_b32 v1, v2, s3 offset:8
scratch_store_b32 off, v1, off offset:4
image_sample  v[0:3], [v4, v5], s[8:15], s[16:19] dmask:0xf dim:SQ_RSRC_IMG_2D
image_load v[0:3], v[4:6], s[8:15] dmask:0xf dim:SQ_RSRC_IMG_2D_ARRAY
exp mrt0 v0, v1, v2, v3 done
exp pos0 v4, v5, v6, v7 done row_en
lds_param_load v1, attr2.z wait_vdst:0
v_interp_p10_f32 v3, v1, v2, v1 wait_exp:7
v_interp_p2_f32 v3, v1, v2, v3 wait_exp:0
s_endpgm
