//! Workgroup-shared memory (LDS) through the DS instructions, shared atomics, and
//! barriers.
//!
//! Design:
//! - Address: the IR's byte offset (a VGPR, or a constant moved into one) plus the
//!   intrinsic's constant `base`, which is folded into the DS instruction's 16-bit
//!   `offset` field (with any constant part of the address): `ds_read_b32 v, vaddr
//!   offset:base+4k`. A constant that does not fit is added on the VALU.
//! - Width: a contiguous run of dwords is accessed with the widest form the IR's
//!   alignment allows: `b128`/`b96` at 16-byte alignment, `b64` at 8, otherwise pairs of
//!   dwords with `read2`/`write2_b32` (offset0/offset1 in dword units, each below 256) and
//!   single `b32` accesses for what is left. 8/16-bit values: one `ds_read_u8`/`_u16` or
//!   `ds_write_b8`/`_b16` per component (`buffers16.rs`), so lanes writing neighbouring
//!   halves or bytes of one dword do not clobber each other.
//! - Atomics: the returning `_rtn` forms (the old value is the IR result); compare-swap is
//!   `ds_cmpst_rtn_b32` (DATA0 = compare, DATA1 = new) on GFX9/10.3 and
//!   `ds_cmpstore_rtn_b32` (DATA0 = new, DATA1 = compare) on GFX11; exchange is
//!   `ds_wrxchg_rtn` / `ds_storexchg_rtn`. 64-bit atomics use the `_u64`/`_b64` forms.
//! - M0: GFX9 and later do not read M0 for LDS accesses (only GFX8 and older used it as the
//!   LDS limit; LLVM's `ldsRequiresM0Init` is false from GFX9), so nothing is set up.
//! - Barriers (`barrier` intrinsic, SPIR-V scopes and semantics): a memory barrier waits for
//!   every outstanding memory access of the classes it orders — `lgkmcnt(0)` for
//!   workgroup memory, `vmcnt(0)` (+ `vscnt(0)` on GFX10+) for buffer/image memory — and,
//!   at device scope with acquire semantics, invalidates the vector L0/L1
//!   (`buffer_gl0_inv`/`buffer_gl1_inv` on GFX10+, `buffer_wbinvl1_vol` on GFX9). A
//!   workgroup execution barrier then waits for all counters and executes `s_barrier`,
//!   unless the whole workgroup is one wave (then only the memory part remains).
//! - The LDS size is the module's `shared_size` (set by `lower_explicit_io`), recorded in
//!   `Program::lds_bytes` → RSRC2 `LDS_SIZE` (512-byte granules), the metadata's
//!   `.lds_size` and the "LDS size" statistic.

use super::mask_runs;
use super::{Isel, Kind, MV};
use crate::amdgpu::mir::{Arg, MInst, RegClass, Temp};
use crate::amdgpu::passes::insert_waitcnt::wait_insts;
use crate::amdgpu::Error;
use crate::ir::{AtomicOp, Intrinsic, Value};
use crate::isa::Opcode;
use crate::isa::{Format, Gen};
use smallvec::SmallVec;

/// SPIR-V memory-semantics bits the barrier lowering reads.
mod sem {
    pub const ORDERING: u32 = 0x2 | 0x4 | 0x8 | 0x10;
    pub const ACQUIRE: u32 = 0x2 | 0x8 | 0x10;
    pub const UNIFORM: u32 = 0x40;
    pub const WORKGROUP: u32 = 0x100;
    pub const CROSS_WORKGROUP: u32 = 0x200;
    pub const IMAGE: u32 = 0x800;
}
/// SPIR-V scopes.
const SCOPE_DEVICE: u32 = 1;
const SCOPE_WORKGROUP: u32 = 2;

/// Largest DS offset field.
const MAX_OFFSET: u32 = 0xffff;

