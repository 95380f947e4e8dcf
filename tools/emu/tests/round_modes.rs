//! MODE.FP_ROUND for every rounding f32/f64/f16 ALU operation, on every generation: each
//! case's expected bits are derived by hand (a value between two neighbours of the format,
//! so the four directions give known neighbours), never by the emulator's own helpers.
//! FP_ROUND[1:0] is f32's direction, [3:2] f64's and f16's: 0 nearest even, 1 toward +inf,
//! 2 toward −inf, 3 toward zero. Operations without directed rounding in the emulator must
//! be refused (`Unsupported`), never computed in the wrong direction.

mod support;

use gcnc::isa::Gen;
use gcnc_emu::dispatch::{run_workgroup, Dispatch};
use gcnc_emu::{ErrorKind, Memory};
use support::*;

const KEEP: u32 = 0xf0;

/// Runs `body` with s0..s3 = `args` and v1..v3 = s0..s2 under MODE `mode`; returns v0 and
/// s10 of lane 0.
fn try_exec(gen: Gen, mode: u32, body: &str, args: &[u32]) -> gcnc_emu::Result<(u32, u32)> {
    let t = target(gen, true);
    let src = format!("v_mov_b32 v1, s0\nv_mov_b32 v2, s1\nv_mov_b32 v3, s2\n{body}\ns_endpgm\n");
    let mut d = Dispatch::new(t, ours(t, &src));
    d.group_size = [1, 1, 1];
    let mut u = args.to_vec();
    u.resize(4, 0);
    d.user_sgprs = u;
    d.tgid_en = [false; 3];
    d.tid_dims = 1;
    d.float_mode = mode;
    let w = run_workgroup(&d, &mut Memory::new(), [0; 3])?;
    Ok((w[0].regs.v(0, 0), w[0].regs.s_raw(10)))
}

fn exec(gen: Gen, mode: u32, body: &str, args: &[u32]) -> (u32, u32) {
    try_exec(gen, mode, body, args).unwrap_or_else(|e| panic!("{gen} {body}: {e}"))
}

/// MODE with f32 direction `r32` and f64/f16 direction `r64`, denormals kept.
fn mode(r32: u32, r64: u32) -> u32 {
    KEEP | r32 | r64 << 2
}

const ONE: u32 = 0x3f80_0000;
const ONE_UP: u32 = 0x3f80_0001;
const ONE_DOWN: u32 = 0x3f7f_ffff;

