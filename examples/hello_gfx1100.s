; A small gfx1100 compute fragment in LLVM syntax: load, arithmetic, compare, store-free.
s_load_b64 s[0:1], s[4:5], 0x0
s_waitcnt lgkmcnt(0)
v_mov_b32_e32 v1, s0
v_add_f32_e32 v2, 1.0, v1
v_mul_f32_e64 v3, -v2, |v1| clamp
v_fma_f32 v4, v1, v2, 0x40490fdb
v_cmp_gt_f32_e32 vcc_lo, 0.5, v4
v_cndmask_b32_e64 v5, 0, 1.0, vcc_lo
v_pk_add_f16 v6, v1, v2 op_sel_hi:[0,1]
s_delay_alu instid0(VALU_DEP_1) | instskip(NEXT) | instid1(SALU_CYCLE_1)
s_add_u32 s2, s0, 0x12345678
s_cmp_lg_u32 s2, 0
s_cbranch_scc1 3
s_nop 0
s_endpgm
