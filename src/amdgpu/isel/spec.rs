//! Specialization constants known only at link (unlinked compiles, docs/link.md):
//! `load_spec_constant` becomes a uniform SGPR value whose bits come from a 32-bit SALU
//! literal relocated against `gcnc.spec.<SpecId>`.
//!
//! A 32-bit constant is `s_mov_b32 d, gcnc.spec.N@abs32@lo`; a boolean is masked to 0/1
//! (`s_and_b32 d, lit, 1`, the uniform-bool form), so a branch on it is an ordinary
//! uniform branch on SCC and both alternatives are compiled — the link picks one by the
//! value it writes. Wider or narrower constants cannot ride in one literal: the front-end
//! refuses them in unlinked mode.

use super::{Isel, Kind, MV};
use crate::amdgpu::mir::{Arg, RegClass};
use crate::amdgpu::Error;
use crate::binary::prelink::PrelinkSymbol;
use crate::ir::ValType;
use crate::isa::Opcode;

impl Isel<'_> {
    pub(super) fn spec_constant(
        &mut self,
        ty: ValType,
        idx: &[u32],
        at: Option<u32>,
    ) -> Result<MV, Error> {
        let id = *idx
            .first()
            .ok_or_else(|| Error::unsupported(at, "load_spec_constant without a SpecId"))?;
        if ty.comps != 1 || !matches!(ty.bits, 1 | 32) {
            return Err(Error::unsupported(
                at,
                format!("link-time specialization constant of type {ty:?}"),
            ));
        }
        let sym = self.p.symbol(PrelinkSymbol::SpecConst(id));
        let d = self.tmp(RegClass::S1);
        if ty.bits == 1 {
            self.hw(Opcode::SAndB32, &[Arg::Temp(d)], &[sym, Arg::Const(1)])?;
            Ok(MV::T(d, Kind::UBool))
        } else {
            self.hw(Opcode::SMovB32, &[Arg::Temp(d)], &[sym])?;
            Ok(MV::T(d, Kind::Plain))
        }
    }
}
