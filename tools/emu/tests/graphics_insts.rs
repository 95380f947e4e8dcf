//! The graphics instructions on every generation that has them, assembled by llvm-mc-19:
//! `exp` (targets, flags, compressed and GFX11 packed 16-bit data, EXEC), the GFX9/GFX10.3
//! VINTRP interpolation and GFX11 `lds_param_load` + VINTERP over a wave holding two
//! primitives, `s_sendmsg GS_ALLOC_REQ`, and the rules around them: expcnt before
//! overwriting an export source or reading an `lds_param_load` result, the GFX9 M0 →
//! v_interp wait state, exports after `done`, NGG exports before GS_ALLOC_REQ, exports in
//! compute.

mod support;

use gcnc::isa::{Gen, Target};
use gcnc_emu::draw::launch::run_wave;
use gcnc_emu::export::{Exports, Target as Tgt};
use gcnc_emu::memory::Lds;
use gcnc_emu::wave::{Program, Wave};
use gcnc_emu::{Checks, ErrorKind, Memory, Result};
use support::*;

/// Runs `src` (llvm-mc) as one graphics wave: v0 = lane, v1 = lane · 2 + 1 (as f32),
/// v2 = 0.25 (f32), v3 = -3.0 (f32), EXEC = `exec`; `lds` becomes the wave's LDS with
/// `param_bytes` per primitive.
fn run_gfx(
    t: Target,
    src: &str,
    exec: u64,
    lds: &[u32],
    param_bytes: u32,
    ngg: bool,
) -> (Result<()>, Wave, Exports) {
    run_gfx_helpers(t, src, exec, 0, lds, param_bytes, ngg)
}

/// `run_gfx` with `helpers` as the wave's helper lanes, and 256 bytes of memory mapped at
/// 0x10000 (s[0:1] point there).
fn run_gfx_helpers(
    t: Target,
    src: &str,
    exec: u64,
    helpers: u64,
    lds: &[u32],
    param_bytes: u32,
    ngg: bool,
) -> (Result<()>, Wave, Exports) {
    let code = llvm_asm(t, src);
    let mut prog = Program::new(t, code, 0x7000_0000_0000);
    let mut w = Wave::new(t, 64, 10_000, Checks::default());
    for l in 0..t.wave.lanes() {
        w.regs.set_v(0, l, l).unwrap();
        w.regs
            .set_v(1, l, (l as f32 * 2.0 + 1.0).to_bits())
            .unwrap();
        w.regs.set_v(2, l, 0.25f32.to_bits()).unwrap();
        w.regs.set_v(3, l, (-3.0f32).to_bits()).unwrap();
    }
    w.regs.set_exec(exec);
    w.param_bytes = param_bytes;
    w.helpers = helpers;
    w.regs.set_s(0, 0x10000).unwrap();
    w.regs.set_s(1, 0).unwrap();
    let mut l = Lds::new(lds.len() * 4);
    for (i, v) in lds.iter().enumerate() {
        l.write_u32(4 * i as u32, *v);
    }
    let mut ex = Exports::new(ngg);
    let mut mem = Memory::new();
    mem.map(0x10000, 256);
    let mut spent = 0;
    let r = run_wave(
        &mut prog,
        &mut mem,
        &mut l,
        &mut w,
        &mut ex,
        Checks::default(),
        &mut spent,
        1_000_000,
    );
    (r, w, ex)
}

fn configs() -> Vec<Target> {
    vec![
        target(Gen::Gfx9, true),
        target(Gen::Gfx10, false),
        target(Gen::Gfx10, true),
        target(Gen::Gfx11, false),
        target(Gen::Gfx11, true),
    ]
}

fn mask(t: Target) -> u64 {
    if t.wave.lanes() == 64 {
        u64::MAX
    } else {
        0xffff_ffff
    }
}

