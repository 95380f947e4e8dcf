//! Subgroup (GroupNonUniform) operations: basic, vote, ballot, arithmetic (reduce, scans,
//! clustered), shuffle, shuffle-relative and quad. Only Subgroup scope is accepted; every
//! operand is type-checked before the intrinsic is built.

use super::parse::Inst;
use super::{Error, ErrorKind, Fx, Val};
use crate::ir::{Intrinsic, ReduceOp, ScalarKind, ValType, Value};
use rspirv::dr::Operand;
use rspirv::spirv::{GroupOperation, Op};

impl<'a, 'm> Fx<'a, 'm> {
    pub(super) fn subgroup(&mut self, i: &Inst) -> Result<(), Error> {
        i.need(1)?;
        let scope = self.scalar_lit_const(i, 0)?;
        if scope != 3 {
            return Err(i.err(
                ErrorKind::Unsupported,
                format!("group operation with scope {} (only Subgroup)", scope),
            ));
        }
        let rt = i.result_vt(self)?;
        let un = |s: &mut Self, op: Intrinsic, k: usize| -> Result<Value, Error> {
            let v = s.value(i, k)?;
            Ok(s.b.intrinsic(op, rt, &[v], &[]))
        };
        let bin = |s: &mut Self, op: Intrinsic| -> Result<Value, Error> {
            i.exact(3)?;
            let v = s.value(i, 1)?;
            let x = s.value(i, 2)?;
            if s.b.ty(x).comps != 1 {
                return Err(i.err(ErrorKind::BadType, "lane operand must be a scalar"));
            }
            Ok(s.b.intrinsic(op, rt, &[v, x], &[]))
        };
        let v = match i.op {
            Op::GroupNonUniformElect => {
                i.exact(1)?;
                self.b.intrinsic(Intrinsic::Elect, ValType::B1, &[], &[])
            }
            Op::GroupNonUniformAll | Op::GroupNonUniformAny => {
                i.exact(2)?;
                let p = self.value(i, 1)?;
                if self.b.ty(p) != ValType::B1 {
                    return Err(i.err(ErrorKind::BadType, "predicate must be a scalar bool"));
                }
                let op = if i.op == Op::GroupNonUniformAll {
                    Intrinsic::VoteAll
                } else {
                    Intrinsic::VoteAny
                };
                self.b.intrinsic(op, ValType::B1, &[p], &[])
            }
            Op::GroupNonUniformAllEqual => {
                i.exact(2)?;
                let id = i.id_op(1)?;
                let t = self.type_of(i, id)?;
                let float = self
                    .spv
                    .scalar_of(t)
                    .map(|s| s.kind == ScalarKind::Float)
                    .unwrap_or(false);
                let v = self.value(i, 1)?;
                self.b.intrinsic(
                    if float {
                        Intrinsic::VoteFeq
                    } else {
                        Intrinsic::VoteIeq
                    },
                    ValType::B1,
                    &[v],
                    &[],
                )
            }
            Op::GroupNonUniformBroadcast => bin(self, Intrinsic::ReadInvocation)?,
            Op::GroupNonUniformBroadcastFirst => {
                i.exact(2)?;
                un(self, Intrinsic::ReadFirstInvocation, 1)?
            }
            Op::GroupNonUniformBallot => {
                i.exact(2)?;
                let p = self.value(i, 1)?;
                if self.b.ty(p) != ValType::B1 || rt != ValType::new(32, 4) {
                    return Err(i.err(
                        ErrorKind::BadType,
                        "ballot takes a bool and returns a uvec4",
                    ));
                }
                self.b.intrinsic(Intrinsic::Ballot, rt, &[p], &[])
            }
            Op::GroupNonUniformInverseBallot => {
                i.exact(2)?;
                un(self, Intrinsic::InverseBallot, 1)?
            }
            Op::GroupNonUniformBallotBitExtract => bin(self, Intrinsic::BallotBitExtract)?,
            Op::GroupNonUniformBallotBitCount => {
                i.exact(3)?;
                let op = match &i.ops[1] {
                    Operand::GroupOperation(GroupOperation::Reduce) => {
                        Intrinsic::BallotBitCountReduce
                    }
                    Operand::GroupOperation(GroupOperation::InclusiveScan) => {
                        Intrinsic::BallotBitCountInclusive
                    }
                    Operand::GroupOperation(GroupOperation::ExclusiveScan) => {
                        Intrinsic::BallotBitCountExclusive
                    }
                    _ => return Err(i.err(ErrorKind::Unsupported, "group operation")),
                };
                un(self, op, 2)?
            }
            Op::GroupNonUniformBallotFindLSB | Op::GroupNonUniformBallotFindMSB => {
                i.exact(2)?;
                let op = if i.op == Op::GroupNonUniformBallotFindLSB {
                    Intrinsic::BallotFindLsb
                } else {
                    Intrinsic::BallotFindMsb
                };
                un(self, op, 1)?
            }
            Op::GroupNonUniformShuffle => bin(self, Intrinsic::Shuffle)?,
            Op::GroupNonUniformShuffleXor => bin(self, Intrinsic::ShuffleXor)?,
            Op::GroupNonUniformShuffleUp => bin(self, Intrinsic::ShuffleUp)?,
            Op::GroupNonUniformShuffleDown => bin(self, Intrinsic::ShuffleDown)?,
            Op::GroupNonUniformQuadBroadcast => bin(self, Intrinsic::QuadBroadcast)?,
            Op::GroupNonUniformQuadSwap => {
                i.exact(3)?;
                let dir = self.scalar_lit_const(i, 2)?;
                let op = match dir {
                    0 => Intrinsic::QuadSwapHorizontal,
                    1 => Intrinsic::QuadSwapVertical,
                    2 => Intrinsic::QuadSwapDiagonal,
                    _ => return Err(i.err(ErrorKind::BadOperands, "quad swap direction")),
                };
                un(self, op, 1)?
            }
            op => {
                i.need(3)?;
                let rop = match op {
                    Op::GroupNonUniformIAdd => ReduceOp::Iadd,
                    Op::GroupNonUniformFAdd => ReduceOp::Fadd,
                    Op::GroupNonUniformIMul => ReduceOp::Imul,
                    Op::GroupNonUniformFMul => ReduceOp::Fmul,
                    Op::GroupNonUniformSMin => ReduceOp::Imin,
                    Op::GroupNonUniformUMin => ReduceOp::Umin,
                    Op::GroupNonUniformFMin => ReduceOp::Fmin,
                    Op::GroupNonUniformSMax => ReduceOp::Imax,
                    Op::GroupNonUniformUMax => ReduceOp::Umax,
                    Op::GroupNonUniformFMax => ReduceOp::Fmax,
                    Op::GroupNonUniformBitwiseAnd | Op::GroupNonUniformLogicalAnd => ReduceOp::Iand,
                    Op::GroupNonUniformBitwiseOr | Op::GroupNonUniformLogicalOr => ReduceOp::Ior,
                    _ => ReduceOp::Ixor,
                };
                let v = self.value(i, 2)?;
                if self.b.ty(v) != rt {
                    return Err(i.err(ErrorKind::BadType, "operand type differs from the result"));
                }
                match &i.ops[1] {
                    Operand::GroupOperation(GroupOperation::Reduce) => {
                        i.exact(3)?;
                        self.b
                            .intrinsic(Intrinsic::Reduce, rt, &[v], &[rop as u32, 0])
                    }
                    Operand::GroupOperation(GroupOperation::ClusteredReduce) => {
                        i.exact(4)?;
                        let cs = self.scalar_lit_const(i, 3)?;
                        if cs == 0 || !cs.is_power_of_two() || cs > 128 {
                            return Err(i.err(
                                ErrorKind::BadOperands,
                                "cluster size must be a power of two",
                            ));
                        }
                        self.b
                            .intrinsic(Intrinsic::Reduce, rt, &[v], &[rop as u32, cs as u32])
                    }
                    Operand::GroupOperation(GroupOperation::InclusiveScan) => {
                        i.exact(3)?;
                        self.b
                            .intrinsic(Intrinsic::InclusiveScan, rt, &[v], &[rop as u32])
                    }
                    Operand::GroupOperation(GroupOperation::ExclusiveScan) => {
                        i.exact(3)?;
                        self.b
                            .intrinsic(Intrinsic::ExclusiveScan, rt, &[v], &[rop as u32])
                    }
                    o => {
                        return Err(
                            i.err(ErrorKind::Unsupported, format!("group operation {:?}", o))
                        )
                    }
                }
            }
        };
        self.set(i, Val::V(v))
    }
}
