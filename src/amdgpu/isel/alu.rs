//! ALU selection: SALU for uniform integer/bool work, VALU for everything divergent and
//! for float math. Operand legalisation (encoding choice, constant bus, literals) is
//! `legalize.rs`.
//!
//! Layering: this module uses `legalize` and dispatches 8/16-bit types to `alu16` (a leaf
//! that uses `legalize` only), so the dependency runs alu → alu16 → legalize.

use super::legalize::src_comp;
use super::{Isel, Kind, MV};
use crate::amdgpu::mir::{Arg, MInst, RegClass};
use crate::amdgpu::Error;
use crate::ir::{AluOp, InstKind, Value};
use crate::isa::Opcode;
use smallvec::SmallVec;

impl Isel<'_> {
    pub(super) fn alu(
        &mut self,
        i: Value,
        op: AluOp,
        srcs: &[Value],
    ) -> Result<SmallVec<[MV; 4]>, Error> {
        let f = self.f;
        let ty = f.ty(i);
        let at = Some(i.index() as u32);
        let div = self.div.is_divergent(i);
        let mut out = SmallVec::new();
        if let Some(v) = self.alu_pack(i, op, srcs)? {
            return Ok(v);
        }
        if let Some(v) = self.derivative(i, op, srcs)? {
            return Ok(v);
        }
        match op {
            AluOp::Mov => {
                for c in 0..ty.comps as usize {
                    out.push(self.get(srcs[0], c)?);
                }
                return Ok(out);
            }
            AluOp::Vec => {
                for &s in srcs {
                    for c in 0..f.ty(s).comps as usize {
                        out.push(self.get(s, c)?);
                    }
                }
                return Ok(out);
            }
            AluOp::Pack64_2x32 => {
                let lo = self.arg(srcs[0], 0)?;
                let hi = self.arg(srcs[0], 1)?;
                let rc = if div { RegClass::V2 } else { RegClass::S2 };
                let (lo, hi) = if div {
                    (self.to_vgpr(lo)?, self.to_vgpr(hi)?)
                } else {
                    (self.to_sgpr(lo)?, self.to_sgpr(hi)?)
                };
                let d = self.tmp(rc);
                self.push(MInst::pseudo(
                    crate::amdgpu::mir::Pseudo::CreateVector,
                    &[Arg::Temp(d)],
                    &[Arg::Temp(lo), Arg::Temp(hi)],
                ));
                out.push(MV::T(d, Kind::Plain));
                return Ok(out);
            }
            AluOp::Bany | AluOp::Ball => {
                let n = f.ty(srcs[0]).comps as usize;
                let any = op == AluOp::Bany;
                if div {
                    let mut acc = self.mask(srcs[0], 0)?;
                    for k in 1..n {
                        let m = self.mask(srcs[0], k)?;
                        let d = self.tmp(self.mask_rc());
                        let o = if any { Opcode::SOrB32 } else { Opcode::SAndB32 };
                        self.hw_lane(o, &[Arg::Temp(d)], &[acc, m])?;
                        acc = Arg::Temp(d);
                    }
                    let Arg::Temp(t) = acc else {
                        return Err(Error::unsupported(Some(i.index() as u32), "constant bvec"));
                    };
                    out.push(MV::T(t, Kind::Mask));
                } else {
                    let mut acc = self.ubool(srcs[0], 0)?;
                    for k in 1..n {
                        let m = self.ubool(srcs[0], k)?;
                        let d = self.tmp(RegClass::S1);
                        let (x, y) = (self.sgpr_or_const(acc)?, self.sgpr_or_const(m)?);
                        let name = if any { Opcode::SOrB32 } else { Opcode::SAndB32 };
                        self.salu(name, &[Arg::Temp(d)], vec![x, y])?;
                        acc = Arg::Temp(d);
                    }
                    out.push(match acc {
                        Arg::Temp(t) => MV::T(t, Kind::UBool),
                        Arg::Const(c) => MV::C(c as u64),
                        _ => unreachable!(),
                    });
                }
                return Ok(out);
            }
            AluOp::Fdot => {
                // x0*y0, then fused multiply-adds in component order
                let n = f.ty(srcs[0]).comps as usize;
                let x0 = self.arg(srcs[0], 0)?;
                let y0 = self.arg(srcs[1], 0)?;
                let mut acc = self.tmp(RegClass::V1);
                self.valu(Opcode::VMulF32, &[Arg::Temp(acc)], vec![x0, y0])?;
                for k in 1..n {
                    let x = self.arg(srcs[0], k)?;
                    let y = self.arg(srcs[1], k)?;
                    let d = self.tmp(RegClass::V1);
                    self.valu(Opcode::VFmaF32, &[Arg::Temp(d)], vec![x, y, Arg::Temp(acc)])?;
                    acc = d;
                }
                let t = if div { acc } else { self.uniform_to_sgpr(acc)? };
                out.push(MV::T(t, Kind::Plain));
                return Ok(out);
            }
            AluOp::Unpack64_2x32 => {
                let a = self.arg(srcs[0], 0)?;
                let t = match a {
                    Arg::Temp(t) => t,
                    _ => unreachable!("64-bit constants are materialised"),
                };
                for p in self.split(t, 2)? {
                    out.push(MV::T(p, Kind::Plain));
                }
                return Ok(out);
            }
            _ => {}
        }
        for c in 0..ty.comps as usize {
            let v = self.alu_comp(i, op, srcs, c, div)?;
            out.push(v);
        }
        let _ = at;
        Ok(out)
    }

    fn alu_comp(
        &mut self,
        i: Value,
        op: AluOp,
        srcs: &[Value],
        c: usize,
        div: bool,
    ) -> Result<MV, Error> {
        use AluOp::*;
        let f = self.f;
        let at = Some(i.index() as u32);
        let ty = f.ty(i);
        let sbits = f.ty(srcs[0]).bits;
        let unsup = |what: &str| Error::unsupported(at, format!("{} {what}", op.name()));
        if super::alu16::is_narrow(sbits)
            || super::alu16::is_narrow(ty.bits) && !matches!(op, Bcsel | B2i)
        {
            return self.alu_narrow(i, op, srcs, c, div);
        }
        if sbits == 1 || ty.bits == 1 && !matches!(op.shape(), crate::ir::Shape::Cmp) {
            return self.bool_op(i, op, srcs, c, div);
        }
        if sbits == 64 || ty.bits == 64 {
            return self.alu64(i, op, srcs, c, div);
        }
        if op == Fquantize2f16 {
            return self.quantize_f16(srcs, c, div);
        }
        if sbits != 32 && !matches!(op, B2f | B2i) {
            return Err(unsup(&format!("on {sbits}-bit sources")));
        }
        let a = |s: &mut Self, k: usize| -> Result<Arg, Error> {
            let kk = src_comp(f, srcs[k], c);
            s.arg(srcs[k], kk)
        };
        // uniform integer ops on the SALU
        if !div {
            let s2 = Some;
            let salu_name = match op {
                Iadd => s2(Opcode::SAddU32),
                Isub => s2(Opcode::SSubU32),
                Imul => s2(Opcode::SMulI32),
                Iand => s2(Opcode::SAndB32),
                Ior => s2(Opcode::SOrB32),
                Ixor => s2(Opcode::SXorB32),
                Ishl => s2(Opcode::SLshlB32),
                Ushr => s2(Opcode::SLshrB32),
                Ishr => s2(Opcode::SAshrI32),
                Imin => s2(Opcode::SMinI32),
                Imax => s2(Opcode::SMaxI32),
                Umin => s2(Opcode::SMinU32),
                Umax => s2(Opcode::SMaxU32),
                _ => None,
            };
            if let Some(n) = salu_name {
                let x = a(self, 0)?;
                let y = a(self, 1)?;
                let x = self.sgpr_or_const(x)?;
                let y = self.sgpr_or_const(y)?;
                let d = self.tmp(RegClass::S1);
                self.salu(n, &[Arg::Temp(d)], vec![x, y])?;
                return Ok(MV::T(d, Kind::Plain));
            }
            let s1 = match op {
                Inot => Some(Opcode::SNotB32),
                Iabs => Some(Opcode::SAbsI32),
                BitfieldReverse => Some(Opcode::SBrevB32),
                Ineg => None,
                _ => None,
            };
            if let Some(n) = s1 {
                let x = a(self, 0)?;
                let x = self.sgpr_or_const(x)?;
                let d = self.tmp(RegClass::S1);
                self.salu(n, &[Arg::Temp(d)], vec![x])?;
                return Ok(MV::T(d, Kind::Plain));
            }
            if op == Ineg {
                let x = a(self, 0)?;
                let x = self.sgpr_or_const(x)?;
                let d = self.tmp(RegClass::S1);
                self.salu(Opcode::SSubU32, &[Arg::Temp(d)], vec![Arg::Const(0), x])?;
                return Ok(MV::T(d, Kind::Plain));
            }
            if let Some(cmp) = scalar_cmp(op) {
                let x = a(self, 0)?;
                let y = a(self, 1)?;
                let x = self.sgpr_or_const(x)?;
                let y = self.sgpr_or_const(y)?;
                let x = if matches!(x, Arg::Const(_)) && matches!(y, Arg::Const(_)) {
                    Arg::Temp(self.to_sgpr(x)?)
                } else {
                    x
                };
                self.salu(cmp, &[], vec![x, y])?;
                let d = self.tmp(RegClass::S1);
                self.scc_to_bool(d)?;
                return Ok(MV::T(d, Kind::UBool));
            }
            if op == Bcsel {
                let cnd = self.ubool(srcs[0], src_comp(f, srcs[0], c))?;
                let cnd = self.sgpr_or_const(cnd)?;
                let x = a(self, 1)?;
                let y = a(self, 2)?;
                let x = self.sgpr_or_const(x)?;
                let y = self.sgpr_or_const(y)?;
                let cnd = Arg::Temp(self.to_sgpr(cnd)?);
                self.hw(Opcode::SCmpLgU32, &[], &[cnd, Arg::Const(0)])?;
                let d = self.tmp(RegClass::S1);
                self.salu(Opcode::SCselectB32, &[Arg::Temp(d)], vec![x, y])?;
                return Ok(MV::T(d, Kind::Plain));
            }
        }
        // a uniform field at a constant offset and width: one s_bfe, its second operand
        // packed as offset | width << 16 (the form `ngg` and `image` use)
        if !div && matches!(op, UbitfieldExtract | IbitfieldExtract) {
            if let (Arg::Const(off), Arg::Const(n)) = (a(self, 1)?, a(self, 2)?) {
                if off < 32 && (1..=32 - off).contains(&n) {
                    let x = a(self, 0)?;
                    let x = self.sgpr_or_const(x)?;
                    let name = if op == IbitfieldExtract {
                        Opcode::SBfeI32
                    } else {
                        Opcode::SBfeU32
                    };
                    let d = self.tmp(RegClass::S1);
                    self.salu(name, &[Arg::Temp(d)], vec![x, Arg::Const(off | n << 16)])?;
                    return Ok(MV::T(d, Kind::Plain));
                }
            }
        }
        // VALU (divergent, or float math on uniform values, read back below)
        let r = self.valu_comp(i, op, srcs, c)?;
        if div {
            return Ok(r);
        }
        match r {
            MV::T(t, Kind::Mask) => {
                let d = self.tmp(RegClass::S1);
                // uniform compare computed on the VALU: all active lanes agree
                let m = self.tmp(self.mask_rc());
                self.any_active_to_scc(t, m)?;
                self.scc_to_bool(d)?;
                Ok(MV::T(d, Kind::UBool))
            }
            MV::T(t, k) => {
                let d = self.uniform_to_sgpr(t)?;
                Ok(MV::T(d, k))
            }
            x => Ok(x),
        }
    }

    fn valu_comp(&mut self, i: Value, op: AluOp, srcs: &[Value], c: usize) -> Result<MV, Error> {
        use AluOp::*;
        let f = self.f;
        let at = Some(i.index() as u32);
        let a = |s: &mut Self, k: usize| -> Result<Arg, Error> {
            let kk = src_comp(f, srcs[k], c);
            s.arg(srcs[k], kk)
        };
        let v1 = |s: &mut Self| s.tmp(RegClass::V1);
        let two = |op: AluOp| -> Option<Opcode> {
            Some(match op {
                Fadd => Opcode::VAddF32,
                Fsub => Opcode::VSubF32,
                Fmul => Opcode::VMulF32,
                Fmin => Opcode::VMinF32,
                Fmax => Opcode::VMaxF32,
                Iadd => Opcode::VAddU32,
                Isub => Opcode::VSubU32,
                Imul => Opcode::VMulLoU32,
                UmulHigh => Opcode::VMulHiU32,
                ImulHigh => Opcode::VMulHiI32,
                Iand => Opcode::VAndB32,
                Ior => Opcode::VOrB32,
                Ixor => Opcode::VXorB32,
                Imin => Opcode::VMinI32,
                Imax => Opcode::VMaxI32,
                Umin => Opcode::VMinU32,
                Umax => Opcode::VMaxU32,
                Fldexp => Opcode::VLdexpF32,
                _ => return None,
            })
        };
        let one = |op: AluOp| -> Option<Opcode> {
            Some(match op {
                Ffloor => Opcode::VFloorF32,
                Fceil => Opcode::VCeilF32,
                Ftrunc => Opcode::VTruncF32,
                FroundEven => Opcode::VRndneF32,
                Ffract => Opcode::VFractF32,
                Fsqrt => Opcode::VSqrtF32,
                Frsq => Opcode::VRsqF32,
                Frcp => Opcode::VRcpF32,
                Fexp2 => Opcode::VExpF32,
                Flog2 => Opcode::VLogF32,
                Inot => Opcode::VNotB32,
                BitfieldReverse => Opcode::VBfrevB32,
                F2i => Opcode::VCvtI32F32,
                F2u => Opcode::VCvtU32F32,
                FfrexpSig => Opcode::VFrexpMantF32,
                FfrexpExp => Opcode::VFrexpExpI32F32,
                I2f => Opcode::VCvtF32I32,
                U2f => Opcode::VCvtF32U32,
                _ => return None,
            })
        };
        if let Some(v) = self.small_product(op, srcs, c)? {
            return Ok(v);
        }
        if let Some(v) = self.three_operand(op, srcs, c)? {
            return Ok(v);
        }
        if let Some(n) = two(op) {
            let x = a(self, 0)?;
            let y = a(self, 1)?;
            let d = v1(self);
            self.valu(n, &[Arg::Temp(d)], vec![x, y])?;
            return Ok(MV::T(d, Kind::Plain));
        }
        if let Some(n) = one(op) {
            let x = a(self, 0)?;
            let d = v1(self);
            self.valu(n, &[Arg::Temp(d)], vec![x])?;
            return Ok(MV::T(d, Kind::Plain));
        }
        if let Some(n) = vector_cmp(op) {
            let x = a(self, 0)?;
            let y = a(self, 1)?;
            let d = self.tmp(self.mask_rc());
            self.valu(n, &[Arg::Temp(d)], vec![x, y])?;
            return Ok(MV::T(d, Kind::Mask));
        }
        let d = v1(self);
        let dt = Arg::Temp(d);
        match op {
            // shifts: the VALU forms take the amount first
            Ishl | Ushr | Ishr => {
                let x = a(self, 0)?;
                let y = a(self, 1)?;
                let n = match op {
                    Ishl => Opcode::VLshlrevB32,
                    Ushr => Opcode::VLshrrevB32,
                    _ => Opcode::VAshrrevI32,
                };
                self.valu(n, &[dt], vec![y, x])?;
            }
            Ffma => {
                let (x, y, z) = (a(self, 0)?, a(self, 1)?, a(self, 2)?);
                self.valu(Opcode::VFmaF32, &[dt], vec![x, y, z])?;
            }
            Fneg => {
                // -|x| sets the sign bit: one `v_or_b32` of x instead of and + xor
                let abs_of = match f.kind(srcs[0]) {
                    InstKind::Alu { op: Fabs, srcs: s } => Some(s[0]),
                    _ => None,
                };
                match abs_of {
                    Some(x) => {
                        let x = self.arg(x, src_comp(f, x, src_comp(f, srcs[0], c)))?;
                        self.valu(Opcode::VOrB32, &[dt], vec![Arg::Const(0x8000_0000), x])?;
                    }
                    None => {
                        let x = a(self, 0)?;
                        self.valu(Opcode::VXorB32, &[dt], vec![Arg::Const(0x8000_0000), x])?;
                    }
                }
            }
            Fabs => {
                let x = a(self, 0)?;
                self.valu(Opcode::VAndB32, &[dt], vec![Arg::Const(0x7fff_ffff), x])?;
            }
            Fsat => {
                let x = a(self, 0)?;
                self.valu(
                    Opcode::VMed3F32,
                    &[dt],
                    vec![x, Arg::Const(0), Arg::Const(0x3f80_0000)],
                )?;
            }
            Fdiv => {
                // a * (1/b): within Vulkan's 2.5 ULP for 1/b and a*b outside denormals
                let x = a(self, 0)?;
                let y = a(self, 1)?;
                let r = v1(self);
                self.valu(Opcode::VRcpF32, &[Arg::Temp(r)], vec![y])?;
                self.valu(Opcode::VMulF32, &[dt], vec![x, Arg::Temp(r)])?;
            }
            Fsin | Fcos => {
                // the hardware takes turns: x / (2π)
                let x = a(self, 0)?;
                let t = v1(self);
                self.valu(
                    Opcode::VMulF32,
                    &[Arg::Temp(t)],
                    vec![Arg::Const(0x3e22_f983), x],
                )?;
                let n = if op == Fsin {
                    Opcode::VSinF32
                } else {
                    Opcode::VCosF32
                };
                self.valu(n, &[dt], vec![Arg::Temp(t)])?;
            }
            Ineg => {
                let x = a(self, 0)?;
                self.valu(Opcode::VSubU32, &[dt], vec![Arg::Const(0), x])?;
            }
            FindLsb => {
                // -1 for 0, as GLSL findLSB
                let x = a(self, 0)?;
                self.valu(Opcode::VFfblB32, &[dt], vec![x])?;
            }
            UfindMsb | IfindMsb => {
                // the hardware counts from the top and gives -1 when there is no such bit
                let x = a(self, 0)?;
                let c = v1(self);
                let n = if op == UfindMsb {
                    Opcode::VFfbhU32
                } else {
                    Opcode::VFfbhI32
                };
                self.valu(n, &[Arg::Temp(c)], vec![x])?;
                let r = v1(self);
                self.valu(
                    Opcode::VSubU32,
                    &[Arg::Temp(r)],
                    vec![Arg::Const(31), Arg::Temp(c)],
                )?;
                let none = self.tmp(self.mask_rc());
                self.valu(
                    Opcode::VCmpEqU32,
                    &[Arg::Temp(none)],
                    vec![Arg::Const(u32::MAX), Arg::Temp(c)],
                )?;
                self.valu(
                    Opcode::VCndmaskB32,
                    &[dt],
                    vec![Arg::Temp(r), Arg::Const(u32::MAX), Arg::Temp(none)],
                )?;
            }
            Isign => {
                let x = a(self, 0)?;
                self.valu(
                    Opcode::VMed3I32,
                    &[dt],
                    vec![x, Arg::Const(u32::MAX), Arg::Const(1)],
                )?;
            }
            BitfieldInsert => {
                // base, insert, offset, bits
                let (base, ins, off, bits) = (a(self, 0)?, a(self, 1)?, a(self, 2)?, a(self, 3)?);
                let m = v1(self);
                self.valu(Opcode::VBfmB32, &[Arg::Temp(m)], vec![bits, off])?;
                let sh = v1(self);
                self.valu(Opcode::VLshlrevB32, &[Arg::Temp(sh)], vec![off, ins])?;
                self.valu(
                    Opcode::VBfiB32,
                    &[dt],
                    vec![Arg::Temp(m), Arg::Temp(sh), base],
                )?;
            }
            Fsign => {
                let x = a(self, 0)?;
                let gt = self.tmp(self.mask_rc());
                self.valu(Opcode::VCmpLtF32, &[Arg::Temp(gt)], vec![Arg::Const(0), x])?;
                let t = v1(self);
                self.valu(
                    Opcode::VCndmaskB32,
                    &[Arg::Temp(t)],
                    vec![x, Arg::Const(0x3f80_0000), Arg::Temp(gt)],
                )?;
                let lt = self.tmp(self.mask_rc());
                self.valu(Opcode::VCmpGtF32, &[Arg::Temp(lt)], vec![Arg::Const(0), x])?;
                self.valu(
                    Opcode::VCndmaskB32,
                    &[dt],
                    vec![Arg::Temp(t), Arg::Const(0xbf80_0000), Arg::Temp(lt)],
                )?;
            }
            Flrp => {
                // x + (y - x) * t
                let (x, y, t) = (a(self, 0)?, a(self, 1)?, a(self, 2)?);
                let d = v1(self);
                self.valu(Opcode::VSubF32, &[Arg::Temp(d)], vec![y, x])?;
                self.valu(Opcode::VFmaF32, &[dt], vec![Arg::Temp(d), t, x])?;
            }
            Fpow => {
                let x = a(self, 0)?;
                let y = a(self, 1)?;
                let l = v1(self);
                self.valu(Opcode::VLogF32, &[Arg::Temp(l)], vec![x])?;
                let m = v1(self);
                self.valu(Opcode::VMulF32, &[Arg::Temp(m)], vec![y, Arg::Temp(l)])?;
                self.valu(Opcode::VExpF32, &[dt], vec![Arg::Temp(m)])?;
            }
            UsubBorrow => {
                let x = a(self, 0)?;
                let y = a(self, 1)?;
                let y = Arg::Temp(self.to_vgpr(y)?);
                let dif = v1(self);
                let c = self.tmp(self.mask_rc());
                self.valu(
                    Opcode::VSubCoU32,
                    &[Arg::Temp(dif), Arg::Temp(c)],
                    vec![x, y],
                )?;
                self.valu(
                    Opcode::VCndmaskB32,
                    &[dt],
                    vec![Arg::Const(0), Arg::Const(1), Arg::Temp(c)],
                )?;
            }
            UaddCarry => {
                let x = a(self, 0)?;
                let y = a(self, 1)?;
                let sum = v1(self);
                let c = self.tmp(self.mask_rc());
                self.valu(
                    Opcode::VAddCoU32,
                    &[Arg::Temp(sum), Arg::Temp(c)],
                    vec![x, y],
                )?;
                self.valu(
                    Opcode::VCndmaskB32,
                    &[dt],
                    vec![Arg::Const(0), Arg::Const(1), Arg::Temp(c)],
                )?;
            }
            Udiv | Umod | Idiv | Irem | Imod => {
                let x = a(self, 0)?;
                let y = a(self, 1)?;
                let r = match op {
                    Udiv => self.udivrem(x, y)?.0,
                    Umod => self.udivrem(x, y)?.1,
                    Idiv => self.sdivrem(x, y, "div")?,
                    Irem => self.sdivrem(x, y, "rem")?,
                    _ => self.sdivrem(x, y, "mod")?,
                };
                let Arg::Temp(t) = r else { unreachable!() };
                return Ok(MV::T(t, Kind::Plain));
            }
            Iabs => {
                let x = a(self, 0)?;
                let n = v1(self);
                self.valu(Opcode::VSubU32, &[Arg::Temp(n)], vec![Arg::Const(0), x])?;
                self.valu(Opcode::VMaxI32, &[dt], vec![x, Arg::Temp(n)])?;
            }
            Bcsel => {
                let kk = src_comp(f, srcs[0], c);
                let m = self.mask(srcs[0], kk)?;
                let x = a(self, 1)?;
                let y = a(self, 2)?;
                self.valu(Opcode::VCndmaskB32, &[dt], vec![y, x, m])?;
            }
            B2f | B2i => {
                let m = self.mask(srcs[0], c)?;
                let one = if op == B2f { 0x3f80_0000 } else { 1 };
                self.valu(
                    Opcode::VCndmaskB32,
                    &[dt],
                    vec![Arg::Const(0), Arg::Const(one), m],
                )?;
            }
            U2u | I2i => {
                let x = a(self, 0)?;
                return match x {
                    Arg::Const(k) => Ok(MV::C(k as u64)),
                    Arg::Temp(t) => Ok(MV::T(t, Kind::Plain)),
                    _ => unreachable!(),
                };
            }
            IbitfieldExtract | UbitfieldExtract => {
                let (x, y, z) = (a(self, 0)?, a(self, 1)?, a(self, 2)?);
                let n = if op == IbitfieldExtract {
                    Opcode::VBfeI32
                } else {
                    Opcode::VBfeU32
                };
                self.valu(n, &[dt], vec![x, y, z])?;
            }
            BitCount => {
                let x = a(self, 0)?;
                self.valu(Opcode::VBcntU32B32, &[dt], vec![x, Arg::Const(0)])?;
            }
            _ => return Err(Error::unsupported(at, format!("ALU op {}", op.name()))),
        }
        Ok(MV::T(d, Kind::Plain))
    }

    /// 1-bit logic: lane masks for divergent values, 0/1 SGPRs for uniform ones.
    fn bool_op(
        &mut self,
        i: Value,
        op: AluOp,
        srcs: &[Value],
        c: usize,
        div: bool,
    ) -> Result<MV, Error> {
        use AluOp::*;
        let f = self.f;
        let at = Some(i.index() as u32);
        let kk = |k: usize| src_comp(f, srcs[k], c);
        if f.ty(i).bits == 64 {
            return self.alu64(i, op, srcs, c, div);
        }
        if f.ty(i).bits != 1 {
            // bcsel on non-bool data with a bool condition
            if op == Bcsel || op == B2f || op == B2i {
                return if div {
                    self.valu_comp(i, op, srcs, c)
                } else {
                    self.alu_comp_uniform_sel(i, op, srcs, c)
                };
            }
            return Err(Error::unsupported(
                at,
                format!("{} with 1-bit sources", op.name()),
            ));
        }
        if div {
            let x = self.mask(srcs[0], kk(0))?;
            let d = self.tmp(self.mask_rc());
            let dt = Arg::Temp(d);
            match op {
                Iand | Ior | Ixor => {
                    let y = self.mask(srcs[1], kk(1))?;
                    let o = match op {
                        Iand => Opcode::SAndB32,
                        Ior => Opcode::SOrB32,
                        _ => Opcode::SXorB32,
                    };
                    self.hw_lane(o, &[dt], &[x, y])?;
                }
                Inot => {
                    let e = self.p.exec();
                    self.hw_lane(Opcode::SAndn2B32, &[dt], &[e, x])?;
                }
                Ieq | Ine => {
                    let y = self.mask(srcs[1], kk(1))?;
                    let o = if op == Ine {
                        Opcode::SXorB32
                    } else {
                        Opcode::SXnorB32
                    };
                    self.hw_lane(o, &[dt], &[x, y])?;
                }
                Bcsel => {
                    let y = self.mask(srcs[1], kk(1))?;
                    let z = self.mask(srcs[2], kk(2))?;
                    let t1 = self.tmp(self.mask_rc());
                    let t2 = self.tmp(self.mask_rc());
                    self.hw_lane(Opcode::SAndB32, &[Arg::Temp(t1)], &[x, y])?;
                    self.hw_lane(Opcode::SAndn2B32, &[Arg::Temp(t2)], &[z, x])?;
                    self.hw_lane(Opcode::SOrB32, &[dt], &[Arg::Temp(t1), Arg::Temp(t2)])?;
                }
                Mov => return Ok(self.get(srcs[0], kk(0))?),
                _ => {
                    return Err(Error::unsupported(
                        at,
                        format!("{} on lane masks", op.name()),
                    ))
                }
            }
            return Ok(MV::T(d, Kind::Mask));
        }
        let x = self.ubool(srcs[0], kk(0))?;
        let d = self.tmp(RegClass::S1);
        let dt = Arg::Temp(d);
        let x = self.sgpr_or_const(x)?;
        match op {
            Iand | Ior | Ixor | Ieq | Ine => {
                let y = self.ubool(srcs[1], kk(1))?;
                let y = self.sgpr_or_const(y)?;
                match op {
                    Iand => self.salu(Opcode::SAndB32, &[dt], vec![x, y])?,
                    Ior => self.salu(Opcode::SOrB32, &[dt], vec![x, y])?,
                    Ixor | Ine => self.salu(Opcode::SXorB32, &[dt], vec![x, y])?,
                    _ => {
                        let t = self.tmp(RegClass::S1);
                        self.salu(Opcode::SXorB32, &[Arg::Temp(t)], vec![x, y])?;
                        self.salu(Opcode::SXorB32, &[dt], vec![Arg::Temp(t), Arg::Const(1)])?;
                    }
                }
            }
            Inot => self.salu(Opcode::SXorB32, &[dt], vec![x, Arg::Const(1)])?,
            Bcsel => {
                let y = self.ubool(srcs[1], kk(1))?;
                let z = self.ubool(srcs[2], kk(2))?;
                let y = self.sgpr_or_const(y)?;
                let z = self.sgpr_or_const(z)?;
                let xs = Arg::Temp(self.to_sgpr(x)?);
                self.hw(Opcode::SCmpLgU32, &[], &[xs, Arg::Const(0)])?;
                self.salu(Opcode::SCselectB32, &[dt], vec![y, z])?;
            }
            _ => {
                return Err(Error::unsupported(
                    at,
                    format!("{} on uniform bools", op.name()),
                ))
            }
        }
        Ok(MV::T(d, Kind::UBool))
    }

    fn alu_comp_uniform_sel(
        &mut self,
        i: Value,
        op: AluOp,
        srcs: &[Value],
        c: usize,
    ) -> Result<MV, Error> {
        let f = self.f;
        let kk = |k: usize| src_comp(f, srcs[k], c);
        let cnd = self.ubool(srcs[0], kk(0))?;
        let cnd = Arg::Temp(self.to_sgpr(cnd)?);
        let (x, y) = match op {
            AluOp::Bcsel => {
                let x = self.arg(srcs[1], kk(1))?;
                let y = self.arg(srcs[2], kk(2))?;
                (self.sgpr_or_const(x)?, self.sgpr_or_const(y)?)
            }
            AluOp::B2f => (Arg::Const(0x3f80_0000), Arg::Const(0)),
            _ => (Arg::Const(1), Arg::Const(0)),
        };
        if f.ty(i).bits == 64 {
            return Err(Error::unsupported(
                Some(i.index() as u32),
                "64-bit uniform select",
            ));
        }
        self.hw(Opcode::SCmpLgU32, &[], &[cnd, Arg::Const(0)])?;
        let d = self.tmp(RegClass::S1);
        self.salu(Opcode::SCselectB32, &[Arg::Temp(d)], vec![x, y])?;
        Ok(MV::T(d, Kind::Plain))
    }

    /// A divergent 32-bit `iadd`/`ior` one of whose operands is a divergent shift left by
    /// a constant or the same operation, as one three-operand instruction (GFX9 and
    /// later): `v_lshl_add_u32`, `v_add3_u32`, `v_lshl_or_b32`, `v_or3_b32`. Not when an
    /// operand is a constant: `x + c` stays an add for `fold_address_offsets` to take into
    /// a memory offset, and a literal would need a register in GFX9's VOP3. The inner
    /// operation is still selected on its own; dead-code elimination removes it when this
    /// was its only reader, and otherwise the count is what it was.
    fn three_operand(&mut self, op: AluOp, srcs: &[Value], c: usize) -> Result<Option<MV>, Error> {
        let f = self.f;
        if !matches!(op, AluOp::Iadd | AluOp::Ior) {
            return Ok(None);
        }
        let konst = |v: Value| f.as_const(v).is_some();
        let at = |v: Value, c: usize| (v, src_comp(f, v, c));
        if srcs.iter().any(|&v| konst(v)) {
            return Ok(None);
        }
        let fused = (0..2).find_map(|k| {
            let inner = srcs[k];
            let other = at(srcs[1 - k], c);
            let InstKind::Alu { op: iop, srcs: is } = f.kind(inner) else {
                return None;
            };
            if f.ty(inner).bits != 32 || !self.div.is_divergent(inner) {
                return None;
            }
            let ic = src_comp(f, inner, c);
            match *iop {
                AluOp::Ishl => {
                    let n = *f.as_const(is[1])?.get(src_comp(f, is[1], ic))? as u32 & 31;
                    let code = if op == AluOp::Iadd {
                        Opcode::VLshlAddU32
                    } else {
                        Opcode::VLshlOrB32
                    };
                    Some((code, at(is[0], ic), None, n, other))
                }
                o if o == op && !konst(is[0]) && !konst(is[1]) => {
                    let code = if op == AluOp::Iadd {
                        Opcode::VAdd3U32
                    } else {
                        Opcode::VOr3B32
                    };
                    Some((code, at(is[0], ic), Some(at(is[1], ic)), 0, other))
                }
                _ => None,
            }
        });
        let Some((code, x, y, n, z)) = fused else {
            return Ok(None);
        };
        let mid = match y {
            Some(y) => self.arg(y.0, y.1)?,
            None => Arg::Const(n),
        };
        let args = vec![self.arg(x.0, x.1)?, mid, self.arg(z.0, z.1)?];
        let d = self.tmp(RegClass::V1);
        self.valu(code, &[Arg::Temp(d)], args)?;
        Ok(Some(MV::T(d, Kind::Plain)))
    }

    /// Divergent 32-bit products chosen by operand size ([`Isel::fits_u24`]): an `imul` of
    /// two operands below 2^24 is `v_mul_u32_u24`; an `iadd` of such a product and anything
    /// but a constant is `v_mad_u32_u24`; an `ishl` by a constant of a product by a
    /// constant is one product by the shifted constant (24-bit when both fit). The low 32
    /// bits of a 24×24-bit product are those `v_mul_lo_u32` gives; the VOP2 form takes a
    /// literal where GFX9's VOP3 takes none. The product the add or shift reads is still
    /// selected on its own; dead-code elimination removes it when that was its only reader.
    fn small_product(&mut self, op: AluOp, srcs: &[Value], c: usize) -> Result<Option<MV>, Error> {
        let f = self.f;
        // the operands of a product `op(x, y)` at component `c`, when both are below 2^24
        let small = |s: &Self, x: Value, y: Value, c: usize| -> Option<[(Value, usize); 2]> {
            let x = (x, src_comp(f, x, c));
            let y = (y, src_comp(f, y, c));
            (s.fits_u24(x.0, x.1) && s.fits_u24(y.0, y.1)).then_some([x, y])
        };
        let (opcode, x, y, z) = match op {
            AluOp::Imul => match small(self, srcs[0], srcs[1], c) {
                Some([x, y]) => (Opcode::VMulU32U24, x, y, None),
                None => return Ok(None),
            },
            AluOp::Iadd => {
                let fused = (0..2).find_map(|k| {
                    let p = srcs[k];
                    let InstKind::Alu {
                        op: AluOp::Imul,
                        srcs: ps,
                    } = f.kind(p)
                    else {
                        return None;
                    };
                    if f.ty(p).bits != 32 || !self.div.is_divergent(p) {
                        return None;
                    }
                    let [x, y] = small(self, ps[0], ps[1], src_comp(f, p, c))?;
                    let other = srcs[1 - k];
                    // `x · y + c` stays an add: `fold_address_offsets` takes c into the
                    // offset field, and one product then serves every offset
                    if f.as_const(other).is_some() {
                        return None;
                    }
                    Some((x, y, (other, src_comp(f, other, c))))
                });
                match fused {
                    Some((x, y, z)) => (Opcode::VMadU32U24, x, y, Some(z)),
                    None => return Ok(None),
                }
            }
            // (y · c) << k as y · (c << k): the shift goes, and the product may fit 24 bits
            AluOp::Ishl => {
                let p = srcs[0];
                let (
                    Some(k),
                    InstKind::Alu {
                        op: AluOp::Imul,
                        srcs: ps,
                    },
                ) = (f.as_scalar_const(srcs[1]), f.kind(p))
                else {
                    return Ok(None);
                };
                if f.ty(p).bits != 32 || !self.div.is_divergent(p) {
                    return Ok(None);
                }
                let pc = src_comp(f, p, c);
                let Some((y, m)) = (0..2).find_map(|j| {
                    let m = f.as_const(ps[j])?;
                    let m = *m.get(src_comp(f, ps[j], pc))?;
                    let y = ps[1 - j];
                    Some(((y, src_comp(f, y, pc)), m))
                }) else {
                    return Ok(None);
                };
                let m = (m << (k & 31)) as u32;
                let x = self.arg(y.0, y.1)?;
                let n = if self.fits_u24(y.0, y.1) && m < 1 << 24 {
                    Opcode::VMulU32U24
                } else {
                    Opcode::VMulLoU32
                };
                let d = self.tmp(RegClass::V1);
                self.valu(n, &[Arg::Temp(d)], vec![x, Arg::Const(m)])?;
                return Ok(Some(MV::T(d, Kind::Plain)));
            }
            _ => return Ok(None),
        };
        let mut args = vec![self.arg(x.0, x.1)?, self.arg(y.0, y.1)?];
        if let Some(z) = z {
            args.push(self.arg(z.0, z.1)?);
        }
        let d = self.tmp(RegClass::V1);
        self.valu(opcode, &[Arg::Temp(d)], args)?;
        Ok(Some(MV::T(d, Kind::Plain)))
    }
}

