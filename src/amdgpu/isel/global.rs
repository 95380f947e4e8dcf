//! Buffer device addresses: loads, stores and atomics on 64-bit pointers through the
//! GLOBAL encodings (`global_load_dword*` / `global_store_dword*` / `global_atomic_*`;
//! 8/16-bit values one `global_load_ubyte`/`_ushort` or `global_store_byte`/`_short` per
//! component, as `buffers16.rs` describes).
//!
//! Addressing (ACO's `global_load` selection, reduced): a GLOBAL instruction adds a signed
//! immediate (13 bits on GFX9/GFX11, 12 on GFX10) to either
//! - `saddr` (a 64-bit SGPR pair) + a 32-bit VGPR offset, zero-extended — chosen when the
//!   pointer is uniform, or is `iadd(uniform, u2u64(x))` of a 32-bit `x`; or
//! - a 64-bit VGPR `vaddr` with `saddr` `off` (`Arg::Off`) — every other divergent
//!   pointer.
//!
//! A constant addend `iadd(p, c)` whose bytes fit the immediate (with every dword of the
//! access) is folded into the offset. The pointer arithmetic that the pattern consumed was
//! already selected with its IR value (no MIR dead-code elimination yet).
//!
//! Atomics return through a separate `vdst` (with `glc`), unlike MUBUF's tied data
//! register. Uniform results are read back into SGPRs by `regroup`.
//!
//! Invariant: every instruction emitted here is a `Format::Global` form of the ISA
//! tables; the operand order is the table's (`vdst vaddr [vdata] saddr`).

use super::mask_runs;
use super::{Isel, Kind, MV};
use crate::amdgpu::mir::{Arg, MInst, Pseudo, RegClass, Temp};
use crate::amdgpu::Error;
use crate::ir::{AluOp, AtomicOp, InstKind, Value};
use crate::isa::{Format, Opcode};
use smallvec::SmallVec;

/// A GLOBAL address: (`vaddr`, `saddr` or `Arg::Off`, immediate byte offset).
#[derive(Clone, Copy)]
pub(super) struct GAddr {
    vaddr: Temp,
    saddr: Arg,
    imm: i32,
}

impl GAddr {
    /// `saddr + vaddr` (the VGPR offset zero-extended), no immediate.
    pub(super) fn based(saddr: Temp, vaddr: Temp) -> GAddr {
        GAddr {
            vaddr,
            saddr: Arg::Temp(saddr),
            imm: 0,
        }
    }
}

/// The `buffer_` (or, with `global`, `global_`) atomic opcode for `op` on 32- or 64-bit
/// data, by its GFX9 name (`Isel::op` resolves the GFX11 rename).
pub(super) fn atomic_opcode(global: bool, op: AtomicOp, wide: bool) -> Option<Opcode> {
    use AtomicOp::*;
    // [buffer 32, buffer 64, global 32, global 64]
    let ops = match op {
        Add => [
            Opcode::BufferAtomicAdd,
            Opcode::BufferAtomicAddX2,
            Opcode::GlobalAtomicAdd,
            Opcode::GlobalAtomicAddX2,
        ],
        Imin => [
            Opcode::BufferAtomicSmin,
            Opcode::BufferAtomicSminX2,
            Opcode::GlobalAtomicSmin,
            Opcode::GlobalAtomicSminX2,
        ],
        Umin => [
            Opcode::BufferAtomicUmin,
            Opcode::BufferAtomicUminX2,
            Opcode::GlobalAtomicUmin,
            Opcode::GlobalAtomicUminX2,
        ],
        Imax => [
            Opcode::BufferAtomicSmax,
            Opcode::BufferAtomicSmaxX2,
            Opcode::GlobalAtomicSmax,
            Opcode::GlobalAtomicSmaxX2,
        ],
        Umax => [
            Opcode::BufferAtomicUmax,
            Opcode::BufferAtomicUmaxX2,
            Opcode::GlobalAtomicUmax,
            Opcode::GlobalAtomicUmaxX2,
        ],
        And => [
            Opcode::BufferAtomicAnd,
            Opcode::BufferAtomicAndX2,
            Opcode::GlobalAtomicAnd,
            Opcode::GlobalAtomicAndX2,
        ],
        Or => [
            Opcode::BufferAtomicOr,
            Opcode::BufferAtomicOrX2,
            Opcode::GlobalAtomicOr,
            Opcode::GlobalAtomicOrX2,
        ],
        Xor => [
            Opcode::BufferAtomicXor,
            Opcode::BufferAtomicXorX2,
            Opcode::GlobalAtomicXor,
            Opcode::GlobalAtomicXorX2,
        ],
        Xchg => [
            Opcode::BufferAtomicSwap,
            Opcode::BufferAtomicSwapX2,
            Opcode::GlobalAtomicSwap,
            Opcode::GlobalAtomicSwapX2,
        ],
        _ => return None,
    };
    Some(ops[2 * global as usize + wide as usize])
}

