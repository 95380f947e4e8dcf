//! Whole programs assembled by LLVM's llvm-mc-19 (not our assembler) run end to end on
//! every generation, and the negative cases the emulator must report: a missing
//! s_waitcnt, a hazard, a never-written register, running off the code, a hung loop.

mod support;

use gcnc::isa::Gen;
use gcnc_emu::{BufferDesc, ErrorKind, Memory};
use support::*;

fn mask(gen: Gen) -> (&'static str, &'static str, &'static str) {
    // (saveexec mnemonic, exec name, scratch pair) for wave64 on every generation
    let _ = gen;
    ("s_and_saveexec_b64", "exec", "s[20:21]")
}

/// if (lane < 20) x = lane * 3; else x = 1000 - lane;  with exec save/restore.
#[test]
fn divergent_branch_with_exec_save_restore() {
    if !llvm() {
        return;
    }
    for gen in Gen::ALL {
        let t = target(gen, true);
        let (saveexec, exec, save) = mask(gen);
        let src = format!(
            "  v_cmp_gt_u32_e32 vcc, 20, v0\n\
               {saveexec} {save}, vcc\n\
               s_cbranch_execz else_\n\
               v_mul_u32_u24_e32 v1, 3, v0\n\
             else_:\n\
               s_xor_b64 {exec}, {exec}, {save}\n\
               s_cbranch_execz done\n\
               v_sub_nc_u32_e32 v1, 0x3e8, v0\n\
             done:\n\
               s_or_b64 {exec}, {exec}, {save}\n\
               v_add_nc_u32_e32 v2, 1, v1\n\
               s_endpgm\n"
        );
        let src = if gen == Gen::Gfx9 {
            src.replace("v_sub_nc_u32", "v_sub_u32")
                .replace("v_add_nc_u32", "v_add_u32")
        } else {
            src
        };
        let mut mem = Memory::new();
        let w =
            run(t, llvm_asm(t, &src), 64, &[], &mut mem).unwrap_or_else(|e| panic!("{gen}: {e}"));
        for lane in 0..64u32 {
            let x = if lane < 20 { lane * 3 } else { 1000 - lane };
            assert_eq!(w[0].regs.v(2, lane), x + 1, "{gen} lane {lane}");
        }
        assert_eq!(w[0].regs.exec(), u64::MAX, "{gen}: exec restored");
    }
}

/// A counted loop with a per-lane trip count: sum_{i<n} i where n = lane % 7 + 1.
#[test]
fn loop_with_per_lane_trip_count() {
    if !llvm() {
        return;
    }
    for gen in Gen::ALL {
        let t = target(gen, true);
        let add = if gen == Gen::Gfx9 {
            "v_add_u32_e32"
        } else {
            "v_add_nc_u32_e32"
        };
        let src = format!(
            "  v_and_b32_e32 v1, 7, v0\n\
               v_mov_b32_e32 v2, 0\n\
               v_mov_b32_e32 v3, 0\n\
               s_mov_b64 s[20:21], exec\n\
             loop:\n\
               {add} v2, v2, v3\n\
               {add} v3, 1, v3\n\
               v_cmp_gt_u32_e32 vcc, v3, v1\n\
               s_andn2_b64 exec, exec, vcc\n\
               s_cbranch_execnz loop\n\
               s_mov_b64 exec, s[20:21]\n\
               s_endpgm\n"
        );
        let mut mem = Memory::new();
        let w =
            run(t, llvm_asm(t, &src), 64, &[], &mut mem).unwrap_or_else(|e| panic!("{gen}: {e}"));
        for lane in 0..64u32 {
            let n = (lane & 7) + 1;
            let want: u32 = (0..n).sum();
            assert_eq!(w[0].regs.v(2, lane), want, "{gen} lane {lane}");
        }
    }
}