fn scalar_cmp(op: AluOp) -> Option<Opcode> {
    use AluOp::*;
    Some(match op {
        Ieq => Opcode::SCmpEqU32,
        Ine => Opcode::SCmpLgU32,
        Ilt => Opcode::SCmpLtI32,
        Ige => Opcode::SCmpGeI32,
        Ult => Opcode::SCmpLtU32,
        Uge => Opcode::SCmpGeU32,
        _ => return None,
    })
}

fn vector_cmp(op: AluOp) -> Option<Opcode> {
    use AluOp::*;
    Some(match op {
        Flt => Opcode::VCmpLtF32,
        Fge => Opcode::VCmpGeF32,
        Feq => Opcode::VCmpEqF32,
        Fneu => Opcode::VCmpNeqF32,
        Fltu => Opcode::VCmpNgeF32,
        Fgeu => Opcode::VCmpNltF32,
        Fequ => Opcode::VCmpNlgF32,
        Fneo => Opcode::VCmpLgF32,
        Ieq => Opcode::VCmpEqU32,
        Ine => Opcode::VCmpNeU32,
        Ilt => Opcode::VCmpLtI32,
        Ige => Opcode::VCmpGeI32,
        Ult => Opcode::VCmpLtU32,
        Uge => Opcode::VCmpGeU32,
        _ => return None,
    })
}