#[test]
fn exp_records_target_flags_exec_and_lane_values() {
    if !llvm() {
        return;
    }
    for t in configs() {
        let vm = if t.gen == Gen::Gfx11 { "" } else { " vm" };
        let src = format!(
            "exp pos0 v0, v1, v2, v3 done\n\
             exp mrt1 v3, off, v1, v0{vm}\n\
             exp mrt0 v1, v1, v1, v1 done{vm}\n\
             s_endpgm\n"
        );
        let exec = 0x0f0f_00f5 & mask(t);
        let (r, _, ex) = run_gfx(t, &src, exec, &[], 0, false);
        r.unwrap_or_else(|e| panic!("{t:?}: {e}"));
        assert_eq!(ex.list.len(), 3, "{t:?}");
        let pos = &ex.list[0];
        assert_eq!(
            (pos.target, pos.en, pos.done, pos.exec),
            (Tgt::Pos(0), 0xf, true, exec)
        );
        assert_eq!(
            pos.data[2],
            [2, 5f32.to_bits(), 0.25f32.to_bits(), (-3f32).to_bits()]
        );
        // a lane outside EXEC records nothing
        assert_eq!(pos.data[1], [0; 4]);
        let m1 = &ex.list[1];
        assert_eq!(
            (m1.target, m1.en, m1.done, m1.vm),
            (Tgt::Mrt(1), 0b1101, false, t.gen != Gen::Gfx11)
        );
        assert_eq!(m1.data[4], [(-3f32).to_bits(), 0, 9f32.to_bits(), 4]);
        assert!(ex.pixel_done() && ex.pos_done(), "{t:?}");
    }
}

#[test]
fn param_and_compressed_exports_on_gfx9_and_gfx10() {
    if !llvm() {
        return;
    }
    for t in configs().into_iter().filter(|t| t.gen != Gen::Gfx11) {
        let src = "exp param5 v1, off, v2, off\n\
                   v_cvt_pkrtz_f16_f32 v4, v1, v2\n\
                   v_cvt_pkrtz_f16_f32 v5, v3, v2\n\
                   exp mrt0 v4, v4, v5, v5 done compr vm\n\
                   s_endpgm\n";
        let (r, _, ex) = run_gfx(t, src, mask(t), &[], 0, false);
        r.unwrap_or_else(|e| panic!("{t:?}: {e}"));
        assert_eq!((ex.list[0].target, ex.list[0].en), (Tgt::Param(5), 0b0101));
        assert_eq!(
            ex.list[0].data[3],
            [7f32.to_bits(), 0, 0.25f32.to_bits(), 0]
        );
        let c = &ex.list[1];
        assert!(c.compr && c.done && c.vm);
        // lane 0: (1.0, 0.25) and (-3.0, 0.25) as f16 pairs
        assert_eq!(c.data[0][0], 0x3400_3c00);
        assert_eq!(c.data[0][2], 0x3400_c200);
    }
}

#[test]
fn gfx11_packs_16_bit_exports_without_compr() {
    if !llvm() {
        return;
    }
    for t in configs().into_iter().filter(|t| t.gen == Gen::Gfx11) {
        let src = "v_cvt_pk_rtz_f16_f32 v4, v1, v2\n\
                   v_cvt_pk_rtz_f16_f32 v5, v3, v2\n\
                   exp mrt0 v4, v5, off, off done\n\
                   s_endpgm\n";
        let (r, _, ex) = run_gfx(t, src, mask(t), &[], 0, false);
        r.unwrap_or_else(|e| panic!("{t:?}: {e}"));
        let c = &ex.list[0];
        assert!(!c.compr && c.done && c.en == 0b0011);
        assert_eq!([c.data[0][0], c.data[0][1]], [0x3400_3c00, 0x3400_c200]);
    }
}