/// Scalar loads through a pointer and through a V#; buffer dwords past num_records read 0.
#[test]
fn scalar_loads_and_buffer_out_of_range() {
    if !llvm() {
        return;
    }
    for gen in Gen::ALL {
        let t = target(gen, true);
        let (l4, bl4) = if gen == Gen::Gfx11 {
            ("s_load_b128", "s_buffer_load_b128")
        } else {
            ("s_load_dwordx4", "s_buffer_load_dwordx4")
        };
        let src = format!(
            "  {l4} s[4:7], s[0:1], 0x0\n\
               s_waitcnt lgkmcnt(0)\n\
               {bl4} s[8:11], s[4:7], 0x8\n\
               s_waitcnt lgkmcnt(0)\n\
               s_endpgm\n"
        );
        let mut mem = Memory::new();
        let data = 0x10_0000u64;
        let desc_at = 0x20_0000u64;
        mem.map(data, 64);
        for k in 0..16u32 {
            mem.write_u32(data + 4 * k as u64, 100 + k).unwrap();
        }
        mem.map(desc_at, 16);
        for (k, dw) in BufferDesc::raw(gen, data, 16).iter().enumerate() {
            mem.write_u32(desc_at + 4 * k as u64, *dw).unwrap();
        }
        let w = run(t, llvm_asm(t, &src), 64, &[desc_at as u32, 0], &mut mem)
            .unwrap_or_else(|e| panic!("{gen}: {e}"));
        let r = &w[0].regs;
        // num_records = 16 bytes: offsets 8 and 12 are in range, 16 and 20 are not
        assert_eq!(
            [r.s_raw(8), r.s_raw(9), r.s_raw(10), r.s_raw(11)],
            [102, 103, 0, 0],
            "{gen}"
        );
    }
}

#[test]
fn missing_waitcnt_is_reported() {
    if !llvm() {
        return;
    }
    for gen in Gen::ALL {
        let t = target(gen, true);
        let l2 = if gen == Gen::Gfx11 {
            "s_load_b64"
        } else {
            "s_load_dwordx2"
        };
        let src = format!("  {l2} s[4:5], s[0:1], 0x0\n  s_add_u32 s6, s4, 1\n  s_endpgm\n");
        let mut mem = Memory::new();
        mem.map(0x1000, 8);
        let e = run(t, llvm_asm(t, &src), 64, &[0x1000, 0], &mut mem).unwrap_err();
        match &e.kind {
            ErrorKind::MissingWait { reg, counter, .. } => {
                assert_eq!((reg.as_str(), *counter), ("s4", "lgkmcnt"), "{gen}");
            }
            k => panic!("{gen}: expected a missing wait, got {k}"),
        }
        assert!(e.inst.as_deref().unwrap().starts_with("s_add_u32"), "{e}");
        assert!(
            e.to_string().contains("s_load"),
            "names the pending load: {e}"
        );
        // with the wait it runs
        let ok = format!("  {l2} s[4:5], s[0:1], 0x0\n  s_waitcnt lgkmcnt(0)\n  s_add_u32 s6, s4, 1\n  s_endpgm\n");
        run(t, llvm_asm(t, &ok), 64, &[0x1000, 0], &mut mem).unwrap();
        // two SMEM loads return out of order: lgkmcnt(1) proves nothing
        let ooo = format!(
            "  {l2} s[4:5], s[0:1], 0x0\n  {l2} s[6:7], s[0:1], 0x0\n  s_waitcnt lgkmcnt(1)\n  s_mov_b32 s8, s4\n  s_endpgm\n"
        );
        let e = run(t, llvm_asm(t, &ooo), 64, &[0x1000, 0], &mut mem).unwrap_err();
        assert!(
            matches!(e.kind, ErrorKind::MissingWait { .. }),
            "{gen}: {e}"
        );
    }
}

