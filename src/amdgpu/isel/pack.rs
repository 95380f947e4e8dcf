//! Packing built-ins: `pack/unpack_half_2x16`, `pack/unpack_{unorm,snorm}_{4x8,2x16}` and
//! the bit-level `pack/unpack_32_{2x16,4x8}`, all on the VALU (uniform results are read
//! back with `v_readfirstlane_b32`, except the SALU `s_pack_ll_b32_b16`).
//!
//! - `pack_half_2x16` rounds to nearest even (GLSL): two `v_cvt_f16_f32` and
//!   `v_pack_b32_f16`. `v_cvt_pkrtz_f16_f32` truncates and is not used here. The pack is a
//!   bit copy because FLOAT_MODE keeps f16 denormals (with them flushed it would not be).
//! - `pack_unorm_4x8`: clamp to [0, 1] (`v_med3_f32`), ×255, `v_cvt_pk_u8_f32` into byte k
//!   (rounds to nearest even). `pack_{unorm,snorm}_2x16`: `v_cvt_pknorm_{u16,i16}_f32`,
//!   which clamp, scale and round in one instruction. `pack_snorm_4x8`: clamp, ×127,
//!   `v_rndne_f32`, `v_cvt_i32_f32`, bytes merged with `v_bfi_b32`.
//! - Unpacks: `v_cvt_f32_f16` of each half; `v_cvt_f32_ubyte{0..3}` × 1/255 (within 1 ULP
//!   of the quotient); signed forms `v_bfe_i32` + convert × 1/127 (1/32767), max −1.
//! - Narrow pieces (8/16-bit components) follow `alu16.rs`: upper bits undefined, so packs
//!   mask each piece and unpacks only shift.

use super::{Isel, Kind, MV};
use crate::amdgpu::mir::{Arg, RegClass};
use crate::amdgpu::Error;
use crate::ir::{AluOp, Value};
use crate::isa::Opcode;
use smallvec::SmallVec;

