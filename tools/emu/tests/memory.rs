//! Memory instructions end to end, assembled by llvm-mc-19: buffer loads/stores through
//! a V# with out-of-range lanes, global loads/stores/atomics, LDS shared across the waves
//! of a workgroup, per-lane scratch, and a missing `s_waitcnt vmcnt`.

mod support;

use gcnc::isa::Gen;
use gcnc_emu::{BufferDesc, ErrorKind, Memory};
use support::*;

const IN: u64 = 0x10_0000;
const OUT: u64 = 0x20_0000;
const DESC: u64 = 0x30_0000;

fn names(gen: Gen) -> (&'static str, &'static str, &'static str, &'static str) {
    // buffer load, buffer store, global atomic add, global store
    match gen {
        Gen::Gfx11 => (
            "buffer_load_b32",
            "buffer_store_b32",
            "global_atomic_add_u32",
            "global_store_b32",
        ),
        _ => (
            "buffer_load_dword",
            "buffer_store_dword",
            "global_atomic_add",
            "global_store_dword",
        ),
    }
}

#[test]
fn buffer_out_of_range_loads_zero_and_drops_stores() {
    if !llvm() {
        return;
    }
    for gen in Gen::ALL {
        let t = target(gen, true);
        let (ld, st, _, _) = names(gen);
        // s[0:1] -> two V#s at DESC (input, output); lane i copies in[i] to out[i]
        let load_desc = if gen == Gen::Gfx11 {
            "s_load_b256"
        } else {
            "s_load_dwordx8"
        };
        let src = format!(
            "  {load_desc} s[4:11], s[0:1], 0x0\n\
               v_lshlrev_b32_e32 v1, 2, v0\n\
               s_waitcnt lgkmcnt(0)\n\
               {ld} v2, v1, s[4:7], 0 offen\n\
               s_waitcnt vmcnt(0)\n\
               {st} v2, v1, s[8:11], 0 offen offset:4\n\
               s_endpgm\n"
        );
        let mut mem = Memory::new();
        mem.map(IN, 256);
        mem.map(OUT, 256);
        mem.map(DESC, 32);
        for i in 0..64u32 {
            mem.write_u32(IN + 4 * i as u64, 1000 + i).unwrap();
        }
        let descs = [BufferDesc::raw(gen, IN, 40), BufferDesc::raw(gen, OUT, 128)];
        for (k, dw) in descs.iter().flatten().enumerate() {
            mem.write_u32(DESC + 4 * k as u64, *dw).unwrap();
        }
        run(t, llvm_asm(t, &src), 64, &[DESC as u32, 0], &mut mem)
            .unwrap_or_else(|e| panic!("{gen}: {e}"));
        for i in 0..64u32 {
            let got = mem.read_u32(OUT + 4 + 4 * i as u64).unwrap_or(0xdead);
            // loads: 40 bytes in range (lanes 0..9); stores: byte offset 4+4i < 128
            let want = if 4 + 4 * i >= 128 {
                if (4 + 4 * i as u64) < 256 {
                    0
                } else {
                    0xdead
                }
            } else if i < 10 {
                1000 + i
            } else {
                0
            };
            assert_eq!(got, want, "{gen} lane {i}");
        }
    }
}

#[test]
fn global_atomics_and_stores() {
    if !llvm() {
        return;
    }
    for gen in Gen::ALL {
        let t = target(gen, true);
        let (_, _, atom, gst) = names(gen);
        let src = format!(
            "  v_mov_b32_e32 v1, 0\n\
               v_mov_b32_e32 v2, 1\n\
               {atom} v3, v1, v2, s[0:1] glc\n\
               v_lshlrev_b32_e32 v4, 2, v0\n\
               s_waitcnt vmcnt(0)\n\
               {gst} v4, v3, s[0:1] offset:4\n\
               s_endpgm\n"
        );
        let mut mem = Memory::new();
        mem.map(OUT, 4 + 256);
        mem.write_u32(OUT, 100).unwrap();
        run(t, llvm_asm(t, &src), 64, &[OUT as u32, 0], &mut mem)
            .unwrap_or_else(|e| panic!("{gen}: {e}"));
        assert_eq!(
            mem.read_u32(OUT).unwrap(),
            164,
            "{gen}: 64 atomic increments"
        );
        let mut olds: Vec<u32> = (0..64)
            .map(|i| mem.read_u32(OUT + 4 + 4 * i).unwrap())
            .collect();
        olds.sort();
        assert_eq!(
            olds,
            (100..164).collect::<Vec<u32>>(),
            "{gen}: each lane saw a distinct old value"
        );
    }
}

