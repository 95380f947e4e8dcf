//! The VOPD (GFX11 wave32 dual issue) pairing rules, one case per rule, each with LLVM's
//! verdict: what llvm-mc-19 rejects our parser + verifier must reject, what it accepts we
//! must accept and encode to the same bytes. The table holds llvm-mc-19's answers so the
//! first test runs without it; the second asks llvm-mc-19 again.
//!
//! Rules (RDNA3 ISA "VOPD", LLVM's VOPD operand checks): X may be fmac, fmaak, fmamk,
//! mul, add, sub, subrev, mul_dx9_zero, mov, cndmask, max, min, dot2acc; Y also
//! add_nc_u32, lshlrev, and. Destinations one even one odd VGPR; src0 of the halves in
//! different VGPR banks (index mod 4), vsrc1 likewise; the accumulator ("src2": vdst of
//! fmac/dot2acc, vsrc1 of fmamk) of different parity; at most one literal value, shared;
//! distinct SGPRs + the literal + VCC of cndmask at most 2 (one constant bus); vsrc1 is
//! a VGPR; wave32 only.

mod support;

use gcnc::isa::*;

/// (text, accepted by llvm-mc-19 for gfx1100 wave32)
const CASES: &[(&str, bool)] = &[
    (
        "v_dual_mul_f32 v0, v1, v2 :: v_dual_add_f32 v3, v4, v5",
        true,
    ),
    // destinations: one even, one odd
    (
        "v_dual_mul_f32 v0, v1, v2 :: v_dual_add_f32 v2, v4, v5",
        false,
    ),
    (
        "v_dual_fmac_f32 v0, v1, v2 :: v_dual_fmac_f32 v2, v4, v5",
        false,
    ),
    (
        "v_dual_dot2acc_f32_f16 v0, v1, v2 :: v_dual_dot2acc_f32_f16 v2, v6, v7",
        false,
    ),
    ("v_dual_mov_b32 v255, v1 :: v_dual_mov_b32 v254, v2", true),
    // src0 banks (mod 4), including the same register in both halves
    (
        "v_dual_mul_f32 v0, v1, v2 :: v_dual_add_f32 v3, v5, v6",
        false,
    ),
    (
        "v_dual_mul_f32 v0, v1, v2 :: v_dual_add_f32 v3, v1, v7",
        false,
    ),
    ("v_dual_mov_b32 v0, v1 :: v_dual_mov_b32 v1, v5", false),
    ("v_dual_mov_b32 v0, v1 :: v_dual_mov_b32 v1, v2", true),
    // src1 banks (mod 4)
    (
        "v_dual_mul_f32 v0, v1, v2 :: v_dual_add_f32 v3, v4, v6",
        false,
    ),
    (
        "v_dual_fmaak_f32 v0, v1, v2, 0x1 :: v_dual_fmaak_f32 v3, v4, v6, 0x1",
        false,
    ),
    (
        "v_dual_mul_f32 v0, v1, v2 :: v_dual_add_f32 v3, v2, v1",
        true,
    ),
    // src2 (accumulator) parity: fmamk's vsrc1, fmac's vdst
    (
        "v_dual_fmamk_f32 v0, v1, 0x1, v2 :: v_dual_fmamk_f32 v3, v4, 0x1, v6",
        false,
    ),
    (
        "v_dual_fmamk_f32 v0, v1, 0x1, v2 :: v_dual_fmamk_f32 v3, v4, 0x1, v9",
        true,
    ),
    (
        "v_dual_fmamk_f32 v0, v1, 0x1, v2 :: v_dual_fmamk_f32 v3, v4, 0x1, v5",
        true,
    ),
    (
        "v_dual_fmac_f32 v0, v1, v2 :: v_dual_fmac_f32 v3, v4, v5",
        true,
    ),
    (
        "v_dual_fmac_f32 v0, v1, v2 :: v_dual_fmamk_f32 v3, v4, 0x1, v6",
        false,
    ),
    (
        "v_dual_fmac_f32 v0, v1, v2 :: v_dual_fmamk_f32 v3, v4, 0x1, v7",
        true,
    ),
    (
        "v_dual_dot2acc_f32_f16 v0, v1, v2 :: v_dual_fmamk_f32 v3, v4, 0x1, v8",
        false,
    ),
    // fmamk's vsrc1 is in the src2 role, not src1
    (
        "v_dual_mul_f32 v0, v1, v2 :: v_dual_fmamk_f32 v3, v4, 0x1, v6",
        true,
    ),
    (
        "v_dual_fmamk_f32 v0, v1, 0x1, v2 :: v_dual_mul_f32 v3, v4, v2",
        true,
    ),
    // the halves are not checked against each other's results (the pass keeps them apart)
    (
        "v_dual_mul_f32 v0, v1, v2 :: v_dual_add_f32 v3, v0, v5",
        true,
    ),
    (
        "v_dual_mul_f32 v0, v3, v2 :: v_dual_add_f32 v3, v4, v5",
        true,
    ),
    // one literal value
    (
        "v_dual_fmaak_f32 v0, v1, v2, 0x1 :: v_dual_fmaak_f32 v3, v4, v5, 0x2",
        false,
    ),
    (
        "v_dual_mov_b32 v0, 0x1234 :: v_dual_mov_b32 v1, 0x1234",
        true,
    ),
    (
        "v_dual_mov_b32 v0, 0x1234 :: v_dual_mov_b32 v1, 0x1235",
        false,
    ),
    // constant bus: distinct SGPRs + literal + VCC <= 2
    ("v_dual_mov_b32 v0, s1 :: v_dual_mov_b32 v1, s2", true),
    ("v_dual_mov_b32 v0, s1 :: v_dual_mov_b32 v1, s1", true),
    ("v_dual_mov_b32 v0, s1 :: v_dual_mov_b32 v1, 0x1234", true),
    ("v_dual_mov_b32 v0, 1.0 :: v_dual_mov_b32 v1, s2", true),
    (
        "v_dual_mul_f32 v0, s1, v2 :: v_dual_add_f32 v3, s1, v5",
        true,
    ),
    (
        "v_dual_mov_b32 v0, s1 :: v_dual_fmaak_f32 v1, s2, v2, 0x1234",
        false,
    ),
    (
        "v_dual_cndmask_b32 v0, s1, v2 :: v_dual_mov_b32 v1, s2",
        false,
    ),
    (
        "v_dual_cndmask_b32 v0, s1, v2 :: v_dual_mov_b32 v1, s1",
        true,
    ),
    (
        "v_dual_cndmask_b32 v0, v1, v2 :: v_dual_cndmask_b32 v1, v2, v3",
        true,
    ),
    (
        "v_dual_cndmask_b32 v0, s1, v2 :: v_dual_cndmask_b32 v1, s1, v3",
        true,
    ),
    (
        "v_dual_cndmask_b32 v0, s1, v2 :: v_dual_cndmask_b32 v1, s2, v3",
        false,
    ),
    (
        "v_dual_cndmask_b32 v0, vcc_lo, v2 :: v_dual_mov_b32 v1, s2",
        false,
    ),
    ("v_dual_mov_b32 v0, exec_lo :: v_dual_mov_b32 v1, s2", true),
    // vsrc1 is a VGPR
    (
        "v_dual_mul_f32 v0, v1, v2 :: v_dual_add_f32 v3, v4, s5",
        false,
    ),
    // add_nc_u32 / lshlrev / and are Y only
    (
        "v_dual_add_nc_u32 v0, v1, v2 :: v_dual_mov_b32 v1, v2",
        false,
    ),
    (
        "v_dual_mov_b32 v0, v1 :: v_dual_add_nc_u32 v1, v2, v3",
        true,
    ),
    (
        "v_dual_mov_b32 v0, v1 :: v_dual_lshlrev_b32 v1, v2, v3",
        true,
    ),
    ("v_dual_mov_b32 v0, v1 :: v_dual_and_b32 v1, v2, v3", true),
    (
        "v_dual_dot2acc_f32_f16 v0, v1, v2 :: v_dual_dot2acc_f32_f16 v3, v6, v7",
        true,
    ),
];

