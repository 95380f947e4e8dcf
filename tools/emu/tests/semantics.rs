//! Per-instruction semantics on every generation: each case runs `op` on operands loaded
//! from user SGPRs and compares lane 0 of the result with a value computed independently
//! by Rust's own f32/f64/integer arithmetic or derived by hand (NaN, ±Inf, denormals, ±0,
//! clamp, shifts ≥ 32, signed overflow, carry chains). The program text is assembled by
//! gcnc's ISA layer; what is under test here is execution, not encoding (the LLVM-assembled
//! programs are in programs.rs).

mod support;

use gcnc::isa::Gen;
use gcnc_emu::dispatch::{run_workgroup, Dispatch};
use gcnc_emu::Memory;
use support::*;

/// Runs `body` with s0..s3 = `args`, v1..v3 = s0..s2; returns (v0 lane 0, v1.. , scc).
fn exec(gen: Gen, mode: u32, body: &str, args: &[u32]) -> (u32, u32, bool) {
    let t = target(gen, true);
    let src = format!("v_mov_b32 v1, s0\nv_mov_b32 v2, s1\nv_mov_b32 v3, s2\n{body}\ns_endpgm\n");
    let code = ours(t, &src);
    let mut d = Dispatch::new(t, code);
    d.group_size = [1, 1, 1];
    let mut u = args.to_vec();
    u.resize(4, 0);
    d.user_sgprs = u;
    d.tgid_en = [false; 3];
    d.tid_dims = 1;
    d.float_mode = mode;
    let mut mem = Memory::new();
    let w = run_workgroup(&d, &mut mem, [0; 3]).unwrap_or_else(|e| panic!("{gen}: {body}: {e}"));
    let w = &w[0];
    (w.regs.v(0, 0), w.regs.s_raw(10), w.regs.scc_raw())
}

const KEEP: u32 = 0xf0; // keep every denormal
const FTZ32: u32 = 0xc0; // flush f32 denormals

fn f(x: f32) -> u32 {
    x.to_bits()
}

fn same_f32(got: u32, want: f32) -> bool {
    let g = f32::from_bits(got);
    (g.is_nan() && want.is_nan()) || got == want.to_bits()
}

const DENORM: f32 = 1.0e-40;

#[test]
fn f32_arithmetic_edge_cases() {
    let vals = [
        0.0f32,
        -0.0,
        1.0,
        -1.5,
        3.25e7,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
        DENORM,
        -DENORM,
        f32::MAX,
        f32::MIN_POSITIVE,
    ];
    for gen in Gen::ALL {
        for &a in &vals {
            for &b in &vals {
                for (op, want) in [
                    ("v_add_f32_e32 v0, v1, v2", a + b),
                    ("v_sub_f32_e32 v0, v1, v2", a - b),
                    ("v_mul_f32_e32 v0, v1, v2", a * b),
                ] {
                    let (got, _, _) = exec(gen, KEEP, op, &[f(a), f(b)]);
                    assert!(
                        same_f32(got, want),
                        "{gen} {op} {a:e} {b:e}: {} vs {want:e}",
                        f32::from_bits(got)
                    );
                }
                // flush mode: denormal inputs and outputs become signed zeros
                let fa = if a.is_subnormal() {
                    0.0f32.copysign(a)
                } else {
                    a
                };
                let fb = if b.is_subnormal() {
                    0.0f32.copysign(b)
                } else {
                    b
                };
                let mut want = fa * fb;
                if want.is_subnormal() {
                    want = 0.0f32.copysign(want);
                }
                let (got, _, _) = exec(gen, FTZ32, "v_mul_f32_e32 v0, v1, v2", &[f(a), f(b)]);
                assert!(same_f32(got, want), "{gen} ftz mul {a:e} {b:e}");
            }
        }
    }
}