#[test]
fn hazards_are_reported_per_generation() {
    if !llvm() {
        return;
    }
    // GFX9: a VALU-written SGPR as v_readlane's lane select needs 4 wait states
    let t = target(Gen::Gfx9, true);
    let bad = "  v_readfirstlane_b32 s4, v0\n  v_readlane_b32 s5, v0, s4\n  s_endpgm\n";
    let e = run(t, llvm_asm(t, bad), 64, &[], &mut Memory::new()).unwrap_err();
    assert!(
        matches!(&e.kind, ErrorKind::Hazard { name, .. } if name.contains("RWLane")),
        "{e}"
    );
    let good = "  v_readfirstlane_b32 s4, v0\n  s_nop 3\n  v_readlane_b32 s5, v0, s4\n  s_endpgm\n";
    run(t, llvm_asm(t, good), 64, &[], &mut Memory::new()).unwrap();

    // GFX9: a DPP source written by the previous VALU needs 2 wait states
    let bad = "  v_add_u32_e32 v1, 1, v0\n  v_mov_b32_dpp v2, v1 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf\n  s_endpgm\n";
    let e = run(t, llvm_asm(t, bad), 64, &[], &mut Memory::new()).unwrap_err();
    assert!(
        matches!(&e.kind, ErrorKind::Hazard { name, .. } if name.contains("DPP")),
        "{e}"
    );
    let good = "  v_add_u32_e32 v1, 1, v0\n  s_nop 1\n  v_mov_b32_dpp v2, v1 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf\n  s_endpgm\n";
    run(t, llvm_asm(t, good), 64, &[], &mut Memory::new()).unwrap();

    // GFX9: a VALU overwriting the data of a >64-bit store in the next wait state; a
    // 64-bit store's data is read at issue
    let mut mem = Memory::new();
    mem.map(0x1000, 64);
    let desc = gcnc_emu::BufferDesc::raw(Gen::Gfx9, 0x1000, 64);
    let store = |data: &str, nop: &str| {
        format!("  v_mov_b32_e32 v0, 0\n  v_mov_b32_e32 v1, 1\n  v_mov_b32_e32 v2, 2\n  v_mov_b32_e32 v3, 3\n  v_mov_b32_e32 v4, 4\n  buffer_store_{data} v0, s[0:3], 0 offen\n{nop}  v_mov_b32_e32 v3, 0\n  s_waitcnt vmcnt(0)\n  s_endpgm\n")
    };
    let e = run(
        t,
        llvm_asm(t, &store("dwordx4 v[1:4],", "")),
        64,
        &desc,
        &mut mem,
    )
    .unwrap_err();
    assert!(
        matches!(&e.kind, ErrorKind::Hazard { name, .. } if *name == "VMEMStoreData→VALUWrite"),
        "{e}"
    );
    run(
        t,
        llvm_asm(t, &store("dwordx4 v[1:4],", "  s_nop 0\n")),
        64,
        &desc,
        &mut mem,
    )
    .unwrap();
    run(
        t,
        llvm_asm(t, &store("dwordx2 v[2:3],", "")),
        64,
        &desc,
        &mut mem,
    )
    .unwrap();
    // GFX10 has no such hazard
    let t10 = target(Gen::Gfx10, true);
    let desc10 = gcnc_emu::BufferDesc::raw(Gen::Gfx10, 0x1000, 64);
    run(
        t10,
        llvm_asm(t10, &store("dwordx4 v[1:4],", "")),
        64,
        &desc10,
        &mut mem,
    )
    .unwrap();

    // GFX10: SMEM reads an SGPR that a VALU then overwrites
    let t = target(Gen::Gfx10, true);
    let bad = "  s_load_dword s4, s[0:1], 0x0\n  v_readfirstlane_b32 s0, v0\n  s_waitcnt lgkmcnt(0)\n  s_endpgm\n";
    let mut mem = Memory::new();
    mem.map(0x1000, 8);
    let e = run(t, llvm_asm(t, bad), 64, &[0x1000, 0], &mut mem).unwrap_err();
    assert!(
        matches!(&e.kind, ErrorKind::Hazard { name, .. } if *name == "SMEMtoVectorWrite"),
        "{e}"
    );
    // an SALU between clears the hazard; overwriting the pending load's address register
    // before its s_waitcnt is reported only by the optional WAR check
    let good = "  s_load_dword s4, s[0:1], 0x0\n  s_mov_b32 s9, 0\n  v_readfirstlane_b32 s0, v0\n  s_waitcnt lgkmcnt(0)\n  s_endpgm\n";
    run(t, llvm_asm(t, good), 64, &[0x1000, 0], &mut mem).unwrap();
    let war = gcnc_emu::Checks {
        war: true,
        ..Default::default()
    };
    let e = run_checked(t, llvm_asm(t, good), 64, &[0x1000, 0], &mut mem, war).unwrap_err();
    assert!(
        matches!(
            &e.kind,
            ErrorKind::MissingWait {
                overwrite: true,
                ..
            }
        ),
        "{e}"
    );

    // GFX11: a VALU reading a transcendental result right away
    let t = target(Gen::Gfx11, true);
    let bad = "  v_cvt_f32_u32_e32 v1, v0\n  v_exp_f32_e32 v2, v1\n  v_add_f32_e32 v3, v2, v2\n  s_endpgm\n";
    let e = run(t, llvm_asm(t, bad), 64, &[], &mut Memory::new()).unwrap_err();
    assert!(
        matches!(&e.kind, ErrorKind::Hazard { name, .. } if *name == "VALUTransUse"),
        "{e}"
    );
    let good = "  v_cvt_f32_u32_e32 v1, v0\n  v_exp_f32_e32 v2, v1\n  s_waitcnt_depctr 0xfff\n  v_add_f32_e32 v3, v2, v2\n  s_endpgm\n";
    run(t, llvm_asm(t, good), 64, &[], &mut Memory::new()).unwrap();

    // GFX11 wave64: VALU reads s[4:5] as a mask, SALU rewrites it, SALU reads it
    let bad = "  s_mov_b64 s[4:5], exec\n  v_cndmask_b32_e64 v1, 0, 1, s[4:5]\n  s_mov_b64 s[4:5], 0\n  s_and_b64 s[6:7], s[4:5], exec\n  s_endpgm\n";
    let e = run(t, llvm_asm(t, bad), 64, &[], &mut Memory::new()).unwrap_err();
    assert!(
        matches!(&e.kind, ErrorKind::Hazard { name, .. } if *name == "VALUMaskWrite"),
        "{e}"
    );
    let good = "  s_mov_b64 s[4:5], exec\n  v_cndmask_b32_e64 v1, 0, 1, s[4:5]\n  s_mov_b64 s[4:5], 0\n  s_waitcnt_depctr 0xfffe\n  s_and_b64 s[6:7], s[4:5], exec\n  s_endpgm\n";
    run(t, llvm_asm(t, good), 64, &[], &mut Memory::new()).unwrap();
}