#[test]
fn an_export_source_overwritten_before_expcnt_is_reported() {
    if !llvm() {
        return;
    }
    for t in configs() {
        let bad = "exp mrt0 v1, v1, v1, v1 done\nv_mov_b32 v1, 0\ns_endpgm\n";
        let (r, _, _) = run_gfx(t, bad, mask(t), &[], 0, false);
        let e = r.expect_err("overwrite without expcnt");
        assert!(
            matches!(
                &e.kind,
                ErrorKind::MissingWait {
                    counter: "expcnt",
                    overwrite: true,
                    ..
                }
            ),
            "{t:?}: {e}"
        );
        let good = "exp mrt0 v1, v1, v1, v1 done\ns_waitcnt expcnt(0)\nv_mov_b32 v1, 0\ns_endpgm\n";
        let (r, _, _) = run_gfx(t, good, mask(t), &[], 0, false);
        r.unwrap_or_else(|e| panic!("{t:?}: {e}"));
        // reading an export source is fine
        let read = "exp mrt0 v1, v1, v1, v1 done\nv_mov_b32 v6, v1\ns_endpgm\n";
        let (r, _, _) = run_gfx(t, read, mask(t), &[], 0, false);
        r.unwrap_or_else(|e| panic!("{t:?}: {e}"));
    }
}

#[test]
fn exports_after_done_and_ngg_exports_before_gs_alloc_are_errors() {
    if !llvm() {
        return;
    }
    for t in configs() {
        let twice = "exp mrt0 v1, v1, v1, v1 done\nexp mrt1 v1, v1, v1, v1 done\ns_endpgm\n";
        let (r, _, _) = run_gfx(t, twice, mask(t), &[], 0, false);
        let e = r.expect_err("export after done");
        assert!(
            matches!(&e.kind, ErrorKind::Graphics(m) if m.contains("after the final")),
            "{t:?}: {e}"
        );
        if t.gen == Gen::Gfx9 {
            continue;
        }
        let early = "exp pos0 v1, v1, v1, v1 done\ns_endpgm\n";
        let (r, _, _) = run_gfx(t, early, mask(t), &[], 0, true);
        let e = r.expect_err("NGG pos before GS_ALLOC_REQ");
        assert!(
            matches!(&e.kind, ErrorKind::Graphics(m) if m.contains("GS_ALLOC_REQ")),
            "{t:?}: {e}"
        );
        // M0 = 3 vertices | 1 primitive << 12
        let ok = "s_mov_b32 m0, 0x1003\ns_nop 0\ns_sendmsg sendmsg(MSG_GS_ALLOC_REQ)\n\
                  exp prim v0, off, off, off done\nexp pos0 v1, v1, v1, v1 done\ns_endpgm\n";
        let (r, _, ex) = run_gfx(t, ok, mask(t), &[], 0, true);
        r.unwrap_or_else(|e| panic!("{t:?}: {e}"));
        assert_eq!(ex.gs_alloc(), Some((3, 1)));
        assert_eq!(ex.list[0].target, Tgt::Prim);
    }
}

#[test]
fn an_export_in_a_compute_dispatch_is_an_error() {
    if !llvm() {
        return;
    }
    let t = target(Gen::Gfx10, false);
    let code = llvm_asm(t, "exp mrt0 v0, v0, v0, v0 done vm\ns_endpgm\n");
    let mut mem = Memory::new();
    let e = run(t, code, 32, &[], &mut mem).expect_err("compute export");
    assert!(
        matches!(&e.kind, ErrorKind::Graphics(m) if m.contains("compute")),
        "{e}"
    );
}

/// Attribute block of two primitives with 2 attributes each: value of (prim, attr,
/// vector k = P0/P10/P20, channel c).
fn params(prim: u32, attr: u32, k: u32, c: u32) -> f32 {
    (prim * 100 + attr * 10 + c) as f32 + [0.5, 2.0, -4.0][k as usize]
}

fn param_lds() -> Vec<u32> {
    let mut v = Vec::new();
    for prim in 0..2 {
        for attr in 0..2 {
            for k in 0..3 {
                for c in 0..4 {
                    v.push(params(prim, attr, k, c).to_bits());
                }
            }
        }
    }
    v
}

/// Quad 0 and 1 belong to primitive 0, quads 2.. to primitive 1: new_prim_mask bit 2.
const M0: u32 = 1 << 2;

