//! Storage and uniform buffers through MUBUF: `buffer_load_dword*` / `buffer_store_dword*`
//! on a raw V# with the byte offset in a VGPR (`offen`) plus the 12-bit immediate.
//!
//! Scalar loads: a uniform load at a uniform, dword-aligned offset is `s_buffer_load_*`
//! when the memory cannot change during the dispatch: every UBO, and an SSBO load that
//! `lower_explicit_io` marked [`ACCESS_CAN_REORDER`] (a `NonWritable` variable, a
//! `Restrict` one never written, or a module that writes no buffer, global memory or
//! image; never volatile or coherent). That is ACO's rule (`visit_load_ssbo`: SMEM only
//! with NIR's `ACCESS_CAN_REORDER`, which `nir_opt_access` derives the same way): the
//! scalar cache is not kept coherent with vector stores, so a scalar load of memory the
//! dispatch writes could return stale data. A uniform offset in an SGPR is the
//! instruction's `soffset` (the V# keeps its base and range, so out-of-range dwords still
//! read 0 as `buffer_load` would); a constant one is the immediate (unsigned 20 bits on
//! GFX9, so larger ones go through an SGPR). SMEM ignores the two low address bits
//! (GFX9/GFX10.3/GFX11), so only dword-aligned offsets (the load's `align` ≥ 4, a
//! constant offset a multiple of 4) are scalar. Every other load goes through MUBUF; a
//! uniform IR value loaded through the VALU is read back into SGPRs.
//!
//! Descriptor loads of an unlinked compile (the descriptor layout is missing,
//! docs/link.md): the binding's byte offset and array stride are 32-bit SALU literals
//! relocated against `gcnc.desc.<set>.<binding>.buffer.{offset,stride}`; the V# is then
//! `s_load_dwordx4` at `set pointer + index · stride + offset`. One literal per instruction
//! (every SALU encoding allows exactly one).

use super::mask_runs;
use super::{Isel, Kind, MV};
use crate::amdgpu::mir::{Arg, MInst, Pseudo, RegClass, Temp};
use crate::amdgpu::Error;
use crate::binary::prelink::{DescKind, PrelinkSymbol};
use crate::ir::{Intrinsic, ValType, Value, ACCESS_CAN_REORDER};
use crate::isa::{Format, Opcode};
use smallvec::SmallVec;