#[test]
fn f32_fma_mad_sqrt_ldexp_and_conversions() {
    let tiny = 2f32.powi(-30).to_bits();
    let neg_tiny = (-2f32.powi(-30)).to_bits();
    for gen in Gen::ALL {
        // 1·1 + 2^-30: between 1 and 1 + 2^-23
        for (rm, want) in [(0, ONE), (1, ONE_UP), (2, ONE), (3, ONE)] {
            let (r, _) = exec(
                gen,
                mode(rm, 0),
                "v_fma_f32 v0, v1, v2, v3",
                &[ONE, ONE, tiny],
            );
            assert_eq!(r, want, "{gen} v_fma_f32 rm {rm}");
        }
        for (rm, want) in [(0, ONE), (1, ONE), (2, ONE_DOWN), (3, ONE_DOWN)] {
            let (r, _) = exec(
                gen,
                mode(rm, 0),
                "v_fma_f32 v0, v1, v2, v3",
                &[ONE, ONE, neg_tiny],
            );
            assert_eq!(r, want, "{gen} v_fma_f32 1 - 2^-30 rm {rm}");
        }
        // sqrt(2) = 1.41421356…: f32 neighbours 0x3fb504f3 (1.41421353…) and 0x3fb504f4
        for (rm, want) in [
            (0, 0x3fb5_04f3),
            (1, 0x3fb5_04f4),
            (2, 0x3fb5_04f3),
            (3, 0x3fb5_04f3),
        ] {
            let (r, _) = exec(gen, mode(rm, 0), "v_sqrt_f32_e32 v0, v1", &[2f32.to_bits()]);
            assert_eq!(r, want, "{gen} v_sqrt_f32 rm {rm}");
        }
        // u32 0xffffffff = 2^32 − 1: neighbours 2^32 − 256 (0x4f7fffff) and 2^32 (0x4f800000)
        for (rm, want) in [
            (0, 0x4f80_0000),
            (1, 0x4f80_0000),
            (2, 0x4f7f_ffff),
            (3, 0x4f7f_ffff),
        ] {
            let (r, _) = exec(gen, mode(rm, 0), "v_cvt_f32_u32_e32 v0, v1", &[u32::MAX]);
            assert_eq!(r, want, "{gen} v_cvt_f32_u32 rm {rm}");
        }
        // i32 −16777217 = −(2^24 + 1): neighbours −2^24 (0xcb800000), −(2^24 + 2) (0xcb800001)
        for (rm, want) in [
            (0, 0xcb80_0000),
            (1, 0xcb80_0000),
            (2, 0xcb80_0001),
            (3, 0xcb80_0000),
        ] {
            let (r, _) = exec(
                gen,
                mode(rm, 0),
                "v_cvt_f32_i32_e32 v0, v1",
                &[(-16777217i32) as u32],
            );
            assert_eq!(r, want, "{gen} v_cvt_f32_i32 rm {rm}");
        }
        // ldexp(1 + 2^-23, −140) = 2^-140 + 2^-163: the denormal 512·2^-149 plus a bit
        for (rm, want) in [(0, 0x200), (1, 0x201), (2, 0x200), (3, 0x200)] {
            let (r, _) = exec(
                gen,
                mode(rm, 0),
                "v_ldexp_f32 v0, v1, v2",
                &[ONE_UP, (-140i32) as u32],
            );
            assert_eq!(r, want, "{gen} v_ldexp_f32 rm {rm}");
        }
        // the f32 direction does not leak into f64/f16 operations and vice versa
        let (r, _) = exec(
            gen,
            mode(0, 1),
            "v_fma_f32 v0, v1, v2, v3",
            &[ONE, ONE, tiny],
        );
        assert_eq!(r, ONE, "{gen}: f64/f16 direction leaves f32 at nearest");
    }
}

#[test]
fn f64_add_mul_and_f32_conversion() {
    let lo = |x: f64| x.to_bits() as u32;
    let hi = |x: f64| (x.to_bits() >> 32) as u32;
    let tiny = 2f64.powi(-60);
    let one_up = 1.0f64 + 2f64.powi(-52);
    for gen in Gen::ALL {
        let body = "v_mov_b32 v6, s0\nv_mov_b32 v7, s1\nv_mov_b32 v8, s2\nv_mov_b32 v9, s3\n\
                    v_add_f64 v[4:5], v[6:7], v[8:9]\nv_mov_b32 v0, v4\nv_readfirstlane_b32 s10, v5";
        for (rm, want) in [(0, 1.0f64), (1, one_up), (2, 1.0), (3, 1.0)] {
            let (l, h) = exec(
                gen,
                mode(0, rm),
                body,
                &[lo(1.0), hi(1.0), lo(tiny), hi(tiny)],
            );
            assert_eq!(
                (l, h),
                (lo(want), hi(want)),
                "{gen} v_add_f64 1 + 2^-60 rm {rm}"
            );
        }
        // (1 + 2^-52)² = 1 + 2^-51 + 2^-104: nearest and down drop 2^-104, up adds an ulp
        let body = body.replace("v_add_f64", "v_mul_f64");
        let sq_up = 1.0 + 2f64.powi(-51) + 2f64.powi(-52);
        for (rm, want) in [
            (0, 1.0 + 2f64.powi(-51)),
            (1, sq_up),
            (3, 1.0 + 2f64.powi(-51)),
        ] {
            let (l, h) = exec(
                gen,
                mode(0, rm),
                &body,
                &[lo(one_up), hi(one_up), lo(one_up), hi(one_up)],
            );
            assert_eq!((l, h), (lo(want), hi(want)), "{gen} v_mul_f64 rm {rm}");
        }
        // f64 → f32 uses the f32 direction: 1 + 2^-30 lies between 1 and 1 + 2^-23
        let x = 1.0 + 2f64.powi(-30);
        let body = "v_mov_b32 v6, s0\nv_mov_b32 v7, s1\nv_cvt_f32_f64_e32 v0, v[6:7]";
        for (rm, want) in [(0, ONE), (1, ONE_UP), (2, ONE), (3, ONE)] {
            let (r, _) = exec(gen, mode(rm, 0), body, &[lo(x), hi(x)]);
            assert_eq!(r, want, "{gen} v_cvt_f32_f64 rm {rm}");
        }
    }
}

