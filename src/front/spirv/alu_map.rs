//! The table from SPIR-V core arithmetic opcodes to IR ALU ops, shared by function code and
//! `OpSpecConstantOp` folding so both read an opcode the same way.

use crate::ir::AluOp;
use rspirv::spirv::Op as S;

/// How a SPIR-V opcode maps onto the IR.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AluMap {
    /// One ALU op; `true` when the two sources are swapped (`a > b` is `b < a`).
    Op(AluOp, bool),
    /// A conversion (result bit size from the result type).
    Conv(AluOp),
    /// OpBitcast.
    Bitcast,
}

pub fn spirv_alu(op: S) -> Option<AluMap> {
    use AluMap::*;
    use AluOp as A;
    Some(match op {
        S::FAdd => Op(A::Fadd, false),
        S::FSub => Op(A::Fsub, false),
        S::FMul => Op(A::Fmul, false),
        S::FDiv => Op(A::Fdiv, false),
        S::FRem => Op(A::Frem, false),
        S::FMod => Op(A::Fmod, false),
        S::FNegate => Op(A::Fneg, false),
        S::IAdd => Op(A::Iadd, false),
        S::ISub => Op(A::Isub, false),
        S::IMul => Op(A::Imul, false),
        S::SDiv => Op(A::Idiv, false),
        S::UDiv => Op(A::Udiv, false),
        S::SRem => Op(A::Irem, false),
        S::SMod => Op(A::Imod, false),
        S::UMod => Op(A::Umod, false),
        S::SNegate => Op(A::Ineg, false),
        S::Not => Op(A::Inot, false),
        S::BitwiseAnd => Op(A::Iand, false),
        S::BitwiseOr => Op(A::Ior, false),
        S::BitwiseXor => Op(A::Ixor, false),
        S::ShiftLeftLogical => Op(A::Ishl, false),
        S::ShiftRightLogical => Op(A::Ushr, false),
        S::ShiftRightArithmetic => Op(A::Ishr, false),
        S::LogicalAnd => Op(A::Iand, false),
        S::LogicalOr => Op(A::Ior, false),
        S::LogicalNot => Op(A::Inot, false),
        S::LogicalEqual => Op(A::Ieq, false),
        S::LogicalNotEqual => Op(A::Ine, false),
        S::IEqual => Op(A::Ieq, false),
        S::INotEqual => Op(A::Ine, false),
        S::SLessThan => Op(A::Ilt, false),
        S::SGreaterThanEqual => Op(A::Ige, false),
        S::SGreaterThan => Op(A::Ilt, true),
        S::SLessThanEqual => Op(A::Ige, true),
        S::ULessThan => Op(A::Ult, false),
        S::UGreaterThanEqual => Op(A::Uge, false),
        S::UGreaterThan => Op(A::Ult, true),
        S::ULessThanEqual => Op(A::Uge, true),
        S::FOrdLessThan => Op(A::Flt, false),
        S::FOrdGreaterThanEqual => Op(A::Fge, false),
        S::FOrdGreaterThan => Op(A::Flt, true),
        S::FOrdLessThanEqual => Op(A::Fge, true),
        S::FOrdEqual => Op(A::Feq, false),
        S::FOrdNotEqual => Op(A::Fneo, false),
        S::FUnordEqual => Op(A::Fequ, false),
        S::FUnordNotEqual => Op(A::Fneu, false),
        S::FUnordLessThan => Op(A::Fltu, false),
        S::FUnordGreaterThanEqual => Op(A::Fgeu, false),
        S::FUnordGreaterThan => Op(A::Fltu, true),
        S::FUnordLessThanEqual => Op(A::Fgeu, true),
        S::IsNan => Op(A::Fisnan, false),
        S::IsInf => Op(A::Fisinf, false),
        S::BitReverse => Op(A::BitfieldReverse, false),
        S::Select => Op(A::Bcsel, false),
        S::DPdx => Op(A::Fddx, false),
        S::DPdy => Op(A::Fddy, false),
        S::DPdxFine => Op(A::FddxFine, false),
        S::DPdyFine => Op(A::FddyFine, false),
        S::DPdxCoarse => Op(A::FddxCoarse, false),
        S::DPdyCoarse => Op(A::FddyCoarse, false),
        S::QuantizeToF16 => Op(A::Fquantize2f16, false),
        S::BitCount => Conv(A::BitCount),
        S::ConvertFToU => Conv(A::F2u),
        S::ConvertFToS => Conv(A::F2i),
        S::ConvertSToF => Conv(A::I2f),
        S::ConvertUToF => Conv(A::U2f),
        S::UConvert => Conv(A::U2u),
        S::SConvert => Conv(A::I2i),
        S::FConvert => Conv(A::F2f),
        S::Bitcast => Bitcast,
        _ => return None,
    })
}