fn prim_of(lane: u32) -> u32 {
    (lane / 4 >= 2) as u32
}

#[test]
fn vintrp_interpolates_each_lane_with_its_primitive_on_gfx9_and_gfx10() {
    if !llvm() {
        return;
    }
    for t in configs().into_iter().filter(|t| t.gen != Gen::Gfx11) {
        let src = format!(
            "s_mov_b32 m0, {M0}\n\
             s_nop 0\n\
             v_mov_b32 v6, v2\n\
             v_interp_p1_f32_e32 v6, v1, attr1.y\n\
             v_interp_p2_f32_e32 v6, v3, attr1.y\n\
             v_interp_mov_f32_e32 v7, p0, attr0.w\n\
             v_interp_mov_f32_e32 v8, p10, attr1.x\n\
             v_interp_mov_f32_e32 v9, p20, attr0.z\n\
             s_endpgm\n"
        );
        let (r, w, _) = run_gfx(t, &src, mask(t), &param_lds(), 2 * 48, false);
        r.unwrap_or_else(|e| panic!("{t:?}: {e}"));
        for l in 0..t.wave.lanes() {
            let p = prim_of(l);
            let i = l as f32 * 2.0 + 1.0;
            let want =
                params(p, 1, 2, 1).mul_add(-3.0, params(p, 1, 1, 1).mul_add(i, params(p, 1, 0, 1)));
            assert_eq!(w.regs.v(6, l), want.to_bits(), "{t:?} lane {l}");
            assert_eq!(w.regs.v(7, l), params(p, 0, 0, 3).to_bits());
            assert_eq!(w.regs.v(8, l), params(p, 1, 1, 0).to_bits());
            assert_eq!(w.regs.v(9, l), params(p, 0, 2, 2).to_bits());
        }
    }
}

#[test]
fn gfx9_needs_a_wait_state_between_an_m0_write_and_v_interp() {
    if !llvm() {
        return;
    }
    let t = target(Gen::Gfx9, true);
    let src = format!("s_mov_b32 m0, {M0}\nv_interp_p1_f32_e32 v6, v1, attr1.y\ns_endpgm\n");
    let (r, _, _) = run_gfx(t, &src, u64::MAX, &param_lds(), 96, false);
    let e = r.expect_err("M0 hazard");
    assert!(
        matches!(&e.kind, ErrorKind::Hazard { name, .. } if name.contains("Interp")),
        "{e}"
    );
}

#[test]
fn interpolation_outside_a_pixel_wave_is_an_error() {
    if !llvm() {
        return;
    }
    let t = target(Gen::Gfx10, false);
    let src = format!("s_mov_b32 m0, {M0}\nv_interp_p1_f32_e32 v6, v1, attr1.y\ns_endpgm\n");
    let (r, _, _) = run_gfx(t, &src, u64::MAX, &param_lds(), 0, false);
    let e = r.expect_err("no attribute data");
    assert!(
        matches!(&e.kind, ErrorKind::Graphics(m) if m.contains("not a pixel wave")),
        "{e}"
    );
}

#[test]
fn gfx11_lds_param_load_and_vinterp_interpolate_per_quad() {
    if !llvm() {
        return;
    }
    for t in configs().into_iter().filter(|t| t.gen == Gen::Gfx11) {
        let src = format!(
            "s_mov_b32 m0, {M0}\n\
             lds_param_load v10, attr1.y wait_vdst:0\n\
             lds_param_load v11, attr0.w wait_vdst:0\n\
             v_interp_p10_f32 v12, v10, v1, v10 wait_exp:1\n\
             v_interp_p2_f32 v12, v10, v3, v12 wait_exp:1\n\
             v_interp_p10_f32 v13, v11, v2, v11 wait_exp:0\n\
             s_endpgm\n"
        );
        let (r, w, _) = run_gfx(t, &src, mask(t), &param_lds(), 96, false);
        r.unwrap_or_else(|e| panic!("{t:?}: {e}"));
        for l in 0..t.wave.lanes() {
            let p = prim_of(l);
            // lds_param_load: P0, P10, P20, 0 across the quad
            let loaded = match l % 4 {
                3 => 0,
                k => params(p, 1, k, 1).to_bits(),
            };
            assert_eq!(w.regs.v(10, l), loaded, "{t:?} lane {l}");
            let i = l as f32 * 2.0 + 1.0;
            let want =
                params(p, 1, 2, 1).mul_add(-3.0, params(p, 1, 1, 1).mul_add(i, params(p, 1, 0, 1)));
            assert_eq!(w.regs.v(12, l), want.to_bits(), "{t:?} lane {l}");
            let want = params(p, 0, 1, 3).mul_add(0.25, params(p, 0, 0, 3));
            assert_eq!(w.regs.v(13, l), want.to_bits());
        }
    }
}

