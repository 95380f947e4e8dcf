//! Semantics of the VALU operations added from the coverage report (src/valu_legacy.rs,
//! mad_mix in src/packed.rs): expected values come from Rust's own f32/f64 arithmetic or
//! are derived by hand — the DX9 rule (a zero multiplicand gives +0 even against Inf and
//! NaN), fused versus unfused rounding, f16 halves and op_sel selection.

mod support;

use gcnc::isa::Gen;
use gcnc_emu::dispatch::{run_workgroup, Dispatch};
use gcnc_emu::Memory;
use support::*;

/// Runs `body` with s0..s3 = `args` and v1..v3 = s0..s2 (wave64, default modes); returns
/// v0 of lane 0.
fn exec(gen: Gen, body: &str, args: &[u32]) -> u32 {
    let t = target(gen, true);
    let src = format!("v_mov_b32 v1, s0\nv_mov_b32 v2, s1\nv_mov_b32 v3, s2\n{body}\ns_endpgm\n");
    let mut d = Dispatch::new(t, ours(t, &src));
    d.group_size = [1, 1, 1];
    let mut u = args.to_vec();
    u.resize(4, 0);
    d.user_sgprs = u;
    d.tgid_en = [false; 3];
    d.tid_dims = 1;
    d.float_mode = 0xf0;
    let w = run_workgroup(&d, &mut Memory::new(), [0; 3])
        .unwrap_or_else(|e| panic!("{gen} {body}: {e}"));
    w[0].regs.v(0, 0)
}

fn b(x: f32) -> u32 {
    x.to_bits()
}

/// (a, b, c, legacy fused result, legacy unfused result), from Rust arithmetic.
fn cases() -> Vec<(f32, f32, f32, f32, f32)> {
    let x = 1.0 + 2f32.powi(-12);
    vec![
        // a zero multiplicand: +0 product, even against Inf / NaN
        (0.0, f32::INFINITY, 2.0, 2.0, 2.0),
        (f32::NAN, -0.0, 1.5, 1.5, 1.5),
        (-0.0, 5.0, -0.0, 0.0, 0.0),
        // ordinary products
        (2.0, 3.0, 1.0, 7.0, 7.0),
        (f32::INFINITY, 1.0, 1.0, f32::INFINITY, f32::INFINITY),
        // (1 + 2^-12)² − 1: the exact product needs 25 bits, so only the fused form keeps
        // its last bit
        (x, x, -1.0, x.mul_add(x, -1.0), (x * x) + -1.0),
    ]
}

#[test]
fn dx9_legacy_multiply_adds() {
    for (a, bb, c, fused, unfused) in cases() {
        assert_ne!(
            (1.0 + 2f32.powi(-12)).mul_add(1.0 + 2f32.powi(-12), -1.0),
            (1.0 + 2f32.powi(-12)) * (1.0 + 2f32.powi(-12)) - 1.0,
            "the last case separates fused from unfused"
        );
        let args = [b(a), b(bb), b(c)];
        let r = exec(Gen::Gfx9, "v_mad_legacy_f32 v0, v1, v2, v3", &args);
        assert_eq!(r, b(unfused), "gfx900 v_mad_legacy_f32 {a} {bb} {c}");
        for (gen, fma, fmac) in [
            (Gen::Gfx10, "v_fma_legacy_f32", "v_fmac_legacy_f32_e32"),
            (Gen::Gfx11, "v_fma_dx9_zero_f32", "v_fmac_dx9_zero_f32_e32"),
        ] {
            let r = exec(gen, &format!("{fma} v0, v1, v2, v3"), &args);
            assert_eq!(r, b(fused), "{gen} {fma} {a} {bb} {c}");
            let r = exec(gen, &format!("{fmac} v3, v1, v2\nv_mov_b32 v0, v3"), &args);
            assert_eq!(r, b(fused), "{gen} {fmac} {a} {bb} {c}");
        }
    }
}

#[test]
fn v_nop_changes_nothing() {
    for gen in Gen::ALL {
        let r = exec(gen, "v_mov_b32 v0, v1\nv_nop\nv_nop", &[0x1234_5678]);
        assert_eq!(r, 0x1234_5678, "{gen}");
    }
}

#[test]
fn packed_f16_fmac() {
    // low halves: 1.5 · 2 + 0.25 = 3.25 (0x4280); high halves: 65504 · 2 − 65504 = 65504
    // (0x7bff) only when fused — the rounded product would overflow to +inf
    let s0 = 0x7bff_3e00;
    let s1 = 0x4000_4000;
    let acc = 0xfbff_3400;
    for gen in [Gen::Gfx10, Gen::Gfx11] {
        let r = exec(
            gen,
            "v_pk_fmac_f16 v3, v1, v2\nv_mov_b32 v0, v3",
            &[s0, s1, acc],
        );
        assert_eq!(r, 0x7bff_4280, "{gen}");
    }
}

#[test]
fn gfx9_mad_mix_selects_halves() {
    // op_sel picks the high f16 half of src0 (2.0); src1 is the low f16 half (1.5); src2
    // is f32 0.25: 2 · 1.5 + 0.25 = 3.25
    let r = exec(
        Gen::Gfx9,
        "v_mad_mix_f32 v0, v1, v2, v3 op_sel:[1,0,0] op_sel_hi:[1,1,0]",
        &[0x4000_3c00, 0x0000_3e00, b(0.25)],
    );
    assert_eq!(r, b(3.25));
    // the f16 result goes to the low half; the high half of the destination is kept
    let r = exec(
        Gen::Gfx9,
        "v_mov_b32 v0, 0xdead0000\nv_mad_mixlo_f16 v0, v1, v2, v3 op_sel_hi:[1,1,1]",
        &[0x0000_3e00, 0x0000_4000, 0x0000_3400],
    );
    assert_eq!(r, 0xdead_4280);
    let r = exec(
        Gen::Gfx9,
        "v_mov_b32 v0, 0xbeef\nv_mad_mixhi_f16 v0, v1, v2, v3 op_sel_hi:[1,1,1]",
        &[0x0000_3e00, 0x0000_4000, 0x0000_3400],
    );
    assert_eq!(r, 0x4280_beef);
}
