//! 8- and 16-bit buffer access (storageBuffer8BitAccess / 16BitAccess,
//! uniformAndStorageBuffer*BitAccess): one MUBUF instruction per component.
//!
//! Loads use `buffer_load_ubyte` / `buffer_load_ushort` (GFX11: `_u8` / `_u16`), which
//! zero-extend into the 32-bit register — a valid representation under `alu16.rs`'s
//! invariant (upper bits undefined). UBOs take the same vector path: SMEM has no
//! sub-dword loads. Stores use `buffer_store_byte` / `buffer_store_short` (GFX11: `_b8` /
//! `_b16`), which write the low bits of the data VGPR. A component k lives at byte offset
//! `k · bytes` from the value's offset (the front-end's std430/scalar layout of narrow
//! vectors is tightly packed).

use super::{Isel, Kind, MV};
use crate::amdgpu::mir::{Arg, RegClass, Temp};
use crate::amdgpu::Error;
use crate::ir::Value;
use smallvec::SmallVec;

impl Isel<'_> {
    /// `comps` components of `bits` (8 or 16) each at `off`.
    pub(super) fn buffer_load_narrow(
        &mut self,
        res: Temp,
        off: MV,
        bits: u8,
        comps: u8,
    ) -> Result<SmallVec<[MV; 4]>, Error> {
        let (va, imm) = self.vaddr(off)?;
        let name = if bits == 8 {
            "buffer_load_ubyte|buffer_load_u8"
        } else {
            "buffer_load_ushort|buffer_load_u16"
        };
        let bytes = bits as u32 / 8;
        let mut out = SmallVec::new();
        for k in 0..comps as u32 {
            let d = self.tmp(RegClass::V1);
            let (va, at) = self.rebase(va, imm + k * bytes)?;
            self.mubuf(
                name,
                &[Arg::Temp(d)],
                &[Arg::Temp(va), Arg::Temp(res), Arg::Const(0)],
                at,
            )?;
            self.narrow.zero_extended(d, bits);
            out.push(MV::T(d, Kind::Plain));
        }
        Ok(out)
    }

    /// Stores the components of the 8/16-bit value `v` that `mask` selects.
    pub(super) fn buffer_store_narrow(
        &mut self,
        v: Value,
        res: Temp,
        off: MV,
        mask: u32,
    ) -> Result<(), Error> {
        let ty = self.f.ty(v);
        let name = if ty.bits == 8 {
            "buffer_store_byte|buffer_store_b8"
        } else {
            "buffer_store_short|buffer_store_b16"
        };
        let bytes = ty.bits as u32 / 8;
        let (va, imm) = self.vaddr(off)?;
        for k in 0..ty.comps as u32 {
            if mask >> k & 1 == 0 {
                continue;
            }
            let a = self.arg(v, k as usize)?;
            let data = self.to_vgpr(a)?;
            let (va, at) = self.rebase(va, imm + k * bytes)?;
            self.mubuf(
                name,
                &[],
                &[
                    Arg::Temp(data),
                    Arg::Temp(va),
                    Arg::Temp(res),
                    Arg::Const(0),
                ],
                at,
            )?;
        }
        Ok(())
    }
}
