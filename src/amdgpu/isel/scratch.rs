//! Selection of the IR's `load_scratch` / `store_scratch`: per-lane addresses into the
//! function's scratch slot, then the MIR-level accesses of [`crate::amdgpu::scratch`] (the
//! module register allocation uses for spill slots too); 8/16-bit values one byte/short
//! access per component (`buffers16.rs`).

use super::mask_runs;
use super::{Isel, Kind, MV};
use crate::amdgpu::mir::{Arg, RegClass};
use crate::amdgpu::scratch::{load, load_narrow, store, store_narrow, Addr};
use crate::amdgpu::Error;
use crate::ir::Value;
use smallvec::SmallVec;

/// `a` plus `byte` bytes.
fn at_byte(a: Addr, byte: u32) -> Addr {
    match a {
        Addr::Const(x) => Addr::Const(x + byte),
        Addr::Vgpr(t, x) => Addr::Vgpr(t, x + byte),
    }
}

impl Isel<'_> {
    /// The per-lane scratch address of an IR byte offset `off` into the slot at `base`.
    fn scratch_addr(&mut self, base: u32, off: MV) -> Result<Addr, Error> {
        Ok(match off {
            MV::C(c) => Addr::Const(base + c as u32),
            MV::T(t, _) => {
                let v = self.to_vgpr(Arg::Temp(t))?;
                Addr::Vgpr(v, base)
            }
        })
    }

    /// `load_scratch`: the value's dwords from the function's scratch slot.
    pub(super) fn load_scratch(
        &mut self,
        i: Value,
        off: Value,
        base: u32,
    ) -> Result<SmallVec<[MV; 4]>, Error> {
        let at = Some(i.index() as u32);
        let ty = self.f.ty(i);
        if ty.bits == 8 || ty.bits == 16 {
            self.use_scratch();
            let o = self.get(off, 0)?;
            let a = self.scratch_addr(base, o)?;
            let words = self.narrow_loads(ty.bits, ty.comps, |s, byte, d| {
                for m in load_narrow(&mut s.p, d, at_byte(a, byte), ty.bits) {
                    s.push(m);
                }
                Ok(())
            })?;
            return self.regroup(i, words, ty);
        }
        if ty.bits != 32 && ty.bits != 64 {
            return Err(Error::unsupported(
                at,
                format!("{}-bit scratch loads", ty.bits),
            ));
        }
        self.use_scratch();
        let dwords = ty.comps * (ty.bits / 32);
        let o = self.get(off, 0)?;
        let a = self.scratch_addr(base, o)?;
        let d = self.tmp(RegClass::v(dwords));
        for m in load(&mut self.p, d, a) {
            self.push(m);
        }
        let mut words = SmallVec::new();
        for p in self.split(d, dwords)? {
            words.push(MV::T(p, Kind::Plain));
        }
        self.regroup(i, words, ty)
    }

    /// `store_scratch`: the components of `v` selected by `mask`, one store per contiguous
    /// run.
    pub(super) fn store_scratch(
        &mut self,
        v: Value,
        off: Value,
        base: u32,
        mask: u32,
        at: Option<u32>,
    ) -> Result<(), Error> {
        let ty = self.f.ty(v);
        if ty.bits == 8 || ty.bits == 16 {
            self.use_scratch();
            let o = self.get(off, 0)?;
            let a = self.scratch_addr(base, o)?;
            return self.narrow_stores(v, mask, |s, byte, data| {
                for m in store_narrow(&mut s.p, data, at_byte(a, byte), ty.bits) {
                    s.push(m);
                }
                Ok(())
            });
        }
        if ty.bits != 32 && ty.bits != 64 {
            return Err(Error::unsupported(
                at,
                format!("{}-bit scratch stores", ty.bits),
            ));
        }
        self.use_scratch();
        let per = ty.bits / 32;
        let o = self.get(off, 0)?;
        let a = self.scratch_addr(base, o)?;
        for (c, end) in mask_runs(ty.comps as u32, mask, per as u32, u32::MAX) {
            let dw = self.vgpr_dwords(v, c, end)?;
            let data = self.vgpr_tuple(&dw);
            let a2 = at_byte(a, 4 * per as u32 * c);
            for m in store(&mut self.p, data, a2) {
                self.push(m);
            }
        }
        Ok(())
    }

    /// Makes room for the module's scratch (`ir::Module::scratch_size`) once.
    fn use_scratch(&mut self) {
        let want = self.m.scratch_size.next_multiple_of(4);
        if self.p.scratch_bytes < want {
            self.p.scratch_bytes = want;
        }
    }
}
