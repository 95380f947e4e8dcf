//! Intrinsics: system values, push constants, descriptors and uniform buffer loads.
//!
//! Memory instructions beyond SMEM (MUBUF/GLOBAL/DS) are not in the ISA tables yet, so
//! divergent loads, stores, atomics and shared memory are reported as unsupported rather
//! than guessed. Where the inputs come from is the ABI in `amdgpu::abi`.

use super::{Isel, Kind, MV};
use crate::amdgpu::abi::DescriptorKind;
use crate::amdgpu::mir::{Arg, MInst, Pseudo, RegClass, Temp};
use crate::amdgpu::Error;
use crate::binary::prelink::DescKind;
use crate::ir::{Intrinsic, Value};
use crate::isa::Gen;
use crate::isa::Opcode;
use smallvec::SmallVec;

impl Isel<'_> {
    pub(super) fn input(
        &mut self,
        slot: fn(&mut super::Inputs) -> &mut Option<Temp>,
        rc: RegClass,
    ) -> Temp {
        if let Some(t) = *slot(&mut self.inputs) {
            return t;
        }
        let t = self.tmp(rc);
        *slot(&mut self.inputs) = Some(t);
        t
    }

    fn tid(&mut self, c: usize) -> Result<Temp, Error> {
        let packed = self.t().gen == Gen::Gfx11;
        let raw = match (packed, c) {
            (true, _) | (false, 0) => self.input(|i| &mut i.tid[0], RegClass::V1),
            (false, 1) => {
                self.input(|i| &mut i.tid[0], RegClass::V1);
                self.input(|i| &mut i.tid[1], RegClass::V1)
            }
            _ => {
                self.input(|i| &mut i.tid[0], RegClass::V1);
                self.input(|i| &mut i.tid[1], RegClass::V1);
                self.input(|i| &mut i.tid[2], RegClass::V1)
            }
        };
        if !packed {
            return Ok(raw);
        }
        // GFX11: v0 = x | y << 10 | z << 20
        let d = self.tmp(RegClass::V1);
        self.valu(
            Opcode::VBfeU32,
            &[Arg::Temp(d)],
            vec![Arg::Temp(raw), Arg::Const(10 * c as u32), Arg::Const(10)],
        )?;
        Ok(d)
    }

    fn tgid(&mut self, c: usize) -> Temp {
        match c {
            0 => self.input(|i| &mut i.tgid[0], RegClass::S1),
            1 => self.input(|i| &mut i.tgid[1], RegClass::S1),
            _ => self.input(|i| &mut i.tgid[2], RegClass::S1),
        }
    }

    /// An SMEM load of `dwords` from a 64-bit address temp plus a constant byte offset.
    pub(super) fn s_load(&mut self, base: Temp, offset: u32, dwords: u8) -> Result<Temp, Error> {
        let d = self.tmp(RegClass::s(dwords));
        let n = match dwords {
            1 => Opcode::SLoadDword,
            2 => Opcode::SLoadDwordx2,
            4 => Opcode::SLoadDwordx4,
            8 => Opcode::SLoadDwordx8,
            _ => unreachable!(),
        };
        self.hw(n, &[Arg::Temp(d)], &[Arg::Temp(base), Arg::Imm(offset)])?;
        Ok(d)
    }

    /// `base + off` for a 64-bit SGPR address and a uniform 32-bit byte offset.
    pub(super) fn add_addr(&mut self, base: Temp, off: Arg) -> Result<Temp, Error> {
        let p = self.split(base, 2)?;
        let (lo, hi) = self.add_lo_hi(p[0], p[1], off)?;
        let d = self.tmp(RegClass::S2);
        self.push(MInst::pseudo(
            Pseudo::CreateVector,
            &[Arg::Temp(d)],
            &[Arg::Temp(lo), Arg::Temp(hi)],
        ));
        Ok(d)
    }

    /// The 64-bit SGPR pair `lo:hi` plus a uniform 32-bit `off` (`s_add_u32`/`s_addc_u32`):
    /// the new low and high halves.
    fn add_lo_hi(&mut self, lo: Temp, hi: Temp, off: Arg) -> Result<(Temp, Temp), Error> {
        let (l, h) = (self.tmp(RegClass::S1), self.tmp(RegClass::S1));
        self.salu(Opcode::SAddU32, &[Arg::Temp(l)], vec![Arg::Temp(lo), off])?;
        self.salu(
            Opcode::SAddcU32,
            &[Arg::Temp(h)],
            vec![Arg::Temp(hi), Arg::Const(0)],
        )?;
        Ok((l, h))
    }

    /// Loads `comps` dwords at a uniform byte offset from a 64-bit pointer, as dword temps.
    pub(super) fn load_dwords(
        &mut self,
        base: Temp,
        off: MV,
        comps: u8,
        at: Option<u32>,
    ) -> Result<SmallVec<[MV; 4]>, Error> {
        let (base, imm) = match off {
            MV::C(c) if c < (1 << 19) => (base, c as u32),
            MV::C(c) => (self.add_addr(base, Arg::Const(c as u32))?, 0),
            MV::T(t, _) if self.p.rc(t).is_sgpr() => (self.add_addr(base, Arg::Temp(t))?, 0),
            MV::T(..) => {
                return Err(Error::unsupported(
                    at,
                    "a divergent offset for a scalar load (the caller chooses a vector load)",
                ))
            }
        };
        let mut out = SmallVec::new();
        let mut k = 0u8;
        while k < comps {
            let n = super::buffers::smem_piece(comps - k);
            let t = self.s_load(base, imm + 4 * k as u32, n)?;
            for p in self.split(t, n)? {
                out.push(MV::T(p, Kind::Plain));
            }
            k += n;
        }
        Ok(out)
    }

    /// The V# of `set`/`binding` (array element `index`).
    fn descriptor(
        &mut self,
        set: u32,
        binding: u32,
        index: MV,
        at: Option<u32>,
    ) -> Result<Temp, Error> {
        if set >= super::super::abi::MAX_SETS {
            // the layout check below gives the error
            self.layout.binding_offset(set, binding)?;
        }
        self.descriptor_of(
            set,
            binding,
            DescriptorKind::Buffer,
            false,
            DescKind::Buffer,
            4,
            index,
            at,
        )
    }

    /// The `dwords`-dword descriptor of `set`/`binding` (array element `index`), a
    /// binding of `kind` in the layout; `sampler_half` reads the S# of a combined
    /// image+sampler element. An unlinked compile leaves offset and stride to the link
    /// stage (`reloc` names them).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn descriptor_of(
        &mut self,
        set: u32,
        binding: u32,
        kind: DescriptorKind,
        sampler_half: bool,
        reloc: DescKind,
        dwords: u8,
        index: MV,
        at: Option<u32>,
    ) -> Result<Temp, Error> {
        let ptr = match set {
            0 => self.input(|i| &mut i.set_ptr[0], RegClass::S2),
            1 => self.input(|i| &mut i.set_ptr[1], RegClass::S2),
            2 => self.input(|i| &mut i.set_ptr[2], RegClass::S2),
            3 => self.input(|i| &mut i.set_ptr[3], RegClass::S2),
            4 => self.input(|i| &mut i.set_ptr[4], RegClass::S2),
            5 => self.input(|i| &mut i.set_ptr[5], RegClass::S2),
            _ => self.input(|i| &mut i.set_ptr[6], RegClass::S2),
        };
        if self.link.descriptor_layout {
            return self.descriptor_relocated(ptr, set, binding, reloc, dwords, index, at);
        }
        let slot = self.layout.slot(set, binding, kind)?;
        let off = slot.offset + if sampler_half { slot.sampler_offset } else { 0 };
        match index {
            MV::C(c) => {
                let o = off as u64 + slot.stride as u64 * c;
                if o >= (1 << 19) {
                    return Err(Error::Layout(format!("descriptor offset {o} too large")));
                }
                self.s_load(ptr, o as u32, dwords)
            }
            MV::T(t, _) if self.p.rc(t).is_sgpr() => {
                let scaled = self.tmp(RegClass::S1);
                let (op, by) = match slot.stride {
                    s if s.is_power_of_two() => (Opcode::SLshlB32, s.trailing_zeros()),
                    s => (Opcode::SMulI32, s),
                };
                self.salu(op, &[Arg::Temp(scaled)], vec![Arg::Temp(t), Arg::Const(by)])?;
                let a = self.add_addr(ptr, Arg::Temp(scaled))?;
                self.s_load(a, off, dwords)
            }
            MV::T(..) => Err(Error::unsupported(at, "divergent descriptor index")),
        }
    }

    /// `vulkan_resource_index`: the buffer descriptor (V#) of an array element. A
    /// divergent (`nonuniformEXT`) index stays the index VGPR, and each user of the
    /// descriptor runs in a waterfall loop (`image.rs`, [`Isel::waterfall`]), as image
    /// descriptors do.
    pub(super) fn vulkan_resource_index(
        &mut self,
        srcs: &[Value],
        idx: &[u32],
        at: Option<u32>,
    ) -> Result<SmallVec<[MV; 4]>, Error> {
        let index = self.get(srcs[0], 0)?;
        if let MV::T(v, _) = index {
            if !self.p.rc(v).is_sgpr() {
                return Ok(SmallVec::from_slice(&[MV::T(v, Kind::Plain)]));
            }
        }
        let set = idx.first().copied().unwrap_or(0);
        let binding = idx.get(1).copied().unwrap_or(0);
        let d = self.descriptor(set, binding, index, at)?;
        Ok(SmallVec::from_slice(&[MV::T(d, Kind::Plain)]))
    }

    pub(super) fn intrinsic(
        &mut self,
        i: Value,
        op: Intrinsic,
        srcs: &[Value],
        idx: &[u32],
    ) -> Result<SmallVec<[MV; 4]>, Error> {
        use Intrinsic::*;
        let f = self.f;
        let ty = f.ty(i);
        let at = Some(i.index() as u32);
        let mut out: SmallVec<[MV; 4]> = SmallVec::new();
        if let Some(v) = self.gfx_intrinsic(i, op, srcs, idx)? {
            return Ok(v);
        }
        match op {
            LoadLocalInvocationId => {
                for c in 0..ty.comps as usize {
                    if self.m.local_size[c] == 1 {
                        out.push(MV::C(0));
                    } else {
                        out.push(MV::T(self.tid(c)?, Kind::Plain));
                    }
                }
            }
            LoadWorkgroupId => {
                for c in 0..ty.comps as usize {
                    out.push(MV::T(self.tgid(c), Kind::Plain));
                }
            }
            LoadGlobalInvocationId => {
                // workgroup id × size + local id: the id itself when the size is 1 (the
                // local id is 0), one v_lshl_add_u32 for a power-of-two size
                for c in 0..ty.comps as usize {
                    let g = self.tgid(c);
                    let size = self.m.local_size[c];
                    if size == 1 {
                        out.push(MV::T(g, Kind::Plain));
                        continue;
                    }
                    let l = self.tid(c)?;
                    let d = self.tmp(RegClass::V1);
                    if size.is_power_of_two() {
                        self.valu(
                            Opcode::VLshlAddU32,
                            &[Arg::Temp(d)],
                            vec![
                                Arg::Temp(g),
                                Arg::Const(size.trailing_zeros()),
                                Arg::Temp(l),
                            ],
                        )?;
                    } else {
                        let base = self.tmp(RegClass::S1);
                        self.salu(
                            Opcode::SMulI32,
                            &[Arg::Temp(base)],
                            vec![Arg::Temp(g), Arg::Const(size)],
                        )?;
                        self.valu(
                            Opcode::VAddU32,
                            &[Arg::Temp(d)],
                            vec![Arg::Temp(base), Arg::Temp(l)],
                        )?;
                    }
                    out.push(MV::T(d, Kind::Plain));
                }
            }
            LoadLocalInvocationIndex => {
                let [sx, sy, _] = self.m.local_size;
                let x = if sx > 1 { Some(self.tid(0)?) } else { None };
                let mut acc = match x {
                    Some(t) => Arg::Temp(t),
                    None => Arg::Const(0),
                };
                for (c, stride) in [(1usize, sx), (2, sx * sy)] {
                    if self.m.local_size[c] > 1 {
                        let t = self.tid(c)?;
                        let d = self.tmp(RegClass::V1);
                        self.valu(
                            Opcode::VMadU32U24,
                            &[Arg::Temp(d)],
                            vec![Arg::Temp(t), Arg::Const(stride), acc],
                        )?;
                        acc = Arg::Temp(d);
                    }
                }
                out.push(match acc {
                    Arg::Temp(t) => MV::T(t, Kind::Plain),
                    _ => MV::C(0),
                });
            }
            LoadNumWorkgroups => {
                let p = self.input(|i| &mut i.workgroup_ptr, RegClass::S2);
                let v = self.load_dwords(p, MV::C(0), ty.comps, at)?;
                out.extend(v);
            }
            LoadSubgroupSize => out.push(MV::C(self.t().wave.lanes() as u64)),
            LoadSubgroupInvocation => {
                let lo = self.tmp(RegClass::V1);
                self.valu(
                    Opcode::VMbcntLoU32B32,
                    &[Arg::Temp(lo)],
                    vec![Arg::Const(u32::MAX), Arg::Const(0)],
                )?;
                if self.p.wave64() {
                    let hi = self.tmp(RegClass::V1);
                    self.valu(
                        Opcode::VMbcntHiU32B32,
                        &[Arg::Temp(hi)],
                        vec![Arg::Const(u32::MAX), Arg::Temp(lo)],
                    )?;
                    out.push(MV::T(hi, Kind::Plain));
                } else {
                    out.push(MV::T(lo, Kind::Plain));
                }
            }
            LoadPushConstant => {
                let p = self.input(|i| &mut i.push_ptr, RegClass::S2);
                let base = idx.first().copied().unwrap_or(0);
                out.extend(self.load_at_pointer(i, p, srcs[0], base, "push constant")?);
            }
            LoadConstant => {
                let base = idx.first().copied().unwrap_or(0);
                out.extend(self.load_constant(i, srcs[0], base)?);
            }
            VulkanResourceIndex => out.extend(self.vulkan_resource_index(srcs, idx, at)?),
            GetSsboSize => {
                // num_records, the V#'s dword 2: the buffer's size in bytes for the raw
                // buffer descriptors of the ABI (docs/abi.md)
                let res = self.resource(srcs[0], at)?;
                let words = self.split(res, 4)?;
                out.push(MV::T(words[2], Kind::Plain));
            }
            LoadUbo | LoadSsbo => out.extend(self.load_buffer(i, op, srcs, idx)?),
            SsboAtomic | SsboAtomicSwap => {
                let res = self.resource(srcs[0], at)?;
                let off = self.get(srcs[1], 0)?;
                if ty.bits != 32 && ty.bits != 64 {
                    return Err(Error::unsupported(
                        at,
                        format!("{}-bit buffer atomics", ty.bits),
                    ));
                }
                let t = if ty.bits == 64 {
                    let aop = (op == SsboAtomic).then(|| {
                        crate::ir::AtomicOp::ALL[idx.first().copied().unwrap_or(0) as usize]
                    });
                    let (a, b) = if op == SsboAtomic {
                        (self.arg(srcs[2], 0)?, None)
                    } else {
                        (self.arg(srcs[3], 0)?, Some(self.arg(srcs[2], 0)?))
                    };
                    self.buffer_atomic64(res, off, aop, a, b, at)?
                } else if op == SsboAtomic {
                    let aop = crate::ir::AtomicOp::ALL[idx.first().copied().unwrap_or(0) as usize];
                    let data = self.arg(srcs[2], 0)?;
                    self.buffer_atomic(res, off, aop, &[data], true, at)?
                        .unwrap()
                } else {
                    let cmp = self.arg(srcs[2], 0)?;
                    let new = self.arg(srcs[3], 0)?;
                    self.buffer_cmpswap(res, off, cmp, new)?
                };
                let t = if self.div.is_divergent(i) {
                    t
                } else {
                    self.to_sgpr(Arg::Temp(t))?
                };
                out.push(MV::T(t, Kind::Plain));
            }
            VoteAll | VoteAny | VoteIeq | VoteFeq | ReadFirstInvocation | Ballot
            | LoadNumSubgroups | LoadSubgroupId | Elect | BallotBitCountReduce => {
                out.extend(self.subgroup(i, op, srcs)?);
            }
            LoadSpecConstant => out.push(self.spec_constant(ty, idx, at)?),
            LoadShared | StoreShared | SharedAtomic | SharedAtomicSwap | Barrier => {
                out.extend(self.lds(i, op, srcs, idx)?);
            }
            LoadScratch => {
                let base = idx.first().copied().unwrap_or(0);
                out.extend(self.load_scratch(i, srcs[0], base)?);
            }
            StoreScratch => {
                let base = idx.first().copied().unwrap_or(0);
                let mask = idx.get(1).copied().unwrap_or(0xf);
                self.store_scratch(srcs[0], srcs[1], base, mask, at)?;
            }
            LoadGlobal if ty.bits == 8 || ty.bits == 16 => {
                let words = self.global_load_narrow(srcs[0], ty.bits, ty.comps)?;
                out.extend(self.regroup(i, words, ty)?);
            }
            LoadGlobal => {
                if ty.bits != 32 && ty.bits != 64 {
                    return Err(Error::unsupported(
                        at,
                        format!("{}-bit global loads", ty.bits),
                    ));
                }
                let words = self.global_load(srcs[0], ty.comps * (ty.bits / 32))?;
                out.extend(self.regroup(i, words, ty)?);
            }
            StoreGlobal => {
                let mask = idx.first().copied().unwrap_or(0xf);
                self.global_store(srcs[0], srcs[1], mask, at)?;
            }
            GlobalAtomic | GlobalAtomicSwap => {
                if ty.bits != 32 && ty.bits != 64 {
                    return Err(Error::unsupported(
                        at,
                        format!("{}-bit global atomics", ty.bits),
                    ));
                }
                let (aop, data, cmp) = if op == GlobalAtomic {
                    let aop = crate::ir::AtomicOp::ALL[idx.first().copied().unwrap_or(0) as usize];
                    (Some(aop), self.arg(srcs[1], 0)?, None)
                } else {
                    (None, self.arg(srcs[2], 0)?, Some(self.arg(srcs[1], 0)?))
                };
                let t = self.global_atomic(srcs[0], aop, data, cmp, ty.bits == 64, at)?;
                let words = self.split(t, self.p.rc(t).dwords)?;
                let words = words.into_iter().map(|w| MV::T(w, Kind::Plain)).collect();
                out.extend(self.regroup(i, words, ty)?);
            }
            Reduce | InclusiveScan | ExclusiveScan => {
                out.extend(self.subgroup_collective(i, op, srcs, idx)?);
            }
            Shuffle
            | ShuffleXor
            | ShuffleUp
            | ShuffleDown
            | QuadBroadcast
            | QuadSwapHorizontal
            | QuadSwapVertical
            | QuadSwapDiagonal
            | ReadInvocation
            | BallotBitExtract
            | BallotBitCountInclusive
            | BallotBitCountExclusive
            | BallotFindLsb
            | BallotFindMsb
            | InverseBallot
            | LoadSubgroupEqMask
            | LoadSubgroupGeMask
            | LoadSubgroupGtMask
            | LoadSubgroupLeMask
            | LoadSubgroupLtMask => {
                out.extend(self.subgroup_lanes(i, op, srcs)?);
            }
            StoreSsbo => {
                let res = self.resource(srcs[1], at)?;
                let off = self.get(srcs[2], 0)?;
                let mask = idx.first().copied().unwrap_or(0xf);
                if matches!(self.f.ty(srcs[0]).bits, 8 | 16) {
                    self.buffer_store_narrow(srcs[0], res, off, mask)?;
                } else {
                    self.buffer_store(srcs[0], res, off, mask, at)?;
                }
            }
            LoadDescriptor => out.extend(self.load_descriptor(i, srcs, idx)?),
            ImageLoad | ImageStore | ImageAtomic | ImageAtomicSwap | ImageSize | ImageSamples => {
                out.extend(self.image_intrinsic(i, op, srcs, idx)?)
            }
            ImageDerefLoad | ImageDerefStore | ImageDerefAtomic | ImageDerefAtomicSwap
            | ImageDerefSize | ImageDerefSamples => {
                return Err(Error::unsupported(
                    at,
                    "image access through a deref that is not an array of descriptors",
                ))
            }
            _ => {
                return Err(Error::unsupported(
                    at,
                    format!(
                        "intrinsic {} (needs memory encodings or is not a compute op)",
                        op.name()
                    ),
                ))
            }
        }
        Ok(out)
    }
}