#[test]
fn unwritten_register_reads_are_reported() {
    if !llvm() {
        return;
    }
    for gen in Gen::ALL {
        let t = target(gen, true);
        // v5 is written only in lanes < 8, then read by all 64
        let src = "  v_cmp_gt_u32_e32 vcc, 8, v0\n  s_and_saveexec_b64 s[20:21], vcc\n  v_mov_b32_e32 v5, 1\n  s_mov_b64 exec, s[20:21]\n  v_mov_b32_e32 v6, v5\n  s_endpgm\n";
        let e = run(t, llvm_asm(t, src), 64, &[], &mut Memory::new()).unwrap_err();
        match &e.kind {
            ErrorKind::UninitRead { reg, lanes } => {
                assert_eq!(reg, "v5");
                assert_eq!(*lanes, !0xffu64, "{gen}");
            }
            k => panic!("{gen}: {k}"),
        }
        assert!(
            e.dump.as_deref().unwrap().contains("v5"),
            "dump shows registers"
        );
        // an SGPR never written
        let src = "  s_add_u32 s0, s7, 1\n  s_endpgm\n";
        let e = run(t, llvm_asm(t, src), 64, &[], &mut Memory::new()).unwrap_err();
        assert!(
            matches!(&e.kind, ErrorKind::UninitRead { reg, .. } if reg == "s7"),
            "{e}"
        );
    }
}

#[test]
fn running_off_the_end_and_hung_loops_are_errors() {
    if !llvm() {
        return;
    }
    for gen in Gen::ALL {
        let t = target(gen, true);
        let e = run(
            t,
            llvm_asm(t, "  s_mov_b32 s0, 1\n"),
            64,
            &[],
            &mut Memory::new(),
        )
        .unwrap_err();
        assert!(matches!(e.kind, ErrorKind::RanOffEnd { .. }), "{gen}: {e}");
        let e = run(
            t,
            llvm_asm(t, "l:\n  s_branch l\n  s_endpgm\n"),
            64,
            &[],
            &mut Memory::new(),
        )
        .unwrap_err();
        assert!(matches!(e.kind, ErrorKind::Budget(_)), "{gen}: {e}");
        assert!(e.to_string().contains("s_branch"));
    }
}