impl Isel<'_> {
    fn ds(&mut self, op: Opcode, defs: &[Arg], ops: &[Arg], offset: u32) -> Result<(), Error> {
        let o = self.op(op)?;
        let mut m = MInst::hw(o, Format::Ds, defs, ops);
        m.mods.mem.offset = offset as i32;
        self.push(m);
        Ok(())
    }

    /// The address VGPR and constant byte offset of an LDS access at `off + base`.
    fn lds_addr(&mut self, off: MV, base: u32) -> Result<(Temp, u32), Error> {
        match off {
            MV::C(c) => {
                let total = c as u32 + base;
                if total <= MAX_OFFSET {
                    Ok((self.to_vgpr(Arg::Const(0))?, total))
                } else {
                    Ok((self.to_vgpr(Arg::Const(total))?, 0))
                }
            }
            MV::T(t, _) => {
                let v = self.to_vgpr(Arg::Temp(t))?;
                Ok((v, base))
            }
        }
    }

    /// `(vaddr, offset)` with the offset below `limit`, adding on the VALU if needed.
    fn lds_rebase(&mut self, va: Temp, byte: u32, limit: u32) -> Result<(Temp, u32), Error> {
        if byte <= limit {
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

    /// Pieces `(first dword, dwords, two-address)` a run of `n` dwords is accessed in.
    fn lds_pieces(&self, n: u32, align: u32) -> Vec<(u32, u32, bool)> {
        let mut out = Vec::new();
        let mut k = 0;
        while k < n {
            let left = n - k;
            let piece = if align >= 16 && left >= 4 {
                (4, false)
            } else if align >= 16 && left == 3 {
                (3, false)
            } else if align >= 8 && left >= 2 {
                (2, false)
            } else if left >= 2 {
                (2, true)
            } else {
                (1, false)
            };
            out.push((k, piece.0, piece.1));
            k += piece.0;
        }
        out
    }

    fn load_shared(
        &mut self,
        i: Value,
        off: Value,
        base: u32,
        align: u32,
    ) -> Result<SmallVec<[MV; 4]>, Error> {
        let at = Some(i.index() as u32);
        let ty = self.f.ty(i);
        if ty.bits == 8 || ty.bits == 16 {
            let name = if ty.bits == 8 {
                Opcode::DsReadU8
            } else {
                Opcode::DsReadU16
            };
            let o = self.get(off, 0)?;
            let (va, imm) = self.lds_addr(o, base)?;
            let words = self.narrow_loads(ty.bits, ty.comps, |s, byte, d| {
                let (va2, b) = s.lds_rebase(va, imm + byte, MAX_OFFSET)?;
                s.ds(name, &[Arg::Temp(d)], &[Arg::Temp(va2)], b)
            })?;
            return self.regroup(i, words, ty);
        }
        if ty.bits != 32 && ty.bits != 64 {
            return Err(Error::unsupported(
                at,
                format!("{}-bit shared loads", ty.bits),
            ));
        }
        let n = (ty.comps as u32) * (ty.bits as u32 / 32);
        let o = self.get(off, 0)?;
        let (va, imm) = self.lds_addr(o, base)?;
        let mut words: SmallVec<[MV; 4]> = SmallVec::new();
        for (k, d, two) in self.lds_pieces(n, align) {
            let byte = imm + 4 * k;
            let dst = self.tmp(RegClass::v(d as u8));
            if two {
                // offset0/offset1 count dwords and are 8 bits each
                let (va2, b) = self.lds_rebase(va, byte, 4 * 254)?;
                let o0 = b / 4;
                if b % 4 == 0 {
                    self.ds(
                        Opcode::DsRead2B32,
                        &[Arg::Temp(dst)],
                        &[Arg::Temp(va2)],
                        o0 | (o0 + 1) << 8,
                    )?;
                } else {
                    self.ds(Opcode::DsReadB64, &[Arg::Temp(dst)], &[Arg::Temp(va2)], b)?;
                }
            } else {
                let name = match d {
                    1 => Opcode::DsReadB32,
                    2 => Opcode::DsReadB64,
                    3 => Opcode::DsReadB96,
                    _ => Opcode::DsReadB128,
                };
                let (va2, b) = self.lds_rebase(va, byte, MAX_OFFSET)?;
                self.ds(name, &[Arg::Temp(dst)], &[Arg::Temp(va2)], b)?;
            }
            for p in self.split(dst, d as u8)? {
                words.push(MV::T(p, Kind::Plain));
            }
        }
        self.regroup(i, words, ty)
    }

    fn store_shared(
        &mut self,
        v: Value,
        off: Value,
        base: u32,
        mask: u32,
        align: u32,
        at: Option<u32>,
    ) -> Result<(), Error> {
        let ty = self.f.ty(v);
        if ty.bits == 8 || ty.bits == 16 {
            let name = if ty.bits == 8 {
                Opcode::DsWriteB8
            } else {
                Opcode::DsWriteB16
            };
            let o = self.get(off, 0)?;
            let (va, imm) = self.lds_addr(o, base)?;
            return self.narrow_stores(v, mask, |s, byte, data| {
                let (va2, b) = s.lds_rebase(va, imm + byte, MAX_OFFSET)?;
                s.ds(name, &[], &[Arg::Temp(va2), Arg::Temp(data)], b)
            });
        }
        if ty.bits != 32 && ty.bits != 64 {
            return Err(Error::unsupported(
                at,
                format!("{}-bit shared stores", ty.bits),
            ));
        }
        let per = ty.bits as u32 / 32;
        let o = self.get(off, 0)?;
        let (va, imm) = self.lds_addr(o, base)?;
        for (c, end) in mask_runs(ty.comps as u32, mask, per, u32::MAX) {
            let dw = self.vgpr_dwords(v, c, end)?;
            // alignment of the run's start
            let run_align = if c == 0 {
                align
            } else {
                align.min(1 << (4 * per * c).trailing_zeros())
            };
            for (k, d, two) in self.lds_pieces(dw.len() as u32, run_align) {
                let byte = imm + 4 * per * c + 4 * k;
                let parts: Vec<Arg> = dw[k as usize..(k + d) as usize]
                    .iter()
                    .map(|t| Arg::Temp(*t))
                    .collect();
                if two {
                    let (va2, b) = self.lds_rebase(va, byte, 4 * 254)?;
                    if b % 4 == 0 {
                        let o0 = b / 4;
                        self.ds(
                            Opcode::DsWrite2B32,
                            &[],
                            &[Arg::Temp(va2), parts[0], parts[1]],
                            o0 | (o0 + 1) << 8,
                        )?;
                    } else {
                        for (j, p) in parts.iter().enumerate() {
                            self.ds(
                                Opcode::DsWriteB32,
                                &[],
                                &[Arg::Temp(va2), *p],
                                b + 4 * j as u32,
                            )?;
                        }
                    }
                    continue;
                }
                let data = Arg::Temp(self.vgpr_tuple(&dw[k as usize..(k + d) as usize]));
                let name = match d {
                    1 => Opcode::DsWriteB32,
                    2 => Opcode::DsWriteB64,
                    3 => Opcode::DsWriteB96,
                    _ => Opcode::DsWriteB128,
                };
                let (va2, b) = self.lds_rebase(va, byte, MAX_OFFSET)?;
                self.ds(name, &[], &[Arg::Temp(va2), data], b)?;
            }
        }
        Ok(())
    }

    fn shared_atomic(
        &mut self,
        i: Value,
        op: Option<AtomicOp>,
        srcs: &[Value],
        base: u32,
    ) -> Result<SmallVec<[MV; 4]>, Error> {
        use AtomicOp::*;
        let at = Some(i.index() as u32);
        let ty = self.f.ty(i);
        let w64 = match ty.bits {
            32 => false,
            64 => true,
            b => return Err(Error::unsupported(at, format!("{b}-bit shared atomics"))),
        };
        let o = self.get(srcs[0], 0)?;
        let (va, imm) = self.lds_addr(o, base)?;
        let (va, imm) = self.lds_rebase(va, imm, MAX_OFFSET)?;
        let data = |s: &mut Self, v: Value| -> Result<Arg, Error> {
            let a = s.arg(v, 0)?;
            Ok(Arg::Temp(s.to_vgpr(a)?))
        };
        let (o, ops): (Opcode, Vec<Arg>) = match op {
            None => {
                let cmp = data(self, srcs[1])?;
                let new = data(self, srcs[2])?;
                let n = if w64 {
                    Opcode::DsCmpstRtnB64
                } else {
                    Opcode::DsCmpstRtnB32
                };
                let ops = if self.t().gen == Gen::Gfx11 {
                    vec![Arg::Temp(va), new, cmp]
                } else {
                    vec![Arg::Temp(va), cmp, new]
                };
                (n, ops)
            }
            Some(aop) => {
                let (b32, b64) = match aop {
                    Add => (Opcode::DsAddRtnU32, Opcode::DsAddRtnU64),
                    Imin => (Opcode::DsMinRtnI32, Opcode::DsMinRtnI64),
                    Umin => (Opcode::DsMinRtnU32, Opcode::DsMinRtnU64),
                    Imax => (Opcode::DsMaxRtnI32, Opcode::DsMaxRtnI64),
                    Umax => (Opcode::DsMaxRtnU32, Opcode::DsMaxRtnU64),
                    And => (Opcode::DsAndRtnB32, Opcode::DsAndRtnB64),
                    Or => (Opcode::DsOrRtnB32, Opcode::DsOrRtnB64),
                    Xor => (Opcode::DsXorRtnB32, Opcode::DsXorRtnB64),
                    Xchg => (Opcode::DsWrxchgRtnB32, Opcode::DsWrxchgRtnB64),
                    Fadd if !w64 => (Opcode::DsAddRtnF32, Opcode::DsAddRtnF32),
                    _ => {
                        return Err(Error::unsupported(
                            at,
                            format!("{}-bit shared atomic {}", ty.bits, aop.name()),
                        ))
                    }
                };
                let d = data(self, srcs[1])?;
                (if w64 { b64 } else { b32 }, vec![Arg::Temp(va), d])
            }
        };
        let dst = self.tmp(RegClass::v(if w64 { 2 } else { 1 }));
        self.ds(o, &[Arg::Temp(dst)], &ops, imm)?;
        let t = if self.div.is_divergent(i) {
            dst
        } else {
            self.uniform_to_sgpr(dst)?
        };
        Ok(SmallVec::from_slice(&[MV::T(t, Kind::Plain)]))
    }

    /// `barrier(exec_scope, mem_scope, semantics)`.
    fn barrier(&mut self, exec_scope: u32, mem_scope: u32, semantics: u32) -> Result<(), Error> {
        let gen = self.t().gen;
        let ordered = semantics & sem::ORDERING != 0;
        let lds = ordered && semantics & sem::WORKGROUP != 0;
        let vmem = ordered && semantics & (sem::UNIFORM | sem::CROSS_WORKGROUP | sem::IMAGE) != 0;
        let exec_wg = exec_scope <= SCOPE_WORKGROUP;
        let [x, y, z] = self.m.local_size;
        let one_wave = x * y * z <= self.t().wave.lanes();
        let s_barrier = exec_wg && !one_wave;
        let memory = mem_scope <= SCOPE_WORKGROUP && (lds || vmem);
        // what must be complete: everything before s_barrier, else the ordered classes
        let (vm, lgkm) = if s_barrier {
            (true, true)
        } else if memory {
            (vmem, lds)
        } else {
            (false, false)
        };
        if vm || lgkm {
            let w = [
                vm.then_some(0),
                lgkm.then_some(0),
                None,
                (vm && gen != Gen::Gfx9).then_some(0),
            ];
            for m in wait_insts(gen, w)? {
                self.push(m);
            }
        }
        if s_barrier {
            self.hw(Opcode::SBarrier, &[], &[])?;
        }
        if vmem && mem_scope <= SCOPE_DEVICE && semantics & sem::ACQUIRE != 0 {
            let invs: &[Opcode] = match gen {
                Gen::Gfx9 => &[Opcode::BufferWbinvl1Vol],
                _ => &[Opcode::BufferGl1Inv, Opcode::BufferGl0Inv],
            };
            for &n in invs {
                let o = self.op(n)?;
                self.push(MInst::hw(o, Format::Mubuf, &[], &[]));
            }
        }
        Ok(())
    }

    /// The LDS intrinsics and `barrier`.
    pub(super) fn lds(
        &mut self,
        i: Value,
        op: Intrinsic,
        srcs: &[Value],
        idx: &[u32],
    ) -> Result<SmallVec<[MV; 4]>, Error> {
        let at = Some(i.index() as u32);
        let ix = |k: usize, d: u32| idx.get(k).copied().unwrap_or(d);
        if matches!(
            op,
            Intrinsic::LoadShared
                | Intrinsic::StoreShared
                | Intrinsic::SharedAtomic
                | Intrinsic::SharedAtomicSwap
        ) {
            self.p.lds_bytes = self.p.lds_bytes.max(self.m.shared_size);
        }
        match op {
            Intrinsic::LoadShared => self.load_shared(i, srcs[0], ix(0, 0), ix(1, 4)),
            Intrinsic::StoreShared => {
                self.store_shared(srcs[0], srcs[1], ix(0, 0), ix(1, 0xf), ix(2, 4), at)?;
                Ok(SmallVec::new())
            }
            Intrinsic::SharedAtomic => {
                let aop = AtomicOp::ALL
                    .get(ix(0, 0) as usize)
                    .copied()
                    .ok_or_else(|| Error::unsupported(at, "atomic op index out of range"))?;
                self.shared_atomic(i, Some(aop), srcs, ix(1, 0))
            }
            Intrinsic::SharedAtomicSwap => self.shared_atomic(i, None, srcs, ix(0, 0)),
            Intrinsic::Barrier => {
                self.barrier(ix(0, 4), ix(1, 4), ix(2, 0))?;
                Ok(SmallVec::new())
            }
            _ => Err(Error::unsupported(
                at,
                format!("{} is not an LDS op", op.name()),
            )),
        }
    }
}
