//! Selection of `load_constant` (the module's constant data, `lower_large_constants`) and
//! the one load-through-a-64-bit-pointer path it shares with push constants.
//!
//! The data is placed after the code (`emit`); its address is the SGPR pair of one
//! `p_constaddr` (`Pseudo::ConstDataAddr`), defined in the entry block right after
//! p_startpgm the first time a load needs it and expanded at emission into `s_getpc_b64`
//! plus the 64-bit distance to the data, as ACO's `p_constaddr` (Mesa
//! `aco_instruction_selection.cpp`, `load_constant`; RADV uploads a shader's constant data
//! right after its code, `radv_shader.c`). Each load then reads `address + base + offset`:
//! a uniform offset with SMEM (`s_load_dword*`, the scalar cache is fine for data nothing
//! writes), a divergent one with `global_load_dword*` from the pair plus a VGPR offset —
//! the same forms on GFX9, GFX10.3 and GFX11; 8- and 16-bit values one narrow access per
//! component (`buffers16.rs`).

use super::{Isel, Kind, MV};
use crate::amdgpu::mir::{Arg, MInst, Pseudo, RegClass, Temp};
use crate::amdgpu::Error;
use crate::ir::Value;
use crate::isa::Opcode;
use smallvec::SmallVec;

impl Isel<'_> {
    /// `load_constant`: the value at byte `base` + `off` of the constant data.
    pub(super) fn load_constant(
        &mut self,
        i: Value,
        off: Value,
        base: u32,
    ) -> Result<SmallVec<[MV; 4]>, Error> {
        let at = Some(i.index() as u32);
        let ty = self.f.ty(i);
        let end = u64::from(base) + u64::from(ty.comps) * u64::from(ty.bits.max(8) / 8);
        if self.m.constant_data.is_empty() || end > self.m.constant_data.len() as u64 {
            return Err(Error::unsupported(
                at,
                format!(
                    "load_constant at byte {base} beyond the module's {} bytes of constant data",
                    self.m.constant_data.len()
                ),
            ));
        }
        let p = self.input(|i| &mut i.const_data, RegClass::S2);
        self.load_at_pointer(i, p, off, base, "constant data")
    }

    /// The IR load `i` of byte `base` + `off` from the 64-bit address `p`: SMEM for a
    /// uniform offset, a global load for a divergent one. `what` names the memory in
    /// errors.
    pub(super) fn load_at_pointer(
        &mut self,
        i: Value,
        p: Temp,
        off: Value,
        base: u32,
        what: &str,
    ) -> Result<SmallVec<[MV; 4]>, Error> {
        let at = Some(i.index() as u32);
        let ty = self.f.ty(i);
        if ty.bits != 32 && ty.bits != 64 && ty.bits != 8 && ty.bits != 16 {
            return Err(Error::unsupported(
                at,
                format!("{}-bit {what} loads", ty.bits),
            ));
        }
        let dwords = ty.comps * (ty.bits / 32);
        let off = match self.get(off, 0)? {
            MV::C(c) => MV::C(c + u64::from(base)),
            MV::T(t, k) if base == 0 => MV::T(t, k),
            MV::T(t, _) if self.p.rc(t).is_sgpr() => {
                let d = self.tmp(RegClass::S1);
                self.salu(
                    Opcode::SAddU32,
                    &[Arg::Temp(d)],
                    vec![Arg::Temp(t), Arg::Const(base)],
                )?;
                MV::T(d, Kind::Plain)
            }
            MV::T(t, _) => {
                let d = self.tmp(RegClass::V1);
                self.valu(
                    Opcode::VAddU32,
                    &[Arg::Temp(d)],
                    vec![Arg::Const(base), Arg::Temp(t)],
                )?;
                MV::T(d, Kind::Plain)
            }
        };
        let mut out = SmallVec::new();
        if ty.bits == 8 || ty.bits == 16 {
            let words = self.push_constant_narrow(p, off, ty, at)?;
            out.extend(self.regroup(i, words, ty)?);
            return Ok(out);
        }
        let words = match off {
            // a divergent offset: a vector load off the pointer
            MV::T(t, _) if !self.p.rc(t).is_sgpr() => {
                self.global_load_at(super::global::GAddr::based(p, t), dwords)?
            }
            _ => self.load_dwords(p, off, dwords, at)?,
        };
        out.extend(self.regroup(i, words, ty)?);
        Ok(out)
    }

    /// Defines the constant data's address in the entry block, right after p_startpgm,
    /// when a load asked for it (called once selection is done).
    pub(super) fn place_const_data_addr(&mut self) {
        if let Some(t) = self.inputs.const_data {
            let def = MInst::pseudo(Pseudo::ConstDataAddr, &[Arg::Temp(t)], &[]);
            self.p.blocks[0].insts.insert(1, def);
            self.p.constant_data = self.m.constant_data.clone();
        }
    }
}