/// DPP lane movement and SDWA sub-dword selects, assembled by LLVM.
#[test]
fn dpp_and_sdwa() {
    if !llvm() {
        return;
    }
    for gen in Gen::ALL {
        let t = target(gen, true);
        let bc = if gen == Gen::Gfx9 {
            "bound_ctrl:0"
        } else {
            "bound_ctrl:1"
        };
        let mut src = format!(
            "  v_mov_b32_dpp v1, v0 row_shr:1 row_mask:0xf bank_mask:0xf {bc}\n\
               v_mov_b32_dpp v2, v0 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf\n\
               v_mov_b32_dpp v3, v0 row_mirror row_mask:0xf bank_mask:0xf\n\
               v_mov_b32_e32 v4, 0\n\
               v_mov_b32_dpp v4, v0 row_shl:1 row_mask:0x5 bank_mask:0xf\n"
        );
        if gen != Gen::Gfx11 {
            let add = if gen == Gen::Gfx9 {
                "v_add_u32_sdwa"
            } else {
                "v_add_nc_u32_sdwa"
            };
            src.push_str("  v_mov_b32_e32 v5, 0x11223344\n  v_mov_b32_e32 v6, 0xaabbccdd\n");
            src.push_str(&format!(
                "  {add} v6, v5, v0 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:BYTE_2 src1_sel:DWORD\n"
            ));
        }
        if gen != Gen::Gfx9 {
            src.push_str("  v_mov_b32_dpp v7, v0 dpp8:[7,6,5,4,3,2,1,0]\n");
            src.push_str("  v_mov_b32_dpp v8, v0 row_xmask:1 row_mask:0xf bank_mask:0xf\n");
        }
        src.push_str("  s_endpgm\n");
        let mut mem = Memory::new();
        let w =
            run(t, llvm_asm(t, &src), 64, &[], &mut mem).unwrap_or_else(|e| panic!("{gen}: {e}"));
        let r = &w[0].regs;
        for lane in 0..64u32 {
            let i = lane % 16;
            assert_eq!(
                r.v(1, lane),
                if i == 0 { 0 } else { lane - 1 },
                "{gen} row_shr lane {lane}"
            );
            assert_eq!(r.v(2, lane), lane ^ 1, "{gen} quad_perm");
            assert_eq!(r.v(3, lane), lane - i + 15 - i, "{gen} row_mirror");
            let row_on = (lane / 16) % 2 == 0; // row_mask 0x5: rows 0 and 2
            let want4 = if row_on && i < 15 { lane + 1 } else { 0 };
            assert_eq!(r.v(4, lane), want4, "{gen} row_mask lane {lane}");
            if gen != Gen::Gfx11 {
                assert_eq!(
                    r.v(6, lane),
                    0xccdd | (0x22 + lane) << 16,
                    "{gen} sdwa lane {lane}"
                );
            }
            if gen != Gen::Gfx9 {
                assert_eq!(r.v(7, lane), (lane & !7) | (7 - (lane & 7)), "{gen} dpp8");
                assert_eq!(r.v(8, lane), lane ^ 1, "{gen} row_xmask");
            }
        }
    }
}

/// SMEM with an SGPR offset (plus an immediate on GFX9+/GFX10+ forms).
#[test]
fn smem_sgpr_offset() {
    if !llvm() {
        return;
    }
    for gen in Gen::ALL {
        let t = target(gen, true);
        let ld = if gen == Gen::Gfx11 {
            "s_load_b32"
        } else {
            "s_load_dword"
        };
        let src = format!("  s_mov_b32 s5, 8\n  {ld} s4, s[0:1], s5\n  {ld} s6, s[0:1], s5 offset:0x4\n  s_waitcnt lgkmcnt(0)\n  s_endpgm\n");
        let mut mem = Memory::new();
        mem.map(0x1000, 16);
        for k in 0..4u32 {
            mem.write_u32(0x1000 + 4 * k as u64, 10 + k).unwrap();
        }
        let w = run(t, llvm_asm(t, &src), 64, &[0x1000, 0], &mut mem)
            .unwrap_or_else(|e| panic!("{gen}: {e}"));
        assert_eq!((w[0].regs.s_raw(4), w[0].regs.s_raw(6)), (12, 13), "{gen}");
    }
}