impl Isel<'_> {
    /// Selects a packing op; `None` when `op` is not one.
    pub(super) fn alu_pack(
        &mut self,
        i: Value,
        op: AluOp,
        srcs: &[Value],
    ) -> Result<Option<SmallVec<[MV; 4]>>, Error> {
        use AluOp::*;
        if !matches!(
            op,
            PackHalf2x16
                | UnpackHalf2x16
                | PackUnorm4x8
                | PackSnorm4x8
                | UnpackUnorm4x8
                | UnpackSnorm4x8
                | PackUnorm2x16
                | PackSnorm2x16
                | UnpackUnorm2x16
                | UnpackSnorm2x16
                | Pack32_2x16
                | Unpack32_2x16
                | Pack32_4x8
                | Unpack32_4x8
        ) {
            return Ok(None);
        }
        let div = self.div.is_divergent(i);
        let s = srcs[0];
        let n = self.f.ty(s).comps as usize;
        let mut x: SmallVec<[Arg; 4]> = SmallVec::new();
        for k in 0..n {
            x.push(self.arg(s, k)?);
        }
        if op == Pack32_2x16 && !div {
            // uniform: one SALU instruction takes both low halves
            let (a, b) = (self.sgpr_or_const(x[0])?, self.sgpr_or_const(x[1])?);
            let d = self.tmp(RegClass::S1);
            self.salu(Opcode::SPackLlB32B16, &[Arg::Temp(d)], vec![a, b])?;
            return Ok(Some(smallvec::smallvec![MV::T(d, Kind::Plain)]));
        }
        let out: SmallVec<[Arg; 4]> = match op {
            PackHalf2x16 => {
                let lo = self.v1op(Opcode::VCvtF16F32, vec![x[0]])?;
                let hi = self.v1op(Opcode::VCvtF16F32, vec![x[1]])?;
                smallvec::smallvec![self.v1op(Opcode::VPackB32F16, vec![lo, hi])?]
            }
            UnpackHalf2x16 => {
                let hi = self.v1op(Opcode::VLshrrevB32, vec![Arg::Const(16), x[0]])?;
                smallvec::smallvec![
                    self.v1op(Opcode::VCvtF32F16, vec![x[0]])?,
                    self.v1op(Opcode::VCvtF32F16, vec![hi])?
                ]
            }
            PackUnorm2x16 | PackSnorm2x16 => {
                let name = if op == PackUnorm2x16 {
                    Opcode::VCvtPknormU16F32
                } else {
                    Opcode::VCvtPknormI16F32
                };
                smallvec::smallvec![self.v1op(name, vec![x[0], x[1]])?]
            }
            PackUnorm4x8 => {
                let mut acc = Arg::Const(0);
                for (k, &c) in x.iter().enumerate() {
                    let t = self.v1op(
                        Opcode::VMed3F32,
                        vec![c, Arg::Const(0), Arg::Const(0x3f80_0000)],
                    )?;
                    let t = self.v1op(Opcode::VMulF32, vec![Arg::Const(0x437f_0000), t])?;
                    acc = self.v1op(Opcode::VCvtPkU8F32, vec![t, Arg::Const(k as u32), acc])?;
                }
                smallvec::smallvec![acc]
            }
            PackSnorm4x8 => {
                let mut acc = Arg::Const(0);
                for (k, &c) in x.iter().enumerate() {
                    let t = self.v1op(
                        Opcode::VMed3F32,
                        vec![c, Arg::Const(0xbf80_0000), Arg::Const(0x3f80_0000)],
                    )?;
                    let t = self.v1op(Opcode::VMulF32, vec![Arg::Const(0x42fe_0000), t])?;
                    let t = self.v1op(Opcode::VRndneF32, vec![t])?;
                    let t = self.v1op(Opcode::VCvtI32F32, vec![t])?;
                    acc = if k == 0 {
                        self.v1op(Opcode::VAndB32, vec![Arg::Const(0xff), t])?
                    } else {
                        let sh =
                            self.v1op(Opcode::VLshlrevB32, vec![Arg::Const(8 * k as u32), t])?;
                        self.v1op(Opcode::VBfiB32, vec![Arg::Const(0xff << (8 * k)), sh, acc])?
                    };
                }
                smallvec::smallvec![acc]
            }
            UnpackUnorm4x8 => {
                let mut v = SmallVec::new();
                for k in 0..4 {
                    let n = [
                        Opcode::VCvtF32Ubyte0,
                        Opcode::VCvtF32Ubyte1,
                        Opcode::VCvtF32Ubyte2,
                    ]
                    .get(k)
                    .copied()
                    .unwrap_or(Opcode::VCvtF32Ubyte3);
                    let t = self.v1op(n, vec![x[0]])?;
                    // 1/255
                    v.push(self.v1op(Opcode::VMulF32, vec![Arg::Const(0x3b80_8081), t])?);
                }
                v
            }
            UnpackSnorm4x8 | UnpackUnorm2x16 | UnpackSnorm2x16 => {
                let (w, cnt, signed, inv) = match op {
                    UnpackSnorm4x8 => (8u32, 4u32, true, (1.0f32 / 127.0).to_bits()),
                    UnpackUnorm2x16 => (16, 2, false, (1.0f32 / 65535.0).to_bits()),
                    _ => (16, 2, true, (1.0f32 / 32767.0).to_bits()),
                };
                let mut v = SmallVec::new();
                for k in 0..cnt {
                    let (bfe, cvt) = if signed {
                        (Opcode::VBfeI32, Opcode::VCvtF32I32)
                    } else {
                        (Opcode::VBfeU32, Opcode::VCvtF32U32)
                    };
                    let q = self.v1op(bfe, vec![x[0], Arg::Const(w * k), Arg::Const(w)])?;
                    let t = self.v1op(cvt, vec![q])?;
                    let t = self.v1op(Opcode::VMulF32, vec![Arg::Const(inv), t])?;
                    v.push(if signed {
                        self.v1op(Opcode::VMaxF32, vec![Arg::Const(0xbf80_0000), t])?
                    } else {
                        t
                    });
                }
                v
            }
            Pack32_2x16 => {
                let lo = self.v1op(Opcode::VAndB32, vec![Arg::Const(0xffff), x[0]])?;
                smallvec::smallvec![self.v1op(Opcode::VLshlOrB32, vec![x[1], Arg::Const(16), lo])?]
            }
            Pack32_4x8 => {
                let mut acc = self.v1op(Opcode::VAndB32, vec![Arg::Const(0xff), x[0]])?;
                for (k, &c) in x.iter().enumerate().skip(1) {
                    let t = if k == 3 {
                        c
                    } else {
                        self.v1op(Opcode::VAndB32, vec![Arg::Const(0xff), c])?
                    };
                    acc = self.v1op(Opcode::VLshlOrB32, vec![t, Arg::Const(8 * k as u32), acc])?;
                }
                smallvec::smallvec![acc]
            }
            Unpack32_2x16 | Unpack32_4x8 => {
                // the pieces' upper bits are undefined: shifting is enough
                let (w, cnt) = if op == Unpack32_2x16 { (16, 2) } else { (8, 4) };
                let mut v: SmallVec<[Arg; 4]> = smallvec::smallvec![x[0]];
                for k in 1..cnt {
                    v.push(if div {
                        self.v1op(Opcode::VLshrrevB32, vec![Arg::Const(w * k), x[0]])?
                    } else {
                        let s0 = self.sgpr_or_const(x[0])?;
                        let d = self.tmp(RegClass::S1);
                        self.salu(
                            Opcode::SLshrB32,
                            &[Arg::Temp(d)],
                            vec![s0, Arg::Const(w * k)],
                        )?;
                        Arg::Temp(d)
                    });
                }
                v
            }
            _ => unreachable!("filtered above"),
        };
        let mut r = SmallVec::new();
        for a in out {
            r.push(match a {
                Arg::Const(c) => MV::C(c as u64),
                Arg::Temp(t) if !div && !self.p.rc(t).is_sgpr() => {
                    MV::T(self.uniform_to_sgpr(t)?, Kind::Plain)
                }
                Arg::Temp(t) => MV::T(t, Kind::Plain),
                _ => unreachable!("selection produces temps or constants"),
            });
        }
        Ok(Some(r))
    }
}