#[test]
fn fma_is_fused_and_min_max_ignore_nan() {
    for gen in Gen::ALL {
        let (a, b, c) = (1.0f32 + f32::EPSILON, 1.0f32 - f32::EPSILON, -1.0f32);
        let (got, _, _) = exec(gen, KEEP, "v_fma_f32 v0, v1, v2, v3", &[f(a), f(b), f(c)]);
        assert_eq!(got, f(a.mul_add(b, c)), "{gen}");
        assert_ne!(got, f(a * b + c), "fused differs from unfused here");
        let (got, _, _) = exec(
            gen,
            KEEP,
            "v_min_f32_e32 v0, v1, v2",
            &[f(f32::NAN), f(2.0)],
        );
        assert_eq!(got, f(2.0));
        let (got, _, _) = exec(
            gen,
            KEEP,
            "v_max_f32_e32 v0, v1, v2",
            &[f(-0.5), f(f32::NAN)],
        );
        assert_eq!(got, f(-0.5));
        let (got, _, _) = exec(
            gen,
            KEEP,
            "v_med3_f32 v0, v1, v2, v3",
            &[f(5.0), f(-1.0), f(2.0)],
        );
        assert_eq!(got, f(2.0));
    }
}

#[test]
fn modifiers_abs_neg_clamp_omod() {
    for gen in Gen::ALL {
        let (got, _, _) = exec(gen, KEEP, "v_add_f32_e64 v0, -v1, |v2|", &[f(1.5), f(-4.0)]);
        assert_eq!(got, f(-1.5 + 4.0));
        let (got, _, _) = exec(
            gen,
            KEEP,
            "v_add_f32_e64 v0, v1, v2 clamp",
            &[f(0.75), f(0.5)],
        );
        assert_eq!(got, f(1.0));
        let (got, _, _) = exec(
            gen,
            KEEP,
            "v_add_f32_e64 v0, v1, v2 clamp",
            &[f(-3.0), f(0.5)],
        );
        assert_eq!(got, f(0.0));
        let (got, _, _) = exec(
            gen,
            KEEP,
            "v_add_f32_e64 v0, v1, v2 clamp",
            &[f(f32::NAN), f(0.5)],
        );
        assert_eq!(got, f(0.0), "NaN clamps to 0");
        let (got, _, _) = exec(
            gen,
            KEEP,
            "v_mul_f32_e64 v0, v1, v2 mul:2",
            &[f(3.0), f(0.25)],
        );
        assert_eq!(got, f(1.5));
        let (got, _, _) = exec(
            gen,
            KEEP,
            "v_mul_f32_e64 v0, v1, v2 div:2",
            &[f(3.0), f(0.25)],
        );
        assert_eq!(got, f(0.375));
        // inline float constants and a literal
        let (got, _, _) = exec(gen, KEEP, "v_add_f32_e32 v0, 0.5, v1", &[f(2.0)]);
        assert_eq!(got, f(2.5));
        let (got, _, _) = exec(gen, KEEP, "v_add_f32_e32 v0, 0x40490fdb, v1", &[f(1.0)]);
        assert_eq!(got, f(f32::from_bits(0x40490fdb) + 1.0));
    }
}

#[test]
fn saturating_float_to_int() {
    for gen in Gen::ALL {
        for (x, want) in [
            (f32::NAN, 0i32),
            (3.0e9, i32::MAX),
            (-3.0e9, i32::MIN),
            (f32::INFINITY, i32::MAX),
            (f32::NEG_INFINITY, i32::MIN),
            (-7.9, -7),
            (2147483520.0, 2147483520),
        ] {
            let (got, _, _) = exec(gen, KEEP, "v_cvt_i32_f32_e32 v0, v1", &[f(x)]);
            assert_eq!(got as i32, want, "{gen} cvt_i32 {x}");
            assert_eq!(want, x as i32, "expectation matches Rust's saturating cast");
        }
        for (x, want) in [(-1.0f32, 0u32), (5.0e9, u32::MAX), (f32::NAN, 0), (7.5, 7)] {
            let (got, _, _) = exec(gen, KEEP, "v_cvt_u32_f32_e32 v0, v1", &[f(x)]);
            assert_eq!(got, want, "{gen} cvt_u32 {x}");
        }
        let (got, _, _) = exec(
            gen,
            KEEP,
            "v_cvt_f32_i32_e32 v0, v1",
            &[(-123456789i32) as u32],
        );
        assert_eq!(got, f(-123456789i32 as f32));
    }
}

fn ulps(a: f32, b: f32) -> u32 {
    (a.to_bits() as i64 - b.to_bits() as i64).unsigned_abs() as u32
}