/// v_fma_mix: f16 halves picked by op_sel/op_sel_hi, fused in f32, f32 or f16 result.
#[test]
fn fma_mix() {
    if !llvm() {
        return;
    }
    for gen in [Gen::Gfx10, Gen::Gfx11] {
        let t = target(gen, false);
        let src = "  v_mov_b32_e32 v1, 0x3c004000\n  v_mov_b32_e32 v2, 0x42004400\n  v_mov_b32_e32 v3, 0.5\n  v_mov_b32_e32 v5, 0xabcd0000\n\
                   v_fma_mix_f32 v0, v1, v2, v3 op_sel_hi:[1,1,0]\n\
                   v_fma_mix_f32 v4, v1, -v2, v3 op_sel:[1,1,0] op_sel_hi:[1,1,0]\n\
                   v_fma_mixlo_f16 v5, v1, v2, v3 op_sel_hi:[1,1,0]\n  s_endpgm\n";
        let w = run(t, llvm_asm(t, src), 32, &[], &mut Memory::new())
            .unwrap_or_else(|e| panic!("{gen}: {e}"));
        let r = &w[0].regs;
        assert_eq!(f32::from_bits(r.v(0, 3)), 2.0 * 4.0 + 0.5, "{gen}");
        assert_eq!(f32::from_bits(r.v(4, 3)), 1.0 * -3.0 + 0.5, "{gen}");
        assert_eq!(
            r.v(5, 3),
            0xabcd_4840,
            "{gen}: f16 8.5 in the low half, high kept"
        );
    }
}

/// A loop of stores that never waits on the store counter (GFX10.3/GFX11 `vscnt`; vmcnt
/// on GFX9) runs to its end at the default instruction budget: the hardware counter
/// saturates at its maximum (the wave stalls at issue until the oldest store is done),
/// so the tracker holds at most that many pending stores, however many were issued.
/// The newest store is still tracked: overwriting its data without a wait is reported
/// when the WAR check is on.
#[test]
fn a_store_loop_that_never_waits_keeps_the_pending_list_at_the_counters_maximum() {
    use gcnc_emu::dispatch::{run_workgroup, Dispatch};
    use gcnc_emu::track::Counter;
    if !llvm() {
        return;
    }
    const TRIPS: u32 = 240_000;
    for gen in Gen::ALL {
        let t = target(gen, true);
        let (store, counter, cmax) = match gen {
            Gen::Gfx9 => ("global_store_dword", Counter::Vm, 63),
            Gen::Gfx10 => ("global_store_dword", Counter::Vs, 63),
            Gen::Gfx11 => ("global_store_b32", Counter::Vs, 63),
        };
        let src = format!(
            "  v_mov_b32_e32 v1, 0\n\
               v_mov_b32_e32 v2, 7\n\
               s_mov_b32 s4, 0\n\
             loop:\n\
               {store} v1, v2, s[0:1]\n\
               s_add_u32 s4, s4, 1\n\
               s_cmp_lt_u32 s4, {TRIPS}\n\
               s_cbranch_scc1 loop\n\
               s_endpgm\n"
        );
        let mut d = Dispatch::new(t, llvm_asm(t, &src));
        assert_eq!(d.budget, 1_000_000, "the default budget");
        d.group_size = [1, 1, 1];
        d.user_sgprs = vec![0x1000, 0];
        d.tgid_en = [false; 3];
        d.tid_dims = 1;
        let mut mem = Memory::new();
        mem.map(0x1000, 4);
        let w = run_workgroup(&d, &mut mem, [0, 0, 0]).unwrap_or_else(|e| panic!("{gen}: {e}"));
        assert_eq!(w[0].executed, 3 + 4 * TRIPS as u64 + 1, "{gen}");
        assert_eq!(
            mem.read_vec(0x1000, 4).unwrap(),
            7u32.to_le_bytes(),
            "{gen}"
        );
        assert_eq!(w[0].track.outstanding(counter), cmax, "{gen}");

        let war = src.replace("s_endpgm", "v_mov_b32_e32 v2, 0\n  s_endpgm");
        d.code = llvm_asm(t, &war);
        d.checks.war = true;
        let e = run_workgroup(&d, &mut mem, [0, 0, 0]).unwrap_err();
        assert!(
            matches!(&e.kind, ErrorKind::MissingWait { reg, .. } if reg == "v2"),
            "{gen}: {e}"
        );
        assert!(
            e.inst.as_deref().unwrap().starts_with("v_mov_b32"),
            "{gen}: {e}"
        );
    }
}