fn w32() -> Target {
    Target::with_wave(Gen::Gfx11, Wave::W32).unwrap()
}

fn ours(text: &str, t: Target) -> Result<Vec<u8>> {
    let inst = parse_line(text, 1, t)?.expect("an instruction");
    encode(&inst, t)
}

#[test]
fn each_pairing_rule_is_enforced_as_llvm_does() {
    for &(text, ok) in CASES {
        let r = ours(text, w32());
        assert_eq!(
            r.is_ok(),
            ok,
            "`{text}`: ours {r:?}, llvm-mc-19 accepts: {ok}"
        );
    }
}

#[test]
fn vopd_needs_wave32() {
    let t = Target::with_wave(Gen::Gfx11, Wave::W64).unwrap();
    assert!(ours("v_dual_mov_b32 v0, v1 :: v_dual_mov_b32 v1, v2", t).is_err());
}

#[test]
fn llvm_mc_gives_the_same_verdicts_and_bytes() {
    let Some(mc) = support::llvm_mc() else { return };
    let lines: Vec<String> = CASES.iter().map(|c| c.0.to_string()).collect();
    let llvm = support::assemble(&mc, "gfx1100", Some(32), &lines);
    for (&(text, ok), l) in CASES.iter().zip(&llvm) {
        assert_eq!(l.is_ok(), ok, "`{text}`: llvm-mc-19 says {l:?}");
        if let Ok(bytes) = l {
            assert_eq!(&ours(text, w32()).unwrap(), bytes, "`{text}`");
        }
    }
    let w64 = support::assemble(&mc, "gfx1100", Some(64), &lines[..1]);
    assert!(w64[0].is_err(), "llvm-mc-19 rejects VOPD in wave64");
}
