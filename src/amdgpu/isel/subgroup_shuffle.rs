//! Subgroup data movement between lanes: shuffle / shuffle_xor / shuffle_up /
//! shuffle_down, read_invocation, the quad operations, and the ballot queries that need a
//! per-lane answer (bit extract, inclusive / exclusive bit count, find LSB / MSB,
//! inverse ballot).
//!
//! - A general shuffle is `ds_bpermute_b32` (pull: lane L reads the lane its address /4
//!   names; an inactive source lane gives 0). On GFX10+ in wave64 the permute only reaches
//!   lanes of the same 32-lane half, so (as ACO / LLPC do) it runs twice in a whole-wave
//!   region: once on the value, once on the value with its halves swapped
//!   (`v_permlane64_b32` on GFX11; on GFX10, which has no cross-half lane instruction
//!   besides the shared VGPRs, 32 `v_readlane_b32`/`v_writelane_b32` pairs per direction),
//!   and each lane picks the result whose half matches its index.
//! - Constant patterns use DPP instead (with bound_ctrl so a lane whose source is
//!   inactive reads 0 and is still written): shuffle_xor 1–3 and the quad swaps as
//!   quad_perm; shuffle_xor 4–15 as row_xmask on GFX10+; quad_broadcast of a constant
//!   lane as quad_perm; shuffle_xor 32 on GFX11 wave64 as `v_permlane64_b32`.
//! - read_invocation, and a shuffle whose index is uniform, are `v_readlane_b32` with a
//!   uniform lane select.
//! - Ballot bit counts use `v_mbcnt_lo/hi_u32_b32`; find LSB / MSB are `s_ff1` /
//!   `s_flbit` (GFX11: `s_ctz` / `s_clz`) on the wave's mask dwords.
//!
//! A uniform operand is returned unchanged by every shuffle (all active lanes hold it).
//!
//! Widths: an 8/16-bit value (one per dword, upper bits undefined) moves as its whole
//! dword; a 64-bit value moves as its two dwords, each through the same selection (so both
//! come from the same lane). Booleans are refused with a typed error.

use super::subgroup_reduce::ctrl;
use super::{Isel, Kind, MV};
use crate::amdgpu::mir::{Arg, MInst, Pseudo, RegClass, Temp};
use crate::amdgpu::Error;
use crate::ir::{Intrinsic, Value};
use crate::isa::Opcode;
use crate::isa::{Format, Gen};
use smallvec::SmallVec;

