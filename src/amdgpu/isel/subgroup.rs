//! Subgroup operations that need no cross-lane data movement beyond exec-masked scalar
//! work: votes, ballot, broadcast of the first active lane, subgroup id and count.
//!
//! All-equal votes take 8/16/32/64-bit values: narrow integers are zero-extended first
//! (their upper bits are undefined), f16 compares with `v_cmp_eq_f16`, 64-bit values with
//! the 64-bit compares; `read_first_invocation` reads every dword of the value.
//!
//! A subgroup is the wave. Votes combine the condition's lane mask with exec on the SALU;
//! `ballot` returns the masked lane mask (zero-extended to four dwords);
//! `read_first_invocation` is `v_readfirstlane_b32`; the subgroup id is the first active
//! lane's local index divided by the wave size. Reductions and scans are in
//! `subgroup_reduce.rs` (DPP), shuffles, `read_invocation`, quad operations and per-lane
//! ballot queries in `subgroup_shuffle.rs`.

use super::{Isel, Kind, MV};
use crate::amdgpu::mir::{Arg, RegClass};
use crate::amdgpu::Error;
use crate::ir::{Intrinsic, Value};
use crate::isa::Opcode;
use smallvec::SmallVec;

impl Isel<'_> {
    /// SCC-based uniform bool: `s_cmp_{eq|lg}_uN m, 0`.
    pub(super) fn mask_test(&mut self, m: Arg, zero: bool) -> Result<MV, Error> {
        let cmp = if zero {
            Opcode::SCmpEqU32
        } else {
            Opcode::SCmpLgU32
        };
        self.hw_lane(cmp, &[], &[m, Arg::Const(0)])?;
        let d = self.tmp(RegClass::S1);
        self.scc_to_bool(d)?;
        Ok(MV::T(d, Kind::UBool))
    }

    pub(super) fn vote_all_mask(&mut self, m: Arg) -> Result<MV, Error> {
        let t = self.tmp(self.mask_rc());
        let exec = self.p.exec();
        self.hw_lane(Opcode::SAndn2B32, &[Arg::Temp(t)], &[exec, m])?;
        self.mask_test(Arg::Temp(t), true)
    }

    pub(super) fn subgroup(
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
            VoteAll | VoteAny => {
                let m = self.mask(srcs[0], 0)?;
                if op == VoteAll {
                    out.push(self.vote_all_mask(m)?);
                } else {
                    let t = self.tmp(self.mask_rc());
                    let exec = self.p.exec();
                    self.hw_lane(Opcode::SAndB32, &[Arg::Temp(t)], &[m, exec])?;
                    out.push(self.mask_test(Arg::Temp(t), false)?);
                }
            }
            VoteIeq | VoteFeq => {
                let sty = self.f.ty(srcs[0]);
                let cmp = match (op, sty.bits) {
                    (VoteIeq, 8 | 16 | 32) => Opcode::VCmpEqU32,
                    (VoteIeq, 64) => Opcode::VCmpEqU64,
                    (VoteFeq, 16) => Opcode::VCmpEqF16,
                    (VoteFeq, 32) => Opcode::VCmpEqF32,
                    (VoteFeq, 64) => Opcode::VCmpEqF64,
                    _ => {
                        return Err(Error::unsupported(
                            at,
                            format!("{}-bit all-equal vote", sty.bits),
                        ))
                    }
                };
                let mut all: Option<Arg> = None;
                for c in 0..sty.comps as usize {
                    let mut x = self.arg(srcs[0], c)?;
                    if op == VoteIeq && sty.bits < 32 {
                        // a narrow integer's upper bits are undefined
                        x = self.narrow_ext(x, sty.bits, false)?;
                    }
                    let first = Arg::Temp(self.to_sgpr(x)?);
                    let m = self.tmp(self.mask_rc());
                    let srcs = if sty.bits == 64 {
                        self.vsrc64(&[first, x])?
                    } else {
                        vec![first, x]
                    };
                    self.valu(cmp, &[Arg::Temp(m)], srcs)?;
                    all = Some(match all {
                        None => Arg::Temp(m),
                        Some(p) => {
                            let t = self.tmp(self.mask_rc());
                            self.hw_lane(Opcode::SAndB32, &[Arg::Temp(t)], &[p, Arg::Temp(m)])?;
                            Arg::Temp(t)
                        }
                    });
                }
                out.push(self.vote_all_mask(all.unwrap())?);
            }
            ReadFirstInvocation => {
                for c in 0..ty.comps as usize {
                    let x = self.arg(srcs[0], c)?;
                    out.push(MV::T(self.to_sgpr(x)?, Kind::Plain));
                }
            }
            Ballot => {
                let m = self.mask(srcs[0], 0)?;
                let t = self.tmp(self.mask_rc());
                let exec = self.p.exec();
                self.hw_lane(Opcode::SAndB32, &[Arg::Temp(t)], &[m, exec])?;
                let parts = self.split(t, self.mask_rc().dwords)?;
                for k in 0..ty.comps as usize {
                    out.push(match parts.get(k) {
                        Some(p) => MV::T(*p, Kind::Plain),
                        None => MV::C(0),
                    });
                }
            }
            Elect => {
                // the lowest set bit of exec, as a lane mask
                let idx = self.tmp(RegClass::S1);
                let exec = self.p.exec();
                self.hw_lane(Opcode::SFf1I32B32, &[Arg::Temp(idx)], &[exec])?;
                let m = self.tmp(self.mask_rc());
                self.hw_lane(
                    Opcode::SLshlB32,
                    &[Arg::Temp(m)],
                    &[Arg::Const(1), Arg::Temp(idx)],
                )?;
                out.push(MV::T(m, Kind::Mask));
            }
            BallotBitCountReduce => {
                // popcount of the dwords of a ballot value that hold the wave's lanes (one
                // in wave32, two in wave64; the other ballot operations read the same
                // ones); a constant dword counts at compile time
                let mut acc: Option<Arg> = None;
                let mut ones = 0;
                let dwords = self.mask_rc().dwords.min(self.f.ty(srcs[0]).comps);
                for c in 0..dwords as usize {
                    let x = self.arg(srcs[0], c)?;
                    let x = match x {
                        Arg::Const(k) => {
                            ones += k.count_ones();
                            continue;
                        }
                        _ => Arg::Temp(self.to_sgpr(x)?),
                    };
                    let n = self.tmp(RegClass::S1);
                    self.salu(Opcode::SBcnt1I32B32, &[Arg::Temp(n)], vec![x])?;
                    acc = Some(match acc {
                        None => Arg::Temp(n),
                        Some(p) => {
                            let t = self.tmp(RegClass::S1);
                            self.salu(Opcode::SAddU32, &[Arg::Temp(t)], vec![p, Arg::Temp(n)])?;
                            Arg::Temp(t)
                        }
                    });
                }
                match acc {
                    None => out.push(MV::C(u64::from(ones))),
                    Some(Arg::Temp(t)) if ones == 0 => out.push(MV::T(t, Kind::Plain)),
                    Some(p) => {
                        let t = self.tmp(RegClass::S1);
                        self.salu(Opcode::SAddU32, &[Arg::Temp(t)], vec![p, Arg::Const(ones)])?;
                        out.push(MV::T(t, Kind::Plain));
                    }
                }
            }
            LoadNumSubgroups => {
                let n: u32 = self.m.local_size.iter().product();
                out.push(MV::C(n.div_ceil(lanes) as u64));
            }
            LoadSubgroupId => {
                let idx = self.intrinsic(i, LoadLocalInvocationIndex, &[], &[])?;
                let a = match idx[0] {
                    MV::C(_) => {
                        out.push(MV::C(0));
                        return Ok(out);
                    }
                    MV::T(t, _) => Arg::Temp(t),
                };
                let s = self.to_sgpr(a)?;
                let d = self.tmp(RegClass::S1);
                let shift = lanes.trailing_zeros();
                self.salu(
                    Opcode::SLshrB32,
                    &[Arg::Temp(d)],
                    vec![Arg::Temp(s), Arg::Const(shift)],
                )?;
                out.push(MV::T(d, Kind::Plain));
            }
            _ => unreachable!(),
        }
        Ok(out)
    }
}