#[test]
fn lds_is_shared_by_the_waves_of_a_workgroup() {
    if !llvm() {
        return;
    }
    // the waves meet through an LDS atomic counter they spin on (no s_barrier: this
    // covers ds_add_u32 across waves; s_barrier itself is covered by tests/barrier.rs)
    for (gen, w64) in [
        (Gen::Gfx9, true),
        (Gen::Gfx10, false),
        (Gen::Gfx11, false),
        (Gen::Gfx11, true),
    ] {
        let t = target(gen, w64);
        let (st, add, ld) = if gen == Gen::Gfx11 {
            ("ds_store_b32", "ds_add_u32", "ds_load_b32")
        } else {
            ("ds_write_b32", "ds_add_u32", "ds_read_b32")
        };
        let vcc = if w64 { "vcc" } else { "vcc_lo" };
        let src = format!(
            "  v_lshlrev_b32_e32 v1, 2, v0\n\
               {st} v1, v0 offset:16\n\
               v_mov_b32_e32 v2, 0\n\
               v_mov_b32_e32 v3, 1\n\
               s_waitcnt lgkmcnt(0)\n\
               {add} v2, v3\n\
             spin:\n\
               {ld} v4, v2\n\
               s_waitcnt lgkmcnt(0)\n\
               v_cmp_gt_u32_e32 {vcc}, 0x80, v4\n\
               s_cbranch_vccnz spin\n\
               v_xor_b32_e32 v5, 0x40, v0\n\
               v_lshlrev_b32_e32 v5, 2, v5\n\
               {ld} v6, v5 offset:16\n\
               s_waitcnt lgkmcnt(0)\n\
               s_endpgm\n"
        );
        let mut mem = Memory::new();
        let waves = run_cfg(t, llvm_asm(t, &src), 128, &[], &mut mem, |d| {
            d.lds_bytes = 16 + 512
        })
        .unwrap_or_else(|e| panic!("{gen}: {e}"));
        let lanes = t.wave.lanes();
        for (wi, w) in waves.iter().enumerate() {
            for lane in 0..lanes {
                let id = wi as u32 * lanes + lane;
                assert_eq!(w.regs.v(6, lane), id ^ 64, "{gen} thread {id}");
                assert_eq!(w.regs.v(4, lane), 128);
            }
        }
    }
}