impl Isel<'_> {
    fn vgpr_arg(&self, a: &Arg) -> bool {
        matches!(a, Arg::Temp(t) if !self.p.rc(*t).is_sgpr())
    }

    /// The lane's index in the wave (`v_mbcnt` of all ones).
    pub(super) fn lane_id(&mut self) -> Result<Temp, Error> {
        self.mbcnt(Arg::Const(u32::MAX), Arg::Const(0))
    }

    /// `v` read from lane `lane ^ mask` (lane = this lane's id), through `ds_bpermute_b32`
    /// (only used where the permute reaches the whole wave or `mask` < 32).
    pub(super) fn xor_lanes(&mut self, v: Temp, lane: Temp, mask: u32) -> Result<Temp, Error> {
        let a = self.tmp(RegClass::V1);
        self.valu(
            Opcode::VXorB32,
            &[Arg::Temp(a)],
            vec![Arg::Const(mask), Arg::Temp(lane)],
        )?;
        let addr = self.times4(Arg::Temp(a))?;
        self.bpermute(addr, v)
    }

    pub(super) fn times4(&mut self, a: Arg) -> Result<Temp, Error> {
        let d = self.tmp(RegClass::V1);
        self.valu(Opcode::VLshlrevB32, &[Arg::Temp(d)], vec![Arg::Const(2), a])?;
        Ok(d)
    }

    fn bpermute(&mut self, addr: Temp, v: Temp) -> Result<Temp, Error> {
        let d = self.tmp(RegClass::V1);
        let o = self.op(Opcode::DsBpermuteB32)?;
        self.push(MInst::hw(
            o,
            Format::Ds,
            &[Arg::Temp(d)],
            &[Arg::Temp(addr), Arg::Temp(v)],
        ));
        Ok(d)
    }

    /// Wave64 only: `v` with its two 32-lane halves exchanged (exec must be all lanes).
    fn swap_halves(&mut self, v: Temp) -> Result<Temp, Error> {
        if self.t().gen == Gen::Gfx11 {
            let d = self.tmp(RegClass::V1);
            self.hw(Opcode::VPermlane64B32, &[Arg::Temp(d)], &[Arg::Temp(v)])?;
            return Ok(d);
        }
        let d = self.tmp(RegClass::V1);
        self.p.multi_def.insert(d);
        for k in 0..64u32 {
            let s = self.tmp(RegClass::S1);
            self.hw(
                Opcode::VReadlaneB32,
                &[Arg::Temp(s)],
                &[Arg::Temp(v), Arg::Const(k ^ 32)],
            )?;
            self.hw(
                Opcode::VWritelaneB32,
                &[Arg::Temp(d)],
                &[Arg::Temp(s), Arg::Const(k)],
            )?;
        }
        Ok(d)
    }

    /// `x` read from lane `index` (a VGPR or uniform lane index) in every active lane.
    fn shuffle_general(&mut self, x: Arg, index: Arg) -> Result<Temp, Error> {
        let addr = self.times4(index)?;
        let split = self.p.wave64() && self.t().gen != Gen::Gfx9;
        if !split {
            let xv = self.to_vgpr(x)?;
            return self.bpermute(addr, xv);
        }
        let save = self.wwm_begin()?;
        let xv = self.wwm_value(save, x, 0)?;
        let av = self.wwm_value(save, Arg::Temp(addr), 0)?;
        let same = self.bpermute(av, xv)?;
        let sw = self.swap_halves(xv)?;
        let other = self.bpermute(av, sw)?;
        self.set_exec(Arg::Temp(save))?;
        // pick `other` where bit 5 of the index differs from the lane's
        let lane = self.lane_id()?;
        let t = self.tmp(RegClass::V1);
        self.valu(
            Opcode::VXorB32,
            &[Arg::Temp(t)],
            vec![index, Arg::Temp(lane)],
        )?;
        let u = self.tmp(RegClass::V1);
        self.valu(
            Opcode::VAndB32,
            &[Arg::Temp(u)],
            vec![Arg::Const(32), Arg::Temp(t)],
        )?;
        let m = self.tmp(self.mask_rc());
        self.valu(
            Opcode::VCmpNeU32,
            &[Arg::Temp(m)],
            vec![Arg::Const(0), Arg::Temp(u)],
        )?;
        let d = self.tmp(RegClass::V1);
        self.valu(
            Opcode::VCndmaskB32,
            &[Arg::Temp(d)],
            vec![Arg::Temp(same), Arg::Temp(other), Arg::Temp(m)],
        )?;
        Ok(d)
    }

    fn dpp_mov(&mut self, x: Arg, dpp_ctrl: u16) -> Result<Temp, Error> {
        let xv = self.to_vgpr(x)?;
        let d = self.tmp(RegClass::V1);
        self.dpp(
            Opcode::VMovB32,
            Format::Vop1Dpp,
            &[Arg::Temp(d)],
            &[Arg::Temp(xv)],
            dpp_ctrl,
            0xf,
            true,
        )?;
        Ok(d)
    }

    /// quad_perm control where lane j of each quad reads lane f(j).
    fn quad_perm(f: impl Fn(u16) -> u16) -> u16 {
        (0..4).map(|j| (f(j) & 3) << (2 * j)).sum()
    }

    fn shuffle_xor_const(&mut self, x: Arg, mask: u32) -> Result<Temp, Error> {
        let lanes = self.t().wave.lanes();
        let gen = self.t().gen;
        let mask = mask & (lanes - 1);
        if mask == 0 {
            return self.to_vgpr(x);
        }
        if mask < 4 {
            let m = mask as u16;
            return self.dpp_mov(x, Self::quad_perm(|j| j ^ m));
        }
        if mask < 16 && gen != Gen::Gfx9 {
            return self.dpp_mov(x, ctrl::ROW_XMASK0 + mask as u16);
        }
        if mask == 32 && gen == Gen::Gfx11 {
            // whole wave: inactive lanes hold 0, so every lane reads a written value
            let save = self.wwm_begin()?;
            let xv = self.wwm_value(save, x, 0)?;
            let d = self.tmp(RegClass::V1);
            self.hw(Opcode::VPermlane64B32, &[Arg::Temp(d)], &[Arg::Temp(xv)])?;
            self.set_exec(Arg::Temp(save))?;
            let r = self.tmp(RegClass::V1);
            self.valu(Opcode::VMovB32, &[Arg::Temp(r)], vec![Arg::Temp(d)])?;
            return Ok(r);
        }
        let lane = self.lane_id()?;
        let idx = self.tmp(RegClass::V1);
        self.valu(
            Opcode::VXorB32,
            &[Arg::Temp(idx)],
            vec![Arg::Const(mask), Arg::Temp(lane)],
        )?;
        self.shuffle_general(x, Arg::Temp(idx))
    }

    /// The ballot's wave mask (its first one or two dwords) as an SGPR lane-mask temp.
    fn ballot_mask(&mut self, b: Value) -> Result<Temp, Error> {
        let n = self.mask_rc().dwords as usize;
        let mut parts = Vec::new();
        for c in 0..n {
            let a = self.arg(b, c)?;
            parts.push(Arg::Temp(self.to_sgpr(a)?));
        }
        if n == 1 {
            return Ok(parts[0].temp().unwrap());
        }
        let d = self.tmp(self.mask_rc());
        self.push(MInst::pseudo(Pseudo::CreateVector, &[Arg::Temp(d)], &parts));
        Ok(d)
    }

    /// Bit `index` (a VGPR) of the ballot mask, as 0/1 in a VGPR.
    fn ballot_bit_v(&mut self, m: Temp, index: Arg) -> Result<Temp, Error> {
        let lo = if self.p.wave64() {
            let t = self.tmp(RegClass::V2);
            self.valu(
                Opcode::VLshrrevB64,
                &[Arg::Temp(t)],
                vec![index, Arg::Temp(m)],
            )?;
            self.split(t, 2)?[0]
        } else {
            let t = self.tmp(RegClass::V1);
            self.valu(
                Opcode::VLshrrevB32,
                &[Arg::Temp(t)],
                vec![index, Arg::Temp(m)],
            )?;
            t
        };
        let d = self.tmp(RegClass::V1);
        self.valu(
            Opcode::VAndB32,
            &[Arg::Temp(d)],
            vec![Arg::Const(1), Arg::Temp(lo)],
        )?;
        Ok(d)
    }

    /// One dword `x` moved between lanes by `op` (a shuffle, quad operation or
    /// read_invocation; `second`: its index / mask / delta / lane operand).
    fn lane_move(
        &mut self,
        i: Value,
        op: Intrinsic,
        x: Arg,
        second: Option<MV>,
    ) -> Result<MV, Error> {
        use Intrinsic::*;
        let lanes = self.t().wave.lanes();
        if !self.vgpr_arg(&x) {
            // every active lane holds the same value
            return Ok(match x {
                Arg::Const(k) => MV::C(k as u64),
                Arg::Temp(t) => MV::T(t, Kind::Plain),
                _ => unreachable!(),
            });
        }
        let r = match (op, second) {
            (ReadInvocation, Some(s)) => {
                let lane = match s {
                    MV::C(k) => Arg::Const(k as u32 & (lanes - 1)),
                    MV::T(t, _) => Arg::Temp(self.to_sgpr(Arg::Temp(t))?),
                };
                let d = self.tmp(RegClass::S1);
                self.hw(Opcode::VReadlaneB32, &[Arg::Temp(d)], &[x, lane])?;
                if self.div.is_divergent(i) {
                    self.to_vgpr(Arg::Temp(d))?
                } else {
                    return Ok(MV::T(d, Kind::Plain));
                }
            }
            // a uniform index reads one lane for everybody
            (Shuffle, Some(MV::C(k))) => {
                let d = self.tmp(RegClass::S1);
                let lane = Arg::Const(k as u32 & (lanes - 1));
                self.hw(Opcode::VReadlaneB32, &[Arg::Temp(d)], &[x, lane])?;
                self.to_vgpr(Arg::Temp(d))?
            }
            (Shuffle, Some(MV::T(t, _))) if self.p.rc(t).is_sgpr() => {
                let d = self.tmp(RegClass::S1);
                self.hw(Opcode::VReadlaneB32, &[Arg::Temp(d)], &[x, Arg::Temp(t)])?;
                self.to_vgpr(Arg::Temp(d))?
            }
            (ShuffleXor, Some(MV::C(m))) => self.shuffle_xor_const(x, m as u32)?,
            (QuadSwapHorizontal, _) => self.shuffle_xor_const(x, 1)?,
            (QuadSwapVertical, _) => self.shuffle_xor_const(x, 2)?,
            (QuadSwapDiagonal, _) => self.shuffle_xor_const(x, 3)?,
            (QuadBroadcast, Some(MV::C(k))) => {
                let k = k as u16 & 3;
                self.dpp_mov(x, Self::quad_perm(|_| k))?
            }
            (_, Some(s)) => {
                let s = match s {
                    MV::C(k) => Arg::Const(k as u32),
                    MV::T(t, _) => Arg::Temp(t),
                };
                let index = match op {
                    Shuffle => s,
                    _ => {
                        let lane = self.lane_id()?;
                        let d = self.tmp(RegClass::V1);
                        let (name, ops) = match op {
                            ShuffleXor => (Opcode::VXorB32, vec![s, Arg::Temp(lane)]),
                            ShuffleUp => (Opcode::VSubU32, vec![Arg::Temp(lane), s]),
                            ShuffleDown => (Opcode::VAddU32, vec![s, Arg::Temp(lane)]),
                            _ => {
                                // quad broadcast of a variable lane
                                let q = self.tmp(RegClass::V1);
                                self.valu(
                                    Opcode::VAndB32,
                                    &[Arg::Temp(q)],
                                    vec![Arg::Const(!3), Arg::Temp(lane)],
                                )?;
                                let k = self.tmp(RegClass::V1);
                                self.valu(
                                    Opcode::VAndB32,
                                    &[Arg::Temp(k)],
                                    vec![Arg::Const(3), s],
                                )?;
                                (Opcode::VOrB32, vec![Arg::Temp(k), Arg::Temp(q)])
                            }
                        };
                        self.valu(name, &[Arg::Temp(d)], ops)?;
                        Arg::Temp(d)
                    }
                };
                self.shuffle_general(x, index)?
            }
            _ => unreachable!(),
        };
        Ok(MV::T(r, Kind::Plain))
    }

    /// Shuffles, read_invocation, quad operations and per-lane ballot queries.
    pub(super) fn subgroup_lanes(
        &mut self,
        i: Value,
        op: Intrinsic,
        srcs: &[Value],
    ) -> Result<SmallVec<[MV; 4]>, Error> {
        use Intrinsic::*;
        let at = Some(i.index() as u32);
        let ty = self.f.ty(i);
        let lanes = self.t().wave.lanes();
        let mut out = SmallVec::new();
        match op {
            Shuffle | ShuffleXor | ShuffleUp | ShuffleDown | QuadBroadcast | QuadSwapHorizontal
            | QuadSwapVertical | QuadSwapDiagonal | ReadInvocation => {
                if ty.bits == 1 {
                    return Err(Error::unsupported(at, format!("boolean {}", op.name())));
                }
                if !matches!(ty.bits, 8 | 16 | 32 | 64) {
                    return Err(Error::unsupported(
                        at,
                        format!("{}-bit {}", ty.bits, op.name()),
                    ));
                }
                let second = match op {
                    Shuffle | ShuffleXor | ShuffleUp | ShuffleDown | QuadBroadcast
                    | ReadInvocation => Some(self.get(srcs[1], 0)?),
                    _ => None,
                };
                for c in 0..ty.comps as usize {
                    let x = self.arg(srcs[0], c)?;
                    if ty.bits != 64 {
                        // a narrow value is moved with its (undefined) upper bits
                        out.push(self.lane_move(i, op, x, second)?);
                        continue;
                    }
                    // a 64-bit value moves as its two dwords, each from the same lane
                    let (lo, hi) = match self.get(srcs[0], c)? {
                        MV::C(k) => (Arg::Const(k as u32), Arg::Const((k >> 32) as u32)),
                        MV::T(t, _) => {
                            let p = self.split(t, 2)?;
                            (Arg::Temp(p[0]), Arg::Temp(p[1]))
                        }
                    };
                    let lo = self.lane_move(i, op, lo, second)?;
                    let hi = self.lane_move(i, op, hi, second)?;
                    let arg = |m: MV| match m {
                        MV::C(k) => Arg::Const(k as u32),
                        MV::T(t, _) => Arg::Temp(t),
                    };
                    let div = [lo, hi]
                        .iter()
                        .any(|m| matches!(m, MV::T(t, _) if !self.p.rc(*t).is_sgpr()));
                    let d = self.join64(arg(lo), arg(hi), div)?;
                    out.push(MV::T(d, Kind::Plain));
                }
            }
            BallotBitExtract => {
                let m = self.ballot_mask(srcs[0])?;
                match self.get(srcs[1], 0)? {
                    MV::C(k) if k >= lanes as u64 => out.push(MV::C(0)),
                    MV::T(t, _) if self.vgpr_arg(&Arg::Temp(t)) => {
                        let bit = self.ballot_bit_v(m, Arg::Temp(t))?;
                        out.push(MV::T(bit, Kind::VBool));
                    }
                    s => {
                        let k = match s {
                            MV::C(k) => Arg::Const(k as u32),
                            MV::T(t, _) => Arg::Temp(t),
                        };
                        let sh = self.tmp(self.mask_rc());
                        self.salu(
                            self.lane_op(Opcode::SLshrB32)?,
                            &[Arg::Temp(sh)],
                            vec![Arg::Temp(m), k],
                        )?;
                        let lo = self.split(sh, self.mask_rc().dwords)?[0];
                        let d = self.tmp(RegClass::S1);
                        self.salu(
                            Opcode::SAndB32,
                            &[Arg::Temp(d)],
                            vec![Arg::Temp(lo), Arg::Const(1)],
                        )?;
                        out.push(MV::T(d, Kind::UBool));
                    }
                }
            }
            BallotBitCountExclusive | BallotBitCountInclusive => {
                let m = self.ballot_mask(srcs[0])?;
                let excl = self.mbcnt(Arg::Temp(m), Arg::Const(0))?;
                if op == BallotBitCountExclusive {
                    out.push(MV::T(excl, Kind::Plain));
                } else {
                    let lane = self.lane_id()?;
                    let bit = self.ballot_bit_v(m, Arg::Temp(lane))?;
                    let d = self.tmp(RegClass::V1);
                    self.valu(
                        Opcode::VAddU32,
                        &[Arg::Temp(d)],
                        vec![Arg::Temp(bit), Arg::Temp(excl)],
                    )?;
                    out.push(MV::T(d, Kind::Plain));
                }
            }
            BallotFindLsb | BallotFindMsb => {
                let m = self.ballot_mask(srcs[0])?;
                let d = self.tmp(RegClass::S1);
                if op == BallotFindLsb {
                    self.hw_lane(Opcode::SFf1I32B32, &[Arg::Temp(d)], &[Arg::Temp(m)])?;
                } else {
                    let z = self.tmp(RegClass::S1);
                    self.hw_lane(Opcode::SFlbitI32B32, &[Arg::Temp(z)], &[Arg::Temp(m)])?;
                    self.salu(
                        Opcode::SSubU32,
                        &[Arg::Temp(d)],
                        vec![Arg::Const(lanes - 1), Arg::Temp(z)],
                    )?;
                }
                out.push(MV::T(d, Kind::Plain));
            }
            LoadSubgroupEqMask | LoadSubgroupGeMask | LoadSubgroupGtMask | LoadSubgroupLeMask
            | LoadSubgroupLtMask => {
                // eq = 1 << lane, ge = -1 << lane, gt = -2 << lane, lt = ~ge, le = ~gt
                let lane = self.lane_id()?;
                let (base, invert) = match op {
                    LoadSubgroupEqMask => (1, false),
                    LoadSubgroupGeMask => (u32::MAX, false),
                    LoadSubgroupGtMask => (u32::MAX - 1, false),
                    LoadSubgroupLtMask => (u32::MAX, true),
                    _ => (u32::MAX - 1, true),
                };
                let n = self.mask_rc().dwords;
                let t = self.tmp(RegClass::v(n));
                let name = if n == 2 {
                    Opcode::VLshlrevB64
                } else {
                    Opcode::VLshlrevB32
                };
                self.valu(
                    name,
                    &[Arg::Temp(t)],
                    vec![Arg::Temp(lane), Arg::Const(base)],
                )?;
                for (c, p) in self.split(t, n)?.into_iter().enumerate() {
                    if c >= ty.comps as usize {
                        break;
                    }
                    let p = if invert {
                        let d = self.tmp(RegClass::V1);
                        self.valu(Opcode::VNotB32, &[Arg::Temp(d)], vec![Arg::Temp(p)])?;
                        d
                    } else {
                        p
                    };
                    out.push(MV::T(p, Kind::Plain));
                }
                while out.len() < ty.comps as usize {
                    out.push(MV::C(0));
                }
            }
            InverseBallot => {
                let m = self.ballot_mask(srcs[0])?;
                let d = self.tmp(self.mask_rc());
                let exec = self.p.exec();
                self.hw_lane(Opcode::SAndB32, &[Arg::Temp(d)], &[Arg::Temp(m), exec])?;
                out.push(MV::T(d, Kind::Mask));
            }
            _ => unreachable!(),
        }
        Ok(out)
    }
}
