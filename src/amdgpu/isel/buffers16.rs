//! 8- and 16-bit memory access (storageBuffer8BitAccess / 16BitAccess,
//! uniformAndStorageBuffer*BitAccess, storagePushConstant8/16, 8/16-bit shared, scratch
//! and device-address memory): one sub-dword instruction per component, so a store never
//! touches the bytes around it.
//!
//! Loads use the zero-extending forms — `buffer_load_ubyte` / `_ushort`, `ds_read_u8` /
//! `_u16`, `scratch_load_ubyte` / `_ushort`, `global_load_ubyte` / `_ushort` (GFX11: `_u8`
//! / `_u16`) — whose result is a valid representation under `alu16.rs`'s invariant (upper
//! bits undefined) and is recorded as already zero-extended. Stores use `buffer_store_byte`
//! / `_short`, `ds_write_b8` / `_b16`, `scratch_store_byte` / `_short`,
//! `global_store_byte` / `_short` (GFX11: `_b8` / `_b16`), which write the low bits of the
//! data VGPR. A component k lives at byte offset `k · bytes` from the value's offset (the
//! front-end's std430/scalar layout of narrow vectors is tightly packed). UBOs take the
//! vector path: SMEM has no sub-dword loads.
//!
//! This file holds the buffer and push-constant forms and the per-component loops
//! ([`Isel::narrow_loads`], [`Isel::narrow_stores`]) the shared (`lds.rs`), scratch
//! (`scratch.rs`) and global (`global.rs`) forms share, each beside its address space's
//! addressing.
//!
//! 8/16-bit push constants (storagePushConstant8/16) at constant offsets: `s_load_dword`
//! of the dword holding each component, shifted right by its byte position
//! (`s_lshr_b32`; the upper bits are left as they fall). At a dynamic offset they are
//! `global_load_ubyte` / `_ushort` off the push-constant pointer (`saddr`) with the offset
//! in a VGPR.

use super::global::GAddr;
use super::{Isel, Kind, MV};
use crate::amdgpu::mir::{Arg, RegClass, Temp};
use crate::amdgpu::Error;
use crate::ir::{ValType, Value};
use crate::isa::Opcode;
use smallvec::SmallVec;
use std::collections::BTreeMap;

impl Isel<'_> {
    /// `comps` zero-extended components of `bits` (8 or 16) each: `load(self, byte, dst)`
    /// emits the load of the component at byte `byte` from the value's start into the V1
    /// temp `dst`.
    pub(super) fn narrow_loads(
        &mut self,
        bits: u8,
        comps: u8,
        mut load: impl FnMut(&mut Self, u32, Temp) -> Result<(), Error>,
    ) -> Result<SmallVec<[MV; 4]>, Error> {
        let bytes = bits as u32 / 8;
        let mut out = SmallVec::new();
        for k in 0..comps as u32 {
            let d = self.tmp(RegClass::V1);
            load(self, k * bytes, d)?;
            self.narrow.zero_extended(d, bits);
            out.push(MV::T(d, Kind::Plain));
        }
        Ok(out)
    }

    /// The components of the 8/16-bit value `v` that `mask` selects, each moved to a VGPR
    /// and passed to `store(self, byte, data)` with its byte offset from the value's start.
    pub(super) fn narrow_stores(
        &mut self,
        v: Value,
        mask: u32,
        mut store: impl FnMut(&mut Self, u32, Temp) -> Result<(), Error>,
    ) -> Result<(), Error> {
        let ty = self.f.ty(v);
        let bytes = ty.bits as u32 / 8;
        for k in 0..ty.comps as u32 {
            if mask >> k & 1 == 0 {
                continue;
            }
            let a = self.arg(v, k as usize)?;
            let data = self.to_vgpr(a)?;
            store(self, k * bytes, data)?;
        }
        Ok(())
    }

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
        self.narrow_loads(bits, comps, |s, byte, d| {
            let (va, at) = s.rebase(va, imm + byte)?;
            s.mubuf(
                name,
                &[Arg::Temp(d)],
                &[Arg::Temp(va), Arg::Temp(res), Arg::Const(0)],
                at,
            )
        })
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
        let c = match off {
            MV::C(c) => c,
            MV::T(t, _) => {
                let v = self.to_vgpr(Arg::Temp(t))?;
                return self.global_load_narrow_at(GAddr::based(p, v), ty.bits, ty.comps);
            }
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
        let name = if self.f.ty(v).bits == 8 {
            Opcode::BufferStoreByte
        } else {
            Opcode::BufferStoreShort
        };
        let (va, imm) = self.vaddr(off)?;
        self.narrow_stores(v, mask, |s, byte, data| {
            let (va, at) = s.rebase(va, imm + byte)?;
            s.mubuf(
                name,
                &[],
                &[
                    Arg::Temp(data),
                    Arg::Temp(va),
                    Arg::Temp(res),
                    Arg::Const(0),
                ],
                at,
            )
        })
    }
}
