; The same kind of fragment for gfx900 (wave64).
s_load_dwordx2 s[0:1], s[4:5], 0x0
s_waitcnt lgkmcnt(0)
v_mov_b32_e32 v1, s0
v_add_f32_e32 v2, 1.0, v1
v_mul_f32_e64 v3, -v2, |v1| clamp
v_mad_f32 v4, v1, v2, 0.5
v_cmp_gt_f32_e32 vcc, 0.5, v4
v_cndmask_b32_e64 v5, 0, 1.0, vcc
v_add_co_u32_e32 v7, vcc, v1, v2
s_add_u32 s2, s0, 0x12345678
s_cmp_lg_u32 s2, 0
s_cbranch_scc1 3
s_endpgm