#[test]
fn scratch_is_private_per_lane() {
    if !llvm() {
        return;
    }
    for gen in Gen::ALL {
        let t = target(gen, true);
        let (st, ld) = if gen == Gen::Gfx11 {
            ("scratch_store_b32", "scratch_load_b32")
        } else {
            ("scratch_store_dword", "scratch_load_dword")
        };
        // GFX9/GFX10.3: the wave points FLAT_SCRATCH at its scratch (the dispatch's ring
        // base plus the wave's offset, 0 for the only wave) before the first access
        let ring = gcnc_emu::Dispatch::new(t, Vec::new()).scratch_ring;
        let (lo, hi) = (ring as u32, (ring >> 32) as u32);
        let init = match gen {
            Gen::Gfx9 => format!(
                "  s_mov_b32 flat_scratch_lo, {lo:#x}\n  s_mov_b32 flat_scratch_hi, {hi:#x}\n"
            ),
            Gen::Gfx10 => format!(
                "  s_mov_b32 s20, {lo:#x}\n  s_setreg_b32 hwreg(HW_REG_FLAT_SCR_LO), s20\n\
                   s_mov_b32 s20, {hi:#x}\n  s_setreg_b32 hwreg(HW_REG_FLAT_SCR_HI), s20\n"
            ),
            Gen::Gfx11 => String::new(),
        };
        let src = format!(
            "{init}  v_mov_b32_e32 v1, 8\n\
               v_mul_u32_u24_e32 v2, 3, v0\n\
               {st} v1, v2, off\n\
               s_waitcnt vmcnt(0)\n\
               {ld} v3, v1, off offset:-4\n\
               {ld} v4, v1, off\n\
               s_waitcnt vmcnt(0)\n\
               s_endpgm\n"
        );
        let mut mem = Memory::new();
        let w = run_cfg(t, llvm_asm(t, &src), 64, &[], &mut mem, |d| {
            d.scratch_bytes = 64
        })
        .unwrap_or_else(|e| panic!("{gen}: {e}"));
        for lane in 0..64 {
            assert_eq!(w[0].regs.v(4, lane), 3 * lane, "{gen}");
            assert_eq!(w[0].regs.v(3, lane), 0, "{gen}: untouched scratch reads 0");
        }
        // past the per-lane allocation: a fault, not silent corruption
        let bad = format!("{init}  v_mov_b32_e32 v1, 0x100\n  {st} v1, v0, off\n  s_endpgm\n");
        let e = run_cfg(t, llvm_asm(t, &bad), 64, &[], &mut Memory::new(), |d| {
            d.scratch_bytes = 64
        })
        .unwrap_err();
        assert!(matches!(e.kind, ErrorKind::MemFault { .. }), "{gen}: {e}");
    }
}

#[test]
fn missing_vmcnt_wait_is_reported() {
    if !llvm() {
        return;
    }
    for gen in Gen::ALL {
        let t = target(gen, true);
        let gld = if gen == Gen::Gfx11 {
            "global_load_b32"
        } else {
            "global_load_dword"
        };
        let src = format!("  v_mov_b32_e32 v1, 0\n  {gld} v2, v1, s[0:1]\n  v_add_f32_e32 v3, 1.0, v2\n  s_endpgm\n");
        let mut mem = Memory::new();
        mem.map(IN, 16);
        let e = run(t, llvm_asm(t, &src), 64, &[IN as u32, 0], &mut mem).unwrap_err();
        assert!(
            matches!(&e.kind, ErrorKind::MissingWait { counter, reg, .. } if *counter == "vmcnt" && reg == "v2"),
            "{gen}: {e}"
        );
        // a store overwriting its data register before vscnt/vmcnt: WAR, reported when the
        // optional WAR check is on, accepted otherwise (hardware reads it at issue)
        let gst = if gen == Gen::Gfx11 {
            "global_store_b32"
        } else {
            "global_store_dword"
        };
        let src = format!("  v_mov_b32_e32 v1, 0\n  v_mov_b32_e32 v2, 5\n  {gst} v1, v2, s[0:1]\n  v_mov_b32_e32 v2, 6\n  s_endpgm\n");
        run(t, llvm_asm(t, &src), 64, &[IN as u32, 0], &mut mem).unwrap();
        let war = gcnc_emu::Checks {
            war: true,
            ..Default::default()
        };
        let e = run_checked(t, llvm_asm(t, &src), 64, &[IN as u32, 0], &mut mem, war).unwrap_err();
        let want = if gen == Gen::Gfx9 { "vmcnt" } else { "vscnt" };
        assert!(
            matches!(&e.kind, ErrorKind::MissingWait { counter, overwrite: true, .. } if *counter == want),
            "{gen}: {e}"
        );
    }
}