#[test]
fn gfx11_vinterp_without_wait_exp_or_wqm_is_reported() {
    if !llvm() {
        return;
    }
    let t = target(Gen::Gfx11, false);
    // wait_exp:7 leaves the lds_param_load outstanding
    let src = format!(
        "s_mov_b32 m0, {M0}\nlds_param_load v10, attr1.y wait_vdst:0\n\
         v_interp_p10_f32 v12, v10, v1, v10 wait_exp:7\ns_endpgm\n"
    );
    let (r, _, _) = run_gfx(t, &src, u64::MAX, &param_lds(), 96, false);
    let e = r.expect_err("missing wait_exp");
    assert!(
        matches!(
            &e.kind,
            ErrorKind::MissingWait {
                counter: "expcnt",
                ..
            }
        ),
        "{e}"
    );
    // lds_param_load with only lane 0 of each quad live leaves P10 unloaded: WQM needed
    let src = format!(
        "s_mov_b32 m0, {M0}\nlds_param_load v10, attr1.y wait_vdst:0\n\
         v_interp_p10_f32 v12, v10, v1, v10 wait_exp:0\ns_endpgm\n"
    );
    let (r, _, _) = run_gfx(t, &src, 0x1111_1111, &param_lds(), 96, false);
    let e = r.expect_err("no WQM");
    assert!(
        matches!(&e.kind, ErrorKind::UninitRead { reg, .. } if reg == "v10"),
        "{e}"
    );
    // with s_wqm the quads are whole again
    let src = format!(
        "s_mov_b32 m0, {M0}\ns_mov_b32 s20, exec_lo\ns_wqm_b32 exec_lo, exec_lo\n\
         lds_param_load v10, attr1.y wait_vdst:0\ns_mov_b32 exec_lo, s20\n\
         v_interp_p10_f32 v12, v10, v1, v10 wait_exp:0\ns_endpgm\n"
    );
    let (r, _, _) = run_gfx(t, &src, 0x1111_1111, &param_lds(), 96, false);
    r.unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn a_memory_store_from_a_helper_lane_is_an_error() {
    if !llvm() {
        return;
    }
    for t in configs() {
        let store = if t.gen == Gen::Gfx11 {
            "global_store_b32 v4, v0, s[0:1]"
        } else {
            "global_store_dword v4, v0, s[0:1]"
        };
        // lane 5 is a helper: storing from it is the WQM pass's mistake
        let src = format!("v_lshlrev_b32_e32 v4, 2, v0\n{store}\ns_endpgm\n");
        let (r, _, _) = run_gfx_helpers(t, &src, 0xff, 1 << 5, &[], 0, false);
        let e = r.expect_err("helper store");
        assert!(
            matches!(&e.kind, ErrorKind::Graphics(m) if m.contains("helper lanes 0x20")),
            "{t:?}: {e}"
        );
        // in exact mode (EXEC without the helper) the store runs
        let (r, _, _) = run_gfx_helpers(t, &src, 0xdf, 1 << 5, &[], 0, false);
        r.unwrap_or_else(|e| panic!("{t:?}: {e}"));
    }
}