impl Isel<'_> {
    /// The `dwords`-dword descriptor of `kind` of `set`/`binding` element `index` from
    /// the set pointer `ptr`, its offset and stride left to the link stage.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn descriptor_relocated(
        &mut self,
        ptr: Temp,
        set: u32,
        binding: u32,
        kind: DescKind,
        dwords: u8,
        index: MV,
        at: Option<u32>,
    ) -> Result<Temp, Error> {
        let off = self
            .p
            .symbol(PrelinkSymbol::DescOffset { set, binding, kind });
        let scaled = match index {
            MV::C(0) => None,
            MV::C(c) => {
                let c = c as u32;
                let n = if c <= 64 {
                    Arg::Const(c)
                } else {
                    Arg::Temp(self.to_sgpr(Arg::Const(c))?)
                };
                Some(n)
            }
            MV::T(t, _) if self.p.rc(t).is_sgpr() => Some(Arg::Temp(t)),
            MV::T(..) => return Err(Error::unsupported(at, "divergent descriptor index")),
        };
        let byte = match scaled {
            None => off,
            Some(n) => {
                let stride = self
                    .p
                    .symbol(PrelinkSymbol::DescStride { set, binding, kind });
                let s = self.tmp(RegClass::S1);
                self.hw(Opcode::SMulI32, &[Arg::Temp(s)], &[n, stride])?;
                let d = self.tmp(RegClass::S1);
                self.hw(Opcode::SAddU32, &[Arg::Temp(d)], &[Arg::Temp(s), off])?;
                Arg::Temp(d)
            }
        };
        let a = self.add_addr(ptr, byte)?;
        self.s_load(a, 0, dwords)
    }

    /// The V# of a buffer resource value (uniform).
    pub(super) fn resource(&mut self, v: Value, at: Option<u32>) -> Result<Temp, Error> {
        match self.get(v, 0)? {
            MV::T(res, _) if self.p.rc(res) == RegClass::S4 => Ok(res),
            _ => Err(Error::unsupported(
                at,
                "buffer resource is not a uniform descriptor",
            )),
        }
    }

    /// `load_ubo` / `load_ssbo` `i` (sources: resource, byte offset): SMEM where the
    /// module doc's rule allows it, MUBUF otherwise.
    pub(super) fn load_buffer(
        &mut self,
        i: Value,
        op: Intrinsic,
        srcs: &[Value],
        idx: &[u32],
    ) -> Result<SmallVec<[MV; 4]>, Error> {
        let at = Some(i.index() as u32);
        let ty = self.f.ty(i);
        let res = self.resource(srcs[0], at)?;
        let off = self.get(srcs[1], 0)?;
        if ty.bits == 8 || ty.bits == 16 {
            let words = self.buffer_load_narrow(res, off, ty.bits, ty.comps)?;
            return self.regroup(i, words, ty);
        }
        if ty.bits != 32 && ty.bits != 64 {
            return Err(Error::unsupported(
                at,
                format!("{}-bit buffer loads", ty.bits),
            ));
        }
        let dwords = ty.comps * (ty.bits / 32);
        let (unchanging, align) = match op {
            Intrinsic::LoadSsbo => (idx[0] & ACCESS_CAN_REORDER != 0, idx[1]),
            _ => (true, idx[0]),
        };
        let scalar_offset = match off {
            MV::C(c) => c % 4 == 0,
            MV::T(t, _) => self.p.rc(t).is_sgpr() && align >= 4,
        };
        let words = if unchanging && scalar_offset && !self.div.is_divergent(i) {
            self.s_buffer_load(res, off, dwords)?
        } else {
            self.buffer_load(res, off, dwords)?
        };
        self.regroup(i, words, ty)
    }

    /// `s_buffer_load_dword*` of `dwords` dwords at the uniform byte offset `off` (a
    /// constant or an SGPR), in pieces of at most four dwords.
    fn s_buffer_load(
        &mut self,
        res: Temp,
        off: MV,
        dwords: u8,
    ) -> Result<SmallVec<[MV; 4]>, Error> {
        // the offset operand and the immediate added to it
        let (soff, imm) = match off {
            MV::C(c) if c + 4 * u64::from(dwords) < 1 << 20 => (None, c as u32),
            MV::C(c) => (Some(self.to_sgpr(Arg::Const(c as u32))?), 0),
            MV::T(t, _) => (Some(t), 0),
        };
        let mut out = SmallVec::new();
        let mut k = 0u8;
        while k < dwords {
            // three dwords load as four (one instruction, not x2 + x1, as ACO does): a
            // buffer load reads dwords past num_records as 0, so the fourth never faults
            let n = match dwords - k {
                3 => 4,
                left => smem_piece(left),
            };
            let d = self.tmp(RegClass::s(n));
            let name = match n {
                1 => Opcode::SBufferLoadDword,
                2 => Opcode::SBufferLoadDwordx2,
                _ => Opcode::SBufferLoadDwordx4,
            };
            let at = imm + 4 * k as u32;
            let o = self.op(name)?;
            let mut m = match soff {
                None => MInst::hw(
                    o,
                    Format::Smem,
                    &[Arg::Temp(d)],
                    &[Arg::Temp(res), Arg::Imm(at)],
                ),
                Some(t) => MInst::hw(
                    o,
                    Format::Smem,
                    &[Arg::Temp(d)],
                    &[Arg::Temp(res), Arg::Temp(t)],
                ),
            };
            if soff.is_some() {
                m.mods.offset = at;
            }
            self.push(m);
            for p in self.split(d, n)?.into_iter().take(usize::from(dwords - k)) {
                out.push(MV::T(p, Kind::Plain));
            }
            k += n;
        }
        Ok(out)
    }

    /// Dword results of a load → components of an IR value of type `ty`.
    pub(super) fn regroup(
        &mut self,
        i: Value,
        words: SmallVec<[MV; 4]>,
        ty: ValType,
    ) -> Result<SmallVec<[MV; 4]>, Error> {
        let uniform = !self.div.is_divergent(i);
        let mut w: SmallVec<[MV; 4]> = SmallVec::new();
        for m in words {
            match m {
                MV::T(t, k) if uniform && !self.p.rc(t).is_sgpr() => {
                    w.push(MV::T(self.to_sgpr(Arg::Temp(t))?, k))
                }
                other => w.push(other),
            }
        }
        if ty.bits != 64 {
            return Ok(w);
        }
        let mut out = SmallVec::new();
        for pair in w.chunks(2) {
            let (MV::T(lo, _), MV::T(hi, _)) = (pair[0], pair[1]) else {
                unreachable!("loads produce temps")
            };
            let rc = RegClass {
                dwords: 2,
                ..self.p.rc(lo)
            };
            let d = self.tmp(rc);
            self.push(MInst::pseudo(
                Pseudo::CreateVector,
                &[Arg::Temp(d)],
                &[Arg::Temp(lo), Arg::Temp(hi)],
            ));
            out.push(MV::T(d, Kind::Plain));
        }
        Ok(out)
    }

    pub(super) fn mubuf(
        &mut self,
        op: Opcode,
        defs: &[Arg],
        ops: &[Arg],
        imm: u32,
    ) -> Result<(), Error> {
        let o = self.op(op)?;
        let mut m = MInst::hw(o, Format::Mubuf, defs, ops);
        m.mods.mem.offen = true;
        m.mods.mem.offset = imm as i32;
        self.push(m);
        Ok(())
    }

    /// The byte offset as a VGPR plus the immediate part (< 4096).
    pub(super) fn vaddr(&mut self, off: MV) -> Result<(Temp, u32), Error> {
        match off {
            MV::C(c) if c < 4096 => Ok((self.to_vgpr(Arg::Const(0))?, c as u32)),
            MV::C(c) => Ok((self.to_vgpr(Arg::Const(c as u32))?, 0)),
            MV::T(t, _) => Ok((self.to_vgpr(Arg::Temp(t))?, 0)),
        }
    }

    /// `va + byte`, keeping the immediate below 4096.
    pub(super) fn rebase(&mut self, va: Temp, byte: u32) -> Result<(Temp, u32), Error> {
        if byte < 4096 {
            return Ok((va, byte));
        }
        let t = self.tmp(RegClass::V1);
        self.valu(
            Opcode::VAddU32,
            &[Arg::Temp(t)],
            vec![Arg::Const(byte), Arg::Temp(va)],
        )?;
        Ok((t, 0))
    }

    /// `buffer_load_dword*` of `dwords` dwords at `off`.
    pub(super) fn buffer_load(
        &mut self,
        res: Temp,
        off: MV,
        dwords: u8,
    ) -> Result<SmallVec<[MV; 4]>, Error> {
        let (va, imm) = self.vaddr(off)?;
        let mut out = SmallVec::new();
        let mut k = 0u8;
        while k < dwords {
            let n = (dwords - k).min(4);
            let d = self.tmp(RegClass::v(n));
            let name = match n {
                1 => Opcode::BufferLoadDword,
                2 => Opcode::BufferLoadDwordx2,
                3 => Opcode::BufferLoadDwordx3,
                _ => Opcode::BufferLoadDwordx4,
            };
            let (va, at) = self.rebase(va, imm + 4 * k as u32)?;
            self.mubuf(
                name,
                &[Arg::Temp(d)],
                &[Arg::Temp(va), Arg::Temp(res), Arg::Const(0)],
                at,
            )?;
            for p in self.split(d, n)? {
                out.push(MV::T(p, Kind::Plain));
            }
            k += n;
        }
        Ok(out)
    }

    /// `buffer_store_dword*` of the components of `v` selected by `mask`, one store per
    /// contiguous run of at most four dwords.
    pub(super) fn buffer_store(
        &mut self,
        v: Value,
        res: Temp,
        off: MV,
        mask: u32,
        at: Option<u32>,
    ) -> Result<(), Error> {
        let ty = self.f.ty(v);
        if ty.bits != 32 && ty.bits != 64 {
            return Err(Error::unsupported(
                at,
                format!("{}-bit buffer stores", ty.bits),
            ));
        }
        let per = (ty.bits / 32) as u32;
        let (va, imm) = self.vaddr(off)?;
        for (c, end) in mask_runs(ty.comps as u32, mask, per, 4) {
            let dw = self.vgpr_dwords(v, c, end)?;
            let n = dw.len();
            let data = Arg::Temp(self.vgpr_tuple(&dw));
            let name = match n {
                1 => Opcode::BufferStoreDword,
                2 => Opcode::BufferStoreDwordx2,
                3 => Opcode::BufferStoreDwordx3,
                _ => Opcode::BufferStoreDwordx4,
            };
            let (va2, byte) = self.rebase(va, imm + 4 * per * c)?;
            self.mubuf(
                name,
                &[],
                &[data, Arg::Temp(va2), Arg::Temp(res), Arg::Const(0)],
                byte,
            )?;
        }
        Ok(())
    }

    /// `buffer_atomic_*` with `glc` (returns the old value). The hardware writes the old
    /// value into the data register, so the data is copied into a fresh temp that the
    /// atomic also defines (a tied operand: `defs[0] == ops[0]`, listed in `multi_def`).
    pub(super) fn buffer_atomic(
        &mut self,
        res: Temp,
        off: MV,
        op: crate::ir::AtomicOp,
        data: &[Arg],
        want_result: bool,
        at: Option<u32>,
    ) -> Result<Option<Temp>, Error> {
        let name = super::global::atomic_opcode(false, op, false)
            .ok_or_else(|| Error::unsupported(at, format!("buffer atomic {}", op.name())))?;
        self.atomic_inst(name, res, off, data, want_result)
    }

    /// Compare-and-swap: data = (new, compare) in one 2-dword tuple; returns the old value.
    pub(super) fn buffer_cmpswap(
        &mut self,
        res: Temp,
        off: MV,
        cmp: Arg,
        new: Arg,
    ) -> Result<Temp, Error> {
        let t = self
            .atomic_inst(Opcode::BufferAtomicCmpswap, res, off, &[new, cmp], true)?
            .expect("returning");
        Ok(t)
    }

    fn atomic_inst(
        &mut self,
        op: Opcode,
        res: Temp,
        off: MV,
        data: &[Arg],
        rtn: bool,
    ) -> Result<Option<Temp>, Error> {
        let (va, imm) = self.vaddr(off)?;
        let n = data.len() as u8;
        let d = self.tmp(RegClass::v(n));
        let mut parts = Vec::new();
        for a in data {
            parts.push(Arg::Temp(self.to_vgpr(*a)?));
        }
        self.push(MInst::pseudo(Pseudo::CreateVector, &[Arg::Temp(d)], &parts));
        self.p.multi_def.insert(d);
        let o = self.op(op)?;
        let defs: Vec<Arg> = if rtn { vec![Arg::Temp(d)] } else { vec![] };
        let mut m = MInst::hw(
            o,
            Format::Mubuf,
            &defs,
            &[Arg::Temp(d), Arg::Temp(va), Arg::Temp(res), Arg::Const(0)],
        );
        m.mods.mem.offen = true;
        m.mods.mem.offset = imm as i32;
        m.mods.glc = rtn;
        self.push(m);
        if !rtn {
            return Ok(None);
        }
        if n == 1 {
            return Ok(Some(d));
        }
        // cmpswap returns the old value in the first dword
        let p = self.split(d, n)?;
        Ok(Some(p[0]))
    }

    /// A returning 64-bit `buffer_atomic_*_x2` (compare-swap when `cmp` is given): the
    /// data tuple (new value, then the compare value) is tied to the result like the
    /// 32-bit forms; the old value comes back in its first two dwords.
    pub(super) fn buffer_atomic64(
        &mut self,
        res: Temp,
        off: MV,
        op: Option<crate::ir::AtomicOp>,
        data: Arg,
        cmp: Option<Arg>,
        at: Option<u32>,
    ) -> Result<Temp, Error> {
        let name = match op {
            Some(op) => super::global::atomic_opcode(false, op, true).ok_or_else(|| {
                Error::unsupported(at, format!("64-bit buffer atomic {}", op.name()))
            })?,
            None => Opcode::BufferAtomicCmpswapX2,
        };
        let (va, imm) = self.vaddr(off)?;
        let mut parts = vec![Arg::Temp(self.to_vgpr(data)?)];
        if let Some(c) = cmp {
            parts.push(Arg::Temp(self.to_vgpr(c)?));
        }
        let n = 2 * parts.len() as u8;
        let d = self.tmp(RegClass::v(n));
        self.push(MInst::pseudo(Pseudo::CreateVector, &[Arg::Temp(d)], &parts));
        self.p.multi_def.insert(d);
        let o = self.op(name)?;
        let mut m = MInst::hw(
            o,
            Format::Mubuf,
            &[Arg::Temp(d)],
            &[Arg::Temp(d), Arg::Temp(va), Arg::Temp(res), Arg::Const(0)],
        );
        m.mods.mem.offen = true;
        m.mods.mem.offset = imm as i32;
        m.mods.glc = true;
        self.push(m);
        if n == 2 {
            return Ok(d);
        }
        let p = self.split(d, n)?;
        let r = self.tmp(RegClass::V2);
        self.push(MInst::pseudo(
            Pseudo::CreateVector,
            &[Arg::Temp(r)],
            &[Arg::Temp(p[0]), Arg::Temp(p[1])],
        ));
        Ok(r)
    }
}

/// The dwords of the next SMEM load when `left` remain: 1, 2 or 4 (there is no
/// three-dword SMEM load before GFX12; three are two loads).
pub(super) fn smem_piece(left: u8) -> u8 {
    match left {
        1 => 1,
        2 | 3 => 2,
        _ => 4,
    }
}