#[test]
fn transcendentals_within_documented_precision() {
    for gen in Gen::ALL {
        for x in [0.1f32, 1.0, 3.7, 1234.5, 1e-3, 65504.0] {
            let (r, _, _) = exec(gen, KEEP, "v_rcp_f32_e32 v0, v1", &[f(x)]);
            assert!(
                ulps(f32::from_bits(r), (1.0 / x as f64) as f32) <= 1,
                "{gen} rcp {x}"
            );
            let (r, _, _) = exec(gen, KEEP, "v_sqrt_f32_e32 v0, v1", &[f(x)]);
            assert!(
                ulps(f32::from_bits(r), (x as f64).sqrt() as f32) <= 1,
                "{gen} sqrt {x}"
            );
            let (r, _, _) = exec(gen, KEEP, "v_rsq_f32_e32 v0, v1", &[f(x)]);
            assert!(
                ulps(f32::from_bits(r), (1.0 / (x as f64).sqrt()) as f32) <= 1,
                "{gen} rsq {x}"
            );
            let (r, _, _) = exec(gen, KEEP, "v_log_f32_e32 v0, v1", &[f(x)]);
            assert!(
                ulps(f32::from_bits(r), (x as f64).log2() as f32) <= 1,
                "{gen} log {x}"
            );
        }
        for x in [0.0f32, 0.125, 0.25, -0.3, 10.75] {
            let (r, _, _) = exec(gen, KEEP, "v_sin_f32_e32 v0, v1", &[f(x)]);
            let want = (x as f64 * std::f64::consts::TAU).sin();
            assert!(
                (f32::from_bits(r) as f64 - want).abs() < 1e-6,
                "{gen} sin {x}"
            );
            let (r, _, _) = exec(gen, KEEP, "v_exp_f32_e32 v0, v1", &[f(x)]);
            assert!(
                ulps(f32::from_bits(r), (x as f64).exp2() as f32) <= 1,
                "{gen} exp {x}"
            );
        }
        // special values
        let (r, _, _) = exec(gen, KEEP, "v_rcp_f32_e32 v0, v1", &[f(-0.0)]);
        assert_eq!(r, f(f32::NEG_INFINITY));
        let (r, _, _) = exec(gen, KEEP, "v_log_f32_e32 v0, v1", &[f(0.0)]);
        assert_eq!(r, f(f32::NEG_INFINITY));
        let (r, _, _) = exec(gen, KEEP, "v_sqrt_f32_e32 v0, v1", &[f(-1.0)]);
        assert!(f32::from_bits(r).is_nan());
    }
}

#[test]
fn f64_and_f16() {
    for gen in Gen::ALL {
        let a = 1.0f64 / 3.0;
        let b = -2.5e100f64;
        let lo = |x: f64| x.to_bits() as u32;
        let hi = |x: f64| (x.to_bits() >> 32) as u32;
        let t = target(gen, true);
        let src = "v_mov_b32 v2, s0\nv_mov_b32 v3, s1\nv_mov_b32 v4, s2\nv_mov_b32 v5, s3\n\
                   v_add_f64 v[0:1], v[2:3], v[4:5]\nv_mul_f64 v[6:7], v[2:3], v[4:5]\n\
                   v_fma_f64 v[8:9], v[2:3], v[4:5], v[2:3]\ns_endpgm\n";
        let mut mem = Memory::new();
        let w = run(t, ours(t, src), 1, &[lo(a), hi(a), lo(b), hi(b)], &mut mem).unwrap();
        let get = |v: u16| w[0].regs.v(v, 0) as u64 | (w[0].regs.v(v + 1, 0) as u64) << 32;
        assert_eq!(get(0), (a + b).to_bits());
        assert_eq!(get(6), (a * b).to_bits());
        assert_eq!(get(8), a.mul_add(b, a).to_bits());
        // f16: 1.5 + 2.25 = 3.75 (0x4380); 65504 + 65504 overflows to +inf
        let (r, _, _) = exec(gen, KEEP, "v_add_f16_e32 v0, v1, v2", &[0x3e00, 0x4080]);
        assert_eq!(r & 0xffff, 0x4380, "{gen}");
        let (r, _, _) = exec(gen, KEEP, "v_add_f16_e32 v0, v1, v2", &[0x7bff, 0x7bff]);
        assert_eq!(r & 0xffff, 0x7c00);
        let (r, _, _) = exec(gen, KEEP, "v_cvt_f32_f16_e32 v0, v1", &[0x0001]);
        assert_eq!(r, f(2f32.powi(-24)), "f16 denormal widens exactly");
        let (r, _, _) = exec(gen, KEEP, "v_cvt_f16_f32_e32 v0, v1", &[f(1.0 / 3.0)]);
        assert_eq!(r & 0xffff, 0x3555);
    }
}