#[test]
fn f16_arithmetic_and_conversion() {
    // 1.0 = 0x3c00, 2^-12 = 0x0c00, 1 + 2^-10 = 0x3c01; 1 + 2^-12 lies between them
    for gen in Gen::ALL {
        for (rm, want) in [(0, 0x3c00), (1, 0x3c01), (2, 0x3c00), (3, 0x3c00)] {
            let (r, _) = exec(
                gen,
                mode(0, rm),
                "v_add_f16_e32 v0, v1, v2",
                &[0x3c00, 0x0c00],
            );
            assert_eq!(r & 0xffff, want, "{gen} v_add_f16 rm {rm}");
        }
        // −1 − 2^-12: toward −inf moves away from zero
        for (rm, want) in [(0, 0xbc00), (1, 0xbc00), (2, 0xbc01), (3, 0xbc00)] {
            let (r, _) = exec(
                gen,
                mode(0, rm),
                "v_sub_f16_e32 v0, v1, v2",
                &[0xbc00, 0x0c00],
            );
            assert_eq!(r & 0xffff, want, "{gen} v_sub_f16 rm {rm}");
        }
        // 1.5 · (1 + 2^-10) = 1.5 + 1.5·2^-10: between 0x3e00 and 0x3e01 (ulp 2^-10)
        for (rm, want) in [(1, 0x3e02), (2, 0x3e01), (3, 0x3e01)] {
            let (r, _) = exec(
                gen,
                mode(0, rm),
                "v_mul_f16_e32 v0, v1, v2",
                &[0x3e00, 0x3c01],
            );
            assert_eq!(r & 0xffff, want, "{gen} v_mul_f16 rm {rm}");
        }
        // 70000 overflows f16: toward zero gives the largest finite value
        let big = 70000f32.to_bits();
        for (rm, want) in [(0, 0x7c00), (1, 0x7c00), (2, 0x7bff), (3, 0x7bff)] {
            let (r, _) = exec(gen, mode(0, rm), "v_cvt_f16_f32_e32 v0, v1", &[big]);
            assert_eq!(r & 0xffff, want, "{gen} v_cvt_f16_f32 70000 rm {rm}");
        }
        // f32 1 + 2^-12 (exact) → f16 uses the f16 direction, not f32's
        let x = (1.0f32 + 2f32.powi(-12)).to_bits();
        let (r, _) = exec(gen, mode(0, 1), "v_cvt_f16_f32_e32 v0, v1", &[x]);
        assert_eq!(r & 0xffff, 0x3c01, "{gen} v_cvt_f16_f32 toward +inf");
        let (r, _) = exec(gen, mode(1, 0), "v_cvt_f16_f32_e32 v0, v1", &[x]);
        assert_eq!(
            r & 0xffff,
            0x3c00,
            "{gen} v_cvt_f16_f32 with only f32 directed"
        );
    }
}

#[test]
fn exact_and_approximate_operations_run_in_every_direction_and_the_rest_are_refused() {
    for gen in Gen::ALL {
        // floor and min are exact: any direction gives the same bits
        for rm in 0..4 {
            let (r, _) = exec(
                gen,
                mode(rm, rm),
                "v_floor_f32_e32 v0, v1",
                &[1.75f32.to_bits()],
            );
            assert_eq!(r, ONE, "{gen} v_floor_f32 rm {rm}");
            let (r, _) = exec(
                gen,
                mode(rm, rm),
                "v_min_f32_e32 v0, v1, v2",
                &[ONE, 2f32.to_bits()],
            );
            assert_eq!(r, ONE, "{gen} v_min_f32 rm {rm}");
        }
        // f64 fma has no directed implementation: refused, not rounded to nearest
        let body = "v_mov_b32 v6, s0\nv_mov_b32 v7, s1\nv_fma_f64 v[4:5], v[6:7], v[6:7], v[6:7]";
        let e = try_exec(gen, mode(0, 1), body, &[0, 0x3ff0_0000]).unwrap_err();
        assert!(matches!(e.kind, ErrorKind::Unsupported(_)), "{gen}: {e}");
        try_exec(gen, mode(1, 0), body, &[0, 0x3ff0_0000]).unwrap();
    }
}
