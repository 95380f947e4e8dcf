; Memory, export and interpolation instructions on GFX10.3 (gfx1030), as llvm-mc prints them.
ds_write_b32 v1, v2 offset:16
ds_read2_b64 v[4:7], v1 offset0:1 offset1:2
buffer_load_dword v1, off, s[8:11], s2 offset:4 glc dlc
buffer_store_dwordx2 v[2:3], v4, s[8:11], 0 offen
tbuffer_store_format_x v1, v2, s[8:11], s3 format:[BUF_FMT_32_FLOAT] idxen
global_load_dword v1, v[2:3], off offset:-8 dlc
global_atomic_cmpswap v1, v2, v[4:5], s[6:7] glc
scratch_load_dword v1, off, off offset:16
image_sample v[0:3], v[4:5], s[8:15], s[16:19] dmask:0xf dim:SQ_RSRC_IMG_2D
image_sample_d  v[0:3], [v4, v6, v7, v8, v9, v10], s[8:15], s[16:19] dmask:0xf dim:SQ_RSRC_IMG_2D
image_load v[0:1], [v4, v9, v2], s[8:15] dmask:0x3 dim:SQ_RSRC_IMG_3D unorm
image_atomic_add v1, v[2:3], s[8:15] dmask:0x1 dim:SQ_RSRC_IMG_2D glc
exp pos0 v4, v5, v6, v7 done
exp mrt0 v0, off, v1, off compr vm
v_interp_p1_f32_e32 v2, v0, attr0.x
s_endpgm