/// Memory-related hazards: GFX9 VALU-written SGPR used by VMEM within 5 wait states, and
/// GFX10 VMEM reading an SGPR that an SALU then overwrites with no VALU between.
#[test]
fn memory_hazards() {
    if !llvm() {
        return;
    }
    let t = target(Gen::Gfx9, true);
    let bad = "  v_readfirstlane_b32 s2, v0\n  v_mov_b32_e32 v1, 0\n  global_load_dword v2, v1, s[2:3]\n  s_waitcnt vmcnt(0)\n  s_endpgm\n";
    let mut mem = Memory::new();
    mem.map(0, 4096);
    let e = run(t, llvm_asm(t, bad), 64, &[0, 0, 0, 0], &mut mem).unwrap_err();
    assert!(
        matches!(&e.kind, ErrorKind::Hazard { name, .. } if *name == "VALUWriteSGPR→VMEM"),
        "{e}"
    );
    let good = "  v_readfirstlane_b32 s2, v0\n  v_mov_b32_e32 v1, 0\n  s_nop 3\n  global_load_dword v2, v1, s[2:3]\n  s_waitcnt vmcnt(0)\n  s_endpgm\n";
    run(t, llvm_asm(t, good), 64, &[0, 0, 0, 0], &mut mem).unwrap();

    let t = target(Gen::Gfx10, true);
    let bad = "  v_mov_b32_e32 v1, 0\n  global_load_dword v2, v1, s[0:1]\n  s_mov_b32 s0, 0\n  s_waitcnt vmcnt(0)\n  s_endpgm\n";
    let e = run(t, llvm_asm(t, bad), 64, &[0, 0], &mut mem).unwrap_err();
    assert!(
        matches!(&e.kind, ErrorKind::Hazard { name, .. } if *name == "VMEMtoScalarWrite"),
        "{e}"
    );
    let good = "  v_mov_b32_e32 v1, 0\n  global_load_dword v2, v1, s[0:1]\n  v_mov_b32_e32 v3, 0\n  s_mov_b32 s0, 0\n  s_waitcnt vmcnt(0)\n  s_endpgm\n";
    run(t, llvm_asm(t, good), 64, &[0, 0], &mut mem).unwrap();
}

/// Typed buffer loads: the V#'s format (buffer_load_format_*) and the instruction's
/// (tbuffer_*), with the missing-component defaults and OOB elements.
#[test]
fn typed_buffer_loads() {
    if !llvm() {
        return;
    }
    for gen in Gen::ALL {
        let t = target(gen, true);
        // V# with format 8_8_8_8_UNORM (word3), records of 4 bytes, 8 bytes in range
        let mut v = BufferDesc::raw(gen, IN, 8);
        v[3] |= match gen {
            Gen::Gfx9 => 10 << 15,
            Gen::Gfx10 => 56 << 12,
            Gen::Gfx11 => 42 << 12,
        };
        let f32fmt = if gen == Gen::Gfx9 { 4 | 7 << 4 } else { 22 };
        let src = format!(
            "  v_lshlrev_b32_e32 v1, 2, v0\n\
               buffer_load_format_xyzw v[2:5], v1, s[0:3], 0 offen\n\
               tbuffer_load_format_xy v[6:7], v1, s[0:3], 0 format:{f32fmt} offen\n\
               s_waitcnt vmcnt(0)\n\
               s_endpgm\n"
        );
        let mut mem = Memory::new();
        mem.map(IN, 64);
        mem.write_u32(IN, 0xff80_4000).unwrap();
        mem.write_u32(IN + 4, 2.5f32.to_bits()).unwrap();
        let w = run(t, llvm_asm(t, &src), 4, &v, &mut mem).unwrap_or_else(|e| panic!("{gen}: {e}"));
        let r = &w[0].regs;
        let fl = |v: u16, l: u32| f32::from_bits(r.v(v, l));
        assert_eq!(
            [fl(2, 0), fl(3, 0), fl(4, 0), fl(5, 0)],
            [0.0, 64.0 / 255.0, 128.0 / 255.0, 1.0],
            "{gen}"
        );
        assert_eq!(
            (fl(6, 1), fl(7, 1)),
            (2.5, 0.0),
            "{gen}: 32_FLOAT x, missing y = 0"
        );
        assert_eq!(
            [fl(2, 2), fl(3, 2), fl(4, 2), fl(5, 2)],
            [0.0; 4],
            "{gen}: out of range"
        );
    }
}