/// The `bytes` argument of [`Isel::global_addr`] for `comps` components of `bits` bits:
/// the immediate check there is for dword accesses (the last one starts `bytes - 4` past
/// the offset), and the last narrow access starts `(comps - 1) · bits / 8` past it.
fn narrow_span(bits: u8, comps: u8) -> u32 {
    (comps as u32 - 1) * (bits as u32 / 8) + 4
}

impl Isel<'_> {
    /// Signed immediate range of a GLOBAL offset on this generation.
    fn global_imm_range(&self) -> (i64, i64) {
        let (lo, hi) = self.t().info().flat_offset;
        (lo.into(), hi.into())
    }

    /// The IR sources of `v` when it is a 64-bit `iadd`.
    fn as_iadd64(&self, v: Value) -> Option<(Value, Value)> {
        match self.f.kind(v) {
            InstKind::Alu {
                op: AluOp::Iadd,
                srcs,
            } if self.f.ty(v).bits == 64 && self.f.ty(v).comps == 1 => Some((srcs[0], srcs[1])),
            _ => None,
        }
    }

    fn is_uniform_temp(&self, v: Value) -> Option<Temp> {
        match self.get(v, 0).ok()? {
            MV::T(t, _) if self.p.rc(t).is_sgpr() && self.p.rc(t).dwords == 2 => Some(t),
            _ => None,
        }
    }

    /// The address of a GLOBAL access of `bytes` bytes at pointer `ptr`.
    pub(super) fn global_addr(&mut self, ptr: Value, bytes: u32) -> Result<GAddr, Error> {
        let (lo, hi) = self.global_imm_range();
        // peel a constant addend that fits the immediate
        let mut base = ptr;
        let mut imm = 0i64;
        if let Some((a, b)) = self.as_iadd64(ptr) {
            for (p, q) in [(a, b), (b, a)] {
                if let Ok(MV::C(c)) = self.get(q, 0) {
                    let c = c as i64;
                    if c >= lo && c + bytes as i64 - 4 <= hi {
                        base = p;
                        imm = c;
                        break;
                    }
                }
            }
        }
        // saddr + 32-bit offset
        if let Some((a, b)) = self.as_iadd64(base) {
            for (p, q) in [(a, b), (b, a)] {
                let Some(s) = self.is_uniform_temp(p) else {
                    continue;
                };
                if let InstKind::Alu {
                    op: AluOp::U2u,
                    srcs,
                } = self.f.kind(q)
                {
                    if self.f.ty(srcs[0]).bits == 32 {
                        let x = self.arg(srcs[0], 0)?;
                        let v = self.to_vgpr(x)?;
                        return Ok(GAddr {
                            vaddr: v,
                            saddr: Arg::Temp(s),
                            imm: imm as i32,
                        });
                    }
                }
            }
        }
        let a = self.arg(base, 0)?;
        let Arg::Temp(t) = a else {
            unreachable!("64-bit values are temps")
        };
        if self.p.rc(t).is_sgpr() {
            let v = self.to_vgpr(Arg::Const(0))?;
            Ok(GAddr {
                vaddr: v,
                saddr: Arg::Temp(t),
                imm: imm as i32,
            })
        } else {
            Ok(GAddr {
                vaddr: t,
                saddr: Arg::Off,
                imm: imm as i32,
            })
        }
    }

    fn global_inst(
        &mut self,
        op: Opcode,
        defs: &[Arg],
        ops: &[Arg],
        imm: i32,
        glc: bool,
    ) -> Result<(), Error> {
        let o = self.op(op)?;
        let mut m = MInst::hw(o, Format::Global, defs, ops);
        m.mods.mem.offset = imm;
        m.mods.glc = glc;
        self.push(m);
        Ok(())
    }

    /// `global_load_dword*` of `dwords` dwords at pointer `ptr`.
    pub(super) fn global_load(
        &mut self,
        ptr: Value,
        dwords: u8,
    ) -> Result<SmallVec<[MV; 4]>, Error> {
        let a = self.global_addr(ptr, 4 * dwords as u32)?;
        self.global_load_at(a, dwords)
    }

    /// `global_load_dword*` of `dwords` dwords at the address `a`.
    pub(super) fn global_load_at(
        &mut self,
        a: GAddr,
        dwords: u8,
    ) -> Result<SmallVec<[MV; 4]>, Error> {
        let mut out = SmallVec::new();
        let mut k = 0u8;
        while k < dwords {
            let n = (dwords - k).min(4);
            let d = self.tmp(RegClass::v(n));
            let name = match n {
                1 => Opcode::GlobalLoadDword,
                2 => Opcode::GlobalLoadDwordx2,
                3 => Opcode::GlobalLoadDwordx3,
                _ => Opcode::GlobalLoadDwordx4,
            };
            self.global_inst(
                name,
                &[Arg::Temp(d)],
                &[Arg::Temp(a.vaddr), a.saddr],
                a.imm + 4 * k as i32,
                false,
            )?;
            for p in self.split(d, n)? {
                out.push(MV::T(p, Kind::Plain));
            }
            k += n;
        }
        Ok(out)
    }

    /// `comps` 8/16-bit components at pointer `ptr` (`global_load_ubyte` / `_ushort`).
    pub(super) fn global_load_narrow(
        &mut self,
        ptr: Value,
        bits: u8,
        comps: u8,
    ) -> Result<SmallVec<[MV; 4]>, Error> {
        let a = self.global_addr(ptr, narrow_span(bits, comps))?;
        self.global_load_narrow_at(a, bits, comps)
    }

    /// `comps` 8/16-bit components at the address `a`.
    pub(super) fn global_load_narrow_at(
        &mut self,
        a: GAddr,
        bits: u8,
        comps: u8,
    ) -> Result<SmallVec<[MV; 4]>, Error> {
        let name = if bits == 8 {
            Opcode::GlobalLoadUbyte
        } else {
            Opcode::GlobalLoadUshort
        };
        self.narrow_loads(bits, comps, |s, byte, d| {
            s.global_inst(
                name,
                &[Arg::Temp(d)],
                &[Arg::Temp(a.vaddr), a.saddr],
                a.imm + byte as i32,
                false,
            )
        })
    }

    /// `global_store_dword*` of the components of `v` selected by `mask` at pointer `ptr`,
    /// one store per contiguous run of at most four dwords.
    pub(super) fn global_store(
        &mut self,
        v: Value,
        ptr: Value,
        mask: u32,
        at: Option<u32>,
    ) -> Result<(), Error> {
        let ty = self.f.ty(v);
        if ty.bits == 8 || ty.bits == 16 {
            let a = self.global_addr(ptr, narrow_span(ty.bits, ty.comps))?;
            let name = if ty.bits == 8 {
                Opcode::GlobalStoreByte
            } else {
                Opcode::GlobalStoreShort
            };
            return self.narrow_stores(v, mask, |s, byte, data| {
                s.global_inst(
                    name,
                    &[],
                    &[Arg::Temp(a.vaddr), Arg::Temp(data), a.saddr],
                    a.imm + byte as i32,
                    false,
                )
            });
        }
        if ty.bits != 32 && ty.bits != 64 {
            return Err(Error::unsupported(
                at,
                format!("{}-bit global stores", ty.bits),
            ));
        }
        let per = ty.bits / 32;
        let a = self.global_addr(ptr, 4 * per as u32 * ty.comps as u32)?;
        for (c, end) in mask_runs(ty.comps as u32, mask, per as u32, 4) {
            let dw = self.vgpr_dwords(v, c, end)?;
            let n = dw.len();
            let data = Arg::Temp(self.vgpr_tuple(&dw));
            let name = match n {
                1 => Opcode::GlobalStoreDword,
                2 => Opcode::GlobalStoreDwordx2,
                3 => Opcode::GlobalStoreDwordx3,
                _ => Opcode::GlobalStoreDwordx4,
            };
            self.global_inst(
                name,
                &[],
                &[Arg::Temp(a.vaddr), data, a.saddr],
                a.imm + 4 * (per as u32 * c) as i32,
                false,
            )?;
        }
        Ok(())
    }

    /// A returning `global_atomic_*` (or `*_cmpswap*` when `cmp` is given) of 32- or 64-bit
    /// `data` at pointer `ptr`; the old value as one temp (V1 or V2).
    pub(super) fn global_atomic(
        &mut self,
        ptr: Value,
        op: Option<AtomicOp>,
        data: Arg,
        cmp: Option<Arg>,
        wide: bool,
        at: Option<u32>,
    ) -> Result<Temp, Error> {
        let bytes = if wide { 8 } else { 4 };
        let a = self.global_addr(ptr, bytes)?;
        let name = match op {
            Some(op) => atomic_opcode(true, op, wide)
                .ok_or_else(|| Error::unsupported(at, format!("global atomic {}", op.name())))?,
            None if wide => Opcode::GlobalAtomicCmpswapX2,
            None => Opcode::GlobalAtomicCmpswap,
        };
        let data = self.to_vgpr(data)?;
        let vdata = match cmp {
            None => data,
            Some(c) => {
                let c = self.to_vgpr(c)?;
                let n = self.p.rc(data).dwords * 2;
                let d = self.tmp(RegClass::v(n));
                self.push(MInst::pseudo(
                    Pseudo::CreateVector,
                    &[Arg::Temp(d)],
                    &[Arg::Temp(data), Arg::Temp(c)],
                ));
                d
            }
        };
        let r = self.tmp(if wide { RegClass::V2 } else { RegClass::V1 });
        self.global_inst(
            name,
            &[Arg::Temp(r)],
            &[Arg::Temp(a.vaddr), Arg::Temp(vdata), a.saddr],
            a.imm,
            true,
        )?;
        Ok(r)
    }
}