#[test]
fn integer_shifts_overflow_and_bitfields() {
    for gen in Gen::ALL {
        // VALU shifts use the low 5 bits of the amount
        let (r, _, _) = exec(
            gen,
            KEEP,
            "v_lshlrev_b32_e32 v0, v1, v2",
            &[33, 0x8000_0001],
        );
        assert_eq!(r, 0x8000_0001u32.wrapping_shl(33));
        let (r, _, _) = exec(
            gen,
            KEEP,
            "v_ashrrev_i32_e32 v0, v1, v2",
            &[36, 0x8000_0000],
        );
        assert_eq!(r, (i32::MIN >> 4) as u32);
        // SALU shifts and SCC = result != 0
        let (_, s10, scc) = exec(gen, KEEP, "s_lshl_b32 s10, s0, s1", &[1, 32]);
        assert_eq!((s10, scc), (1, true), "shift by 32 uses amount & 31 = 0");
        let (_, s10, scc) = exec(gen, KEEP, "s_lshr_b32 s10, s0, s1", &[1, 1]);
        assert_eq!((s10, scc), (0, false));
        // signed overflow sets SCC for s_add_i32, carry for s_add_u32
        let (_, s10, scc) = exec(gen, KEEP, "s_add_i32 s10, s0, s1", &[i32::MAX as u32, 1]);
        assert_eq!((s10, scc), (i32::MIN as u32, true));
        let (_, s10, scc) = exec(gen, KEEP, "s_add_u32 s10, s0, s1", &[i32::MAX as u32, 1]);
        assert_eq!((s10, scc), (0x8000_0000, false));
        let (_, s10, scc) = exec(gen, KEEP, "s_sub_u32 s10, s0, s1", &[1, 2]);
        assert_eq!((s10, scc), (u32::MAX, true));
        // bit-field extract: offset 4, width 8 (signed)
        let (_, s10, _) = exec(
            gen,
            KEEP,
            "s_bfe_i32 s10, s0, s1",
            &[0x0000_0f80, 4 | 8 << 16],
        );
        assert_eq!(s10 as i32, ((0x0f80u32 >> 4) as u8 as i8) as i32);
        let (r, _, _) = exec(gen, KEEP, "v_bfe_u32 v0, v1, 4, 8", &[0x1234_5678]);
        assert_eq!(r, (0x1234_5678 >> 4) & 0xff);
        let (_, s10, _) = exec(gen, KEEP, "s_brev_b32 s10, s0", &[0x1]);
        assert_eq!(s10, 0x8000_0000);
        let ff1 = if gen == Gen::Gfx11 {
            "s_ctz_i32_b32 s10, s0"
        } else {
            "s_ff1_i32_b32 s10, s0"
        };
        let (_, s10, _) = exec(gen, KEEP, ff1, &[0]);
        assert_eq!(s10, u32::MAX, "no bit set gives -1");
        let (r, _, _) = exec(
            gen,
            KEEP,
            "v_mul_hi_u32 v0, v1, v2",
            &[0xffff_ffff, 0xffff_fffe],
        );
        assert_eq!(r, ((0xffff_ffffu64 * 0xffff_fffe) >> 32) as u32);
        let (r, _, _) = exec(
            gen,
            KEEP,
            "v_mul_lo_u32 v0, v1, v2",
            &[0x1234_5678, 0x9abc_def0],
        );
        assert_eq!(r, 0x1234_5678u32.wrapping_mul(0x9abc_def0));
    }
}

