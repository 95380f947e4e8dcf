//! VALU operations the coverage report (tests/coverage.rs) listed without semantics that a
//! compiler may emit: `v_nop`; the DX9-legacy multiply-adds, whose product is +0 whenever a
//! multiplicand is ±0 — even against Inf or NaN — then adds the third operand
//! (`v_mad_legacy_f32` on GFX9, unfused with the product flushed like `v_mad_f32`;
//! `v_fma_legacy_f32` / `v_fmac_legacy_f32` on GFX10.3 and `v_fma_dx9_zero_f32` /
//! `v_fmac_dx9_zero_f32` on GFX11, fused); and `v_pk_fmac_f16` (GFX10.3/GFX11: each f16
//! half of the destination accumulates the fused product of the matching source halves).
//! Everything goes through `valu::run`, so modifiers, denormal flushing, MODE.FP_ROUND
//! refusal and the never-written checks are the common ones.

use crate::error::{Error, Result};
use crate::float::{f16_to_f64, f64_to_f16, flush32};
use crate::valu::{b32, f32s, run, Ty};
use crate::wave::{Env, Wave};
use gcnc::isa::{EncDesc, Inst, Opcode as O};

/// The opcodes this file executes.
pub fn handles(op: O) -> bool {
    matches!(
        op,
        O::VNop
            | O::VMadLegacyF32
            | O::VFmaLegacyF32
            | O::VFmacLegacyF32
            | O::VFmaDx9ZeroF32
            | O::VFmacDx9ZeroF32
            | O::VPkFmacF16
    )
}

/// The legacy product: +0 when either multiplicand is zero, else `a · b` (rounded when
/// `fused` is false).
fn legacy(a: f32, b: f32, c: f32, fused: bool) -> f32 {
    if a == 0.0 || b == 0.0 {
        0.0 + c
    } else if fused {
        a.mul_add(b, c)
    } else {
        flush32(a * b) + c
    }
}

pub fn exec(w: &mut Wave, inst: &Inst, d: &EncDesc, env: &Env) -> Result<()> {
    use Ty::*;
    let f = |s: &[u64], i: usize| f32s(s[i]);
    match inst.op {
        O::VNop => Ok(()),
        O::VMadLegacyF32 => run(w, inst, d, env, &[F32; 3], F32, false, |s| {
            b32(legacy(f(s, 0), f(s, 1), f(s, 2), false))
        }),
        O::VFmaLegacyF32 | O::VFmaDx9ZeroF32 => run(w, inst, d, env, &[F32; 3], F32, false, |s| {
            b32(legacy(f(s, 0), f(s, 1), f(s, 2), true))
        }),
        O::VFmacLegacyF32 | O::VFmacDx9ZeroF32 => run(w, inst, d, env, &[F32; 2], F32, true, |s| {
            b32(legacy(f(s, 0), f(s, 1), f(s, 2), true))
        }),
        O::VPkFmacF16 => {
            // the halves are raw f16 bits in a 32-bit result: the common float handling does
            // not see them, so only the default modes are accepted
            if (w.mode >> 2) & 3 != 0 || (w.mode >> 6) & 3 != 3 {
                return Err(Error::unsupported(
                    "v_pk_fmac_f16 with f16 rounding other than nearest-even or f16 denormals flushed",
                ));
            }
            run(w, inst, d, env, &[B32, B32], B32, true, |s| {
                let half = |v: u64, k: u32| f16_to_f64((v >> (16 * k)) as u16);
                let mut out = 0u64;
                for k in 0..2 {
                    let r = half(s[0], k).mul_add(half(s[1], k), half(s[2], k));
                    out |= (f64_to_f16(r) as u64) << (16 * k);
                }
                out
            })
        }
        _ => Err(Error::unimpl(inst.op.name())),
    }
}
