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
//!
//! 8/16-bit push constants (storagePushConstant8/16) at constant offsets: `s_load_dword`
//! of the dword holding each component, shifted right by its byte position
//! (`s_lshr_b32`; the upper bits are left as they fall).

use super::{Isel, Kind, MV};
use crate::amdgpu::mir::{Arg, RegClass, Temp};
use crate::amdgpu::Error;
use crate::ir::{ValType, Value};
use crate::isa::Opcode;
use smallvec::SmallVec;
use std::collections::BTreeMap;

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
            Opcode::BufferLoadUbyte
        } else {
            Opcode::BufferLoadUshort
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

    /// The components of an 8/16-bit push-constant value at byte offset `off` of the
    /// push-constant block `p` (a constant offset; the front-end's offsets into push
    /// constants are always constant).
    pub(super) fn push_constant_narrow(
        &mut self,
        p: Temp,
        off: MV,
        ty: ValType,
        at: Option<u32>,
    ) -> Result<SmallVec<[MV; 4]>, Error> {
        let MV::C(c) = off else {
            return Err(Error::unsupported(
                at,
                "8/16-bit push constant loads at a dynamic offset",
            ));
        };
        let bytes = ty.bits as u64 / 8;
        let mut words: BTreeMap<u64, MV> = BTreeMap::new();
        let mut out = SmallVec::new();
        for k in 0..ty.comps as u64 {
            let b = c + k * bytes;
            let w = match words.get(&(b & !3)) {
                Some(&w) => w,
                None => {
                    let w = self.load_dwords(p, MV::C(b & !3), 1, at)?[0];
                    words.insert(b & !3, w);
                    w
                }
            };
            let sh = (b & 3) as u32 * 8;
            if sh == 0 {
                out.push(w);
                continue;
            }
            let MV::T(wt, _) = w else {
                unreachable!("loads produce temps")
            };
            let d = self.tmp(RegClass::S1);
            self.salu(
                Opcode::SLshrB32,
                &[Arg::Temp(d)],
                vec![Arg::Temp(wt), Arg::Const(sh)],
            )?;
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
            Opcode::BufferStoreByte
        } else {
            Opcode::BufferStoreShort
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