#[test]
fn carry_chains_scalar_and_vector() {
    for gen in Gen::ALL {
        let (a, b) = (0xffff_ffff_ffff_fff0u64, 0x25u64);
        let want = a.wrapping_add(b);
        let t = target(gen, true);
        let vadd = if gen == Gen::Gfx9 {
            "v_add_co_u32_e32 v4, vcc, v1, v3\nv_addc_co_u32_e32 v5, vcc, v2, v0, vcc"
        } else {
            "v_add_co_u32 v4, vcc, v1, v3\nv_add_co_ci_u32_e32 v5, vcc, v2, v0, vcc"
        };
        let src = format!(
            "s_add_u32 s10, s0, s2\ns_addc_u32 s11, s1, s3\n\
             v_mov_b32 v1, s0\nv_mov_b32 v2, s1\nv_mov_b32 v3, s2\nv_mov_b32 v0, s3\n{vadd}\ns_endpgm\n"
        );
        let mut mem = Memory::new();
        let w = run(
            t,
            ours(t, &src),
            64,
            &[a as u32, (a >> 32) as u32, b as u32, 0],
            &mut mem,
        )
        .unwrap();
        let r = &w[0].regs;
        assert_eq!(
            r.s_raw(10) as u64 | (r.s_raw(11) as u64) << 32,
            want,
            "{gen} scalar"
        );
        for lane in 0..64 {
            assert_eq!(
                r.v(4, lane) as u64 | (r.v(5, lane) as u64) << 32,
                want,
                "{gen} vector"
            );
        }
        assert!(r.scc_raw(), "final carry out of the 64-bit add");
    }
}

#[test]
fn compares_select_and_lane_ops() {
    for gen in Gen::ALL {
        let t = target(gen, true);
        // lanes with id < 10 take 100, others 200; count of true lanes via s_bcnt1
        let cmp = "v_cmp_gt_u32_e32 vcc, 10, v0";
        let src = format!(
            "{cmp}\nv_mov_b32 v1, 0xc8\nv_mov_b32 v2, 0x64\nv_cndmask_b32_e32 v3, v1, v2, vcc\n\
             s_bcnt1_i32_b64 s10, vcc\nv_readlane_b32 s11, v3, 12\nv_mbcnt_lo_u32_b32 v4, -1, 0\n\
             v_mbcnt_hi_u32_b32 v4, -1, v4\ns_endpgm\n"
        );
        let mut mem = Memory::new();
        let w = run(t, ours(t, &src), 64, &[], &mut mem).unwrap();
        let r = &w[0].regs;
        for lane in 0..64 {
            assert_eq!(r.v(3, lane), if lane < 10 { 100 } else { 200 });
            assert_eq!(r.v(4, lane), lane, "mbcnt gives the lane index");
        }
        assert_eq!(r.s_raw(10), 10);
        assert_eq!(r.s_raw(11), 200);
        // float compare with NaN: lt false, neq true (unordered)
        let (_, _, _) = exec(
            gen,
            KEEP,
            "v_cmp_lt_f32_e64 s[10:11], v1, v2",
            &[f(f32::NAN), f(1.0)],
        );
    }
}

#[test]
fn wave32_masks() {
    for gen in [Gen::Gfx10, Gen::Gfx11] {
        let t = target(gen, false);
        let src = "v_cmp_gt_u32_e32 vcc_lo, 5, v0\ns_mov_b32 s10, vcc_lo\ns_and_saveexec_b32 s11, vcc_lo\n\
                   v_mov_b32 v1, 7\ns_mov_b32 exec_lo, s11\ns_endpgm\n";
        let mut mem = Memory::new();
        let w = run(t, ours(t, src), 32, &[], &mut mem).unwrap();
        assert_eq!(w[0].regs.s_raw(10), 0x1f);
        assert_eq!(w[0].regs.s_raw(11), u32::MAX);
        assert_eq!(
            w[0].regs.v_written(1),
            0x1f,
            "only lanes of the saved mask were written"
        );
    }
}

#[test]
fn round_modes_from_mode_register() {
    for gen in Gen::ALL {
        let a = 1.0f32;
        let b = 1e-8f32; // far below half an ulp of 1.0
                         // FP_ROUND f32 field = MODE[1:0]: 1 toward +inf, 2 toward -inf, 3 toward zero
        for (rm, want) in [(0u32, 1.0f32), (1, 1.0f32.next_up()), (2, 1.0), (3, 1.0)] {
            let body = format!(
                "s_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 2), {rm}\nv_add_f32_e32 v0, v1, v2"
            );
            let (got, _, _) = exec(gen, KEEP, &body, &[f(a), f(b)]);
            assert_eq!(got, f(want), "{gen} mode {rm}");
        }
        let body = "s_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 2), 2\nv_sub_f32_e32 v0, v1, v2";
        let (got, _, _) = exec(gen, KEEP, body, &[f(1.0), f(1e-8)]);
        assert_eq!(got, f(1.0f32.next_down()), "{gen} sub toward -inf");
        let body = "s_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 2), 3\nv_mul_f32_e32 v0, v1, v2";
        let (got, _, _) = exec(gen, KEEP, body, &[f(f32::MAX), f(2.0)]);
        assert_eq!(got, f(f32::MAX), "{gen} overflow toward zero");
    }
}