/// GFX10 LdsBranchVmemWAR: LDS, branch, VMEM needs `s_waitcnt_vscnt null, 0` between.
#[test]
fn lds_branch_vmem_hazard() {
    if !llvm() {
        return;
    }
    let t = target(Gen::Gfx10, true);
    let body = |wait: &str| {
        format!(
            "  v_mov_b32_e32 v1, 0\n  ds_write_b32 v1, v1\n  s_branch next\nnext:\n{wait}  global_store_dword v1, v1, s[0:1]\n  s_endpgm\n"
        )
    };
    let mut mem = Memory::new();
    mem.map(0, 64);
    let e = run_cfg(t, llvm_asm(t, &body("")), 64, &[0, 0], &mut mem, |d| {
        d.lds_bytes = 16
    })
    .unwrap_err();
    assert!(
        matches!(&e.kind, ErrorKind::Hazard { name, .. } if *name == "LdsBranchVmemWAR"),
        "{e}"
    );
    run_cfg(
        t,
        llvm_asm(t, &body("  s_waitcnt_vscnt null, 0x0\n")),
        64,
        &[0, 0],
        &mut mem,
        |d| d.lds_bytes = 16,
    )
    .unwrap();
}

/// d16 loads fill one half of a VGPR and keep the other; d16_hi stores write the high half.
#[test]
fn d16_loads_and_stores() {
    if !llvm() {
        return;
    }
    for gen in Gen::ALL {
        let t = target(gen, true);
        let (ldhi, ldu8, sthi, dshi) = if gen == Gen::Gfx11 {
            (
                "global_load_d16_hi_b16",
                "global_load_d16_i8",
                "global_store_d16_hi_b16",
                "ds_load_u16_d16_hi",
            )
        } else {
            (
                "global_load_short_d16_hi",
                "global_load_sbyte_d16",
                "global_store_short_d16_hi",
                "ds_read_u16_d16_hi",
            )
        };
        let st = if gen == Gen::Gfx11 {
            "ds_store_b32"
        } else {
            "ds_write_b32"
        };
        let src = format!(
            "  v_mov_b32_e32 v1, 0\n  v_mov_b32_e32 v2, 0x11112222\n  v_mov_b32_e32 v3, 0x33334444\n  v_mov_b32_e32 v5, 0x55556666\n\
               {ldhi} v2, v1, s[0:1]\n  {ldu8} v3, v1, s[0:1] offset:3\n  s_waitcnt vmcnt(0)\n\
               {sthi} v1, v2, s[0:1] offset:8\n\
               {st} v1, v2\n  s_waitcnt lgkmcnt(0)\n  {dshi} v5, v1 offset:2\n  s_waitcnt lgkmcnt(0)\n  s_endpgm\n"
        );
        let mut mem = Memory::new();
        mem.map(IN, 16);
        mem.write_u32(IN, 0x80ab_cdef).unwrap();
        let w = run_cfg(t, llvm_asm(t, &src), 1, &[IN as u32, 0], &mut mem, |d| {
            d.lds_bytes = 16
        })
        .unwrap_or_else(|e| panic!("{gen}: {e}"));
        let r = &w[0].regs;
        assert_eq!(r.v(2, 0), 0xcdef_2222, "{gen}: d16_hi load");
        assert_eq!(
            r.v(3, 0),
            0x3333_ff80,
            "{gen}: sign-extended byte into the low half"
        );
        assert_eq!(
            mem.read_u32(IN + 8).unwrap() & 0xffff,
            0xcdef,
            "{gen}: d16_hi store"
        );
        assert_eq!(r.v(5, 0), 0xcdef_6666, "{gen}: LDS d16_hi load");
    }
}
