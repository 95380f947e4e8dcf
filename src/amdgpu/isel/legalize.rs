//! Emitting one legal ALU instruction, shared by every selection file (`alu`, `alu16`,
//! `alu64`, `f64`, ...): operand legalisation for VALU and SALU, the SCC/lane-mask
//! conversions and the per-component source rule.
//!
//! `valu` picks VOP1 for one source, VOP2 when the second source is a VGPR (swapping
//! commutative sources to get there), else VOP3; then enforces the constant-bus limit
//! (one scalar value per VALU instruction on GFX9, two on GFX10+; a literal counts) and
//! GFX9's "no literal in VOP3" by moving the excess into registers: a VOP3 literal into an
//! SGPR while the constant bus has room, anything else into a VGPR.
//!
//! Layering: this module calls only the builder primitives of `mod.rs`; the selection
//! files call it, and `alu` dispatches narrow types to `alu16`, which never calls `alu`.

use super::Isel;
use crate::amdgpu::mir::{Arg, MInst, Temp};
use crate::amdgpu::Error;
use crate::ir::Value;
use crate::isa::operand::Operand;
use crate::isa::Opcode;
use crate::isa::{tables, Format, Gen, Props};
use smallvec::SmallVec;

const F32_INLINE: [u32; 8] = [
    0x3f000000, 0xbf000000, 0x3f800000, 0xbf800000, 0x40000000, 0xc0000000, 0x40800000, 0xc0800000,
];

/// Whether a 32-bit constant has an inline encoding in a 32-bit operand.
pub fn is_inline32(c: u32) -> bool {
    Operand::int(c as i32).is_some() || F32_INLINE.contains(&c)
}