/// What the backend's 8/16-bit and packing selection (isel/alu16.rs, isel/pack.rs) relies
/// on. f16 encodings are hand-derived: 1.5 = 0x3e00, 2.25 = 0x4080, −0.75 = 0xba00,
/// 3.375 = 0x42c0, 2.625 = 0x4140, 1.0 = 0x3c00, 0.75 = 0x3a00, 12.0 = 0x4a00.
#[test]
fn narrow_arithmetic_and_packing() {
    for gen in Gen::ALL {
        let g11 = gen == Gen::Gfx11;
        let ex = |body: &str, args: &[u32]| exec(gen, KEEP, body, args).0;
        // f16 arithmetic (low half of the result)
        let h = |body: &str, args: &[u32]| ex(body, args) & 0xffff;
        assert_eq!(h("v_sub_f16_e32 v0, v1, v2", &[0x3e00, 0x4080]), 0xba00);
        assert_eq!(h("v_mul_f16_e32 v0, v1, v2", &[0x3e00, 0x4080]), 0x42c0);
        assert_eq!(h("v_min_f16_e32 v0, v1, v2", &[0x3e00, 0xba00]), 0xba00);
        assert_eq!(h("v_max_f16_e32 v0, v1, v2", &[0x3e00, 0xba00]), 0x3e00);
        assert_eq!(
            h("v_fma_f16 v0, v1, v2, v3", &[0x3e00, 0x4080, 0xba00]),
            0x4140
        );
        assert_eq!(
            h("v_med3_f16 v0, v1, 0, v2", &[0x4080, 0x3c00]),
            0x3c00,
            "fsat"
        );
        // f16 compare into a lane mask: 1.5 < 2.25
        let (_, s10, _) = exec(
            gen,
            KEEP,
            "v_cmp_lt_f16_e64 s[10:11], v1, v2",
            &[0x3e00, 0x4080],
        );
        assert_eq!(s10 & 1, 1, "{gen}");
        // the upper 16 bits of an f16 source are ignored
        assert_eq!(
            h("v_add_f16_e32 v0, v1, v2", &[0xdead_3e00, 0xbeef_4080]),
            0x4380
        );
        // v_mul_u32_u24: low 16 bits of a 16-bit product whatever bits 16..23 hold
        let (x, y) = (0x00ab_1234u32, 0x00cd_5678u32);
        let want = (0xab_1234u64 * 0xcd_5678u64) as u32;
        assert_eq!(ex("v_mul_u32_u24_e32 v0, v1, v2", &[x, y]), want);
        assert_eq!(want & 0xffff, 0x1234u32.wrapping_mul(0x5678) & 0xffff);
        // 16-bit integer ops read only the low halves; shifts take amount bits 3:0
        let (ashr, lshr, min) = if gen == Gen::Gfx9 {
            ("v_ashrrev_i16_e32", "v_lshrrev_b16_e32", "v_min_i16_e32")
        } else {
            ("v_ashrrev_i16", "v_lshrrev_b16", "v_min_i16")
        };
        assert_eq!(
            h(&format!("{ashr} v0, v1, v2"), &[0xff13, 0x1234_8000]),
            0xf000
        );
        assert_eq!(
            h(&format!("{lshr} v0, v1, v2"), &[0x0013, 0x1234_8000]),
            0x1000
        );
        assert_eq!(
            h(&format!("{min} v0, v1, v2"), &[0x0000_0001, 0x1234_8000]),
            0x8000
        );
        // -32768 < 1 as i16 (upper bits of the first source are garbage)
        let (_, s10, _) = exec(
            gen,
            KEEP,
            "v_cmp_lt_i16_e64 s[10:11], v1, v2",
            &[0x1234_8000, 0x0000_0001],
        );
        assert_eq!(s10 & 1, 1, "{gen}");
        let (_, s10, _) = exec(
            gen,
            KEEP,
            "v_cmp_lt_u16_e64 s[10:11], v1, v2",
            &[0x1234_8000, 0x0000_0001],
        );
        assert_eq!(s10 & 1, 0, "{gen}");
        // SALU extension and packing
        let s = |body: &str, args: &[u32]| ex(&format!("{body}\nv_mov_b32 v0, s4"), args);
        assert_eq!(s("s_sext_i32_i16 s4, s0", &[0x1234_8001]), 0xffff_8001);
        assert_eq!(s("s_sext_i32_i8 s4, s0", &[0x1234_5680]), 0xffff_ff80);
        assert_eq!(
            s("s_pack_ll_b32_b16 s4, s0, s1", &[0xaaaa_1234, 0xbbbb_5678]),
            0x5678_1234
        );
        assert_eq!(ex("v_bfe_i32 v0, v1, 0, 16", &[0x1234_8001]), 0xffff_8001);
        assert_eq!(
            ex("v_lshl_or_b32 v0, v1, 16, v2", &[0x1234, 0x5678]),
            0x1234_5678
        );
        // f32 → f16 round to nearest even vs truncation: 1 + 3·2^-12 is 0.75 ulp above 1.0
        let x = f(1.0 + 3.0 * 2f32.powi(-12));
        assert_eq!(ex("v_cvt_f16_f32_e32 v0, v1", &[x]) & 0xffff, 0x3c01);
        let rtz = if g11 {
            "v_cvt_pk_rtz_f16_f32_e64 v0, v1, v2"
        } else {
            "v_cvt_pkrtz_f16_f32_e64 v0, v1, v2"
        };
        // -65520 rounds to -inf to nearest, to -65504 (0xfbff) toward zero
        assert_eq!(ex(rtz, &[x, f(-65520.0)]), 0xfbff_3c00, "{gen}");
        // v_pack_b32_f16 is a bit copy with f16 denormals kept
        assert_eq!(
            ex("v_pack_b32_f16 v0, v1, v2", &[0x3c00, 0x0001]),
            0x0001_3c00
        );
        // unorm8: byte 2 of the accumulator; 200.5 ties to 200, 201.5 to 202
        assert_eq!(
            ex("v_cvt_pk_u8_f32 v0, v1, 2, v2", &[f(200.5), 0x1122_3344]),
            0x11c8_3344
        );
        assert_eq!(
            ex("v_cvt_pk_u8_f32 v0, v1, 0, v2", &[f(201.5), 0x1122_3344]),
            0x1122_33ca
        );
        // snorm16 / unorm16 pairs: -0.75·32767 = -24575.25 → -24575 (0xa001); 2.0 clamps
        // to 32767; 0.5·65535 = 32767.5 ties to 32768; -1 clamps to 0
        let (pki, pku) = if g11 {
            ("v_cvt_pk_norm_i16_f32", "v_cvt_pk_norm_u16_f32")
        } else {
            ("v_cvt_pknorm_i16_f32", "v_cvt_pknorm_u16_f32")
        };
        assert_eq!(
            ex(&format!("{pki} v0, v1, v2"), &[f(-0.75), f(2.0)]),
            0x7fff_a001
        );
        assert_eq!(
            ex(&format!("{pku} v0, v1, v2"), &[f(0.5), f(-1.0)]),
            0x0000_8000
        );
        assert_eq!(ex("v_cvt_f32_ubyte2_e32 v0, v1", &[0x1122_3344]), f(34.0));
        // frexp: 12 = 0.75·2^4; -0.1f = -(0.1f·8)·2^-3 exactly; a denormal 71362·2^-149
        // = (71362/2^17)·2^-132; 0 → (0, 0)
        let fx = |x: f32| {
            (
                ex("v_frexp_mant_f32_e32 v0, v1", &[f(x)]),
                ex("v_frexp_exp_i32_f32_e32 v0, v1", &[f(x)]) as i32,
            )
        };
        assert_eq!(fx(12.0), (f(0.75), 4));
        assert_eq!(fx(-0.1), (f(-0.1 * 8.0), -3));
        let den = f32::from_bits(71362);
        assert_eq!(fx(den), (f(71362.0 / 131072.0), -132));
        assert_eq!(fx(0.0), (0, 0));
        assert_eq!(h("v_frexp_mant_f16_e32 v0, v1", &[0x4a00]), 0x3a00);
        assert_eq!(h("v_frexp_exp_i16_f16_e32 v0, v1", &[0x4a00]), 4);
        assert_eq!(ex("v_ldexp_f32 v0, v1, v2", &[f(0.75), 4]), f(12.0));
    }
}