impl Isel<'_> {
    pub(super) fn is_vgpr(&self, a: &Arg) -> bool {
        matches!(a, Arg::Temp(t) if !self.p.rc(*t).is_sgpr())
    }

    /// Emits a VALU instruction with legalised sources.
    pub(crate) fn valu(
        &mut self,
        op: Opcode,
        defs: &[Arg],
        mut srcs: Vec<Arg>,
    ) -> Result<(), Error> {
        let o = self.op(op)?;
        let gen = self.t().gen;
        let has = |f| tables::form(gen, o, f).is_some();
        let commutative = o.props().contains(Props::COMMUTATIVE);
        // a uniform value read back from a VALU result: read the VGPR (no constant bus),
        // except in the lane-mask slot
        let mask_slot = o.props().contains(Props::MASK_SRC).then_some(2);
        for k in 0..srcs.len() {
            if Some(k) != mask_slot {
                if let Some(v) = self.origin_of(srcs[k]) {
                    srcs[k] = Arg::Temp(v);
                }
            }
        }
        let sdst_is_mask =
            defs.len() == 1 && matches!(defs[0], Arg::Temp(t) if self.p.rc(t).is_sgpr());
        let mut fmt = if srcs.len() == 1 && has(Format::Vop1) {
            Format::Vop1
        } else if srcs.len() == 2 && has(Format::Vop2) && !sdst_is_mask && defs.len() == 1 {
            if !self.is_vgpr(&srcs[1]) && commutative && self.is_vgpr(&srcs[0]) {
                srcs.swap(0, 1);
            }
            if self.is_vgpr(&srcs[1]) {
                Format::Vop2
            } else {
                Format::Vop3
            }
        } else {
            Format::Vop3
        };
        if !has(fmt) {
            fmt = Format::Vop3;
        }
        if !has(fmt) {
            return Err(Error::unsupported(
                None,
                format!("{}: no VALU form", o.name()),
            ));
        }
        // literals
        let lit_ok = fmt != Format::Vop3 || gen != Gen::Gfx9;
        let mut lit: Option<u32> = None;
        for k in 0..srcs.len() {
            if let Arg::Const(c) = srcs[k] {
                if is_inline32(c) {
                    continue;
                }
                let only_src0 = matches!(fmt, Format::Vop1 | Format::Vop2) && k != 0;
                if !lit_ok || only_src0 || lit.is_some_and(|l| l != c) {
                    // a VOP3 source may be an SGPR: there the constant takes the constant
                    // bus if it is free (ACO's choice too), so that one `s_mov_b32` can
                    // serve every reader of the block (`number_values` merges those)
                    let bus_free = fmt == Format::Vop3
                        && self.scalar_sources(&srcs) + (lit.is_some() as usize)
                            < gen.info().constant_bus;
                    srcs[k] = Arg::Temp(if bus_free {
                        self.to_sgpr(Arg::Const(c))?
                    } else {
                        self.to_vgpr(Arg::Const(c))?
                    });
                } else {
                    lit = Some(c);
                }
            }
        }
        // constant bus: distinct scalar registers plus the literal
        let limit = gen.info().constant_bus;
        loop {
            if self.scalar_sources(&srcs) + lit.is_some() as usize <= limit {
                break;
            }
            // move the last scalar source that is not the lane-mask operand (src2 of
            // v_cndmask / carry-in) into a VGPR
            let k = (0..srcs.len())
                .rev()
                .find(|&k| Some(k) != mask_slot && matches!(srcs[k], Arg::Temp(t) if self.p.rc(t).is_sgpr() && self.p.rc(t).dwords == 1))
                .ok_or_else(|| Error::unsupported(None, format!("{}: constant bus", o.name())))?;
            srcs[k] = Arg::Temp(self.to_vgpr(srcs[k])?);
        }
        self.push(MInst::hw(o, fmt, defs, &srcs));
        Ok(())
    }

    /// How many distinct scalar registers `srcs` reads (each takes the constant bus).
    fn scalar_sources(&self, srcs: &[Arg]) -> usize {
        let mut scalars: SmallVec<[Arg; 3]> = SmallVec::new();
        for a in srcs {
            let scalar = match a {
                Arg::Temp(t) => self.p.rc(*t).is_sgpr(),
                Arg::Reg(r) => !r.base.is_vgpr(),
                _ => false,
            };
            if scalar && !scalars.contains(a) {
                scalars.push(*a);
            }
        }
        scalars.len()
    }

    /// Emits a SALU instruction; a second distinct literal is moved to an SGPR first.
    pub(crate) fn salu(
        &mut self,
        op: Opcode,
        defs: &[Arg],
        mut srcs: Vec<Arg>,
    ) -> Result<(), Error> {
        let mut lit = None;
        for k in 0..srcs.len() {
            if let Arg::Const(c) = srcs[k] {
                if is_inline32(c) {
                    continue;
                }
                if lit.is_some_and(|l| l != c) {
                    srcs[k] = Arg::Temp(self.to_sgpr(Arg::Const(c))?);
                } else {
                    lit = Some(c);
                }
            }
        }
        self.hw(op, defs, &srcs)
    }

    /// SCC as a uniform bool: `s_cselect_b32 d, 1, 0` (the caller allocates the S1 `d`, so
    /// the temps keep their order).
    pub(super) fn scc_to_bool(&mut self, d: Temp) -> Result<(), Error> {
        self.hw(
            Opcode::SCselectB32,
            &[Arg::Temp(d)],
            &[Arg::Const(1), Arg::Const(0)],
        )
    }

    /// SCC = whether any active lane of the lane mask `mask` is set (`m` = mask & exec, a
    /// mask-class temp the caller allocates): a uniform compare computed on the VALU.
    pub(super) fn any_active_to_scc(&mut self, mask: Temp, m: Temp) -> Result<(), Error> {
        let e = self.p.exec();
        self.hw_lane(Opcode::SAndB32, &[Arg::Temp(m)], &[Arg::Temp(mask), e])?;
        self.hw_lane(Opcode::SCmpLgU32, &[], &[Arg::Temp(m), Arg::Const(0)])
    }

    pub(super) fn sgpr_or_const(&mut self, a: Arg) -> Result<Arg, Error> {
        match a {
            Arg::Const(_) => Ok(a),
            _ => Ok(Arg::Temp(self.to_sgpr(a)?)),
        }
    }
}

/// The component of source `v` that component `c` of a result reads: a scalar source is
/// broadcast to every component.
pub(super) fn src_comp(f: &crate::ir::Function, v: Value, c: usize) -> usize {
    if f.ty(v).comps == 1 {
        0
    } else {
        c
    }
}
