//! Operand values of a machine instruction, and LLVM's way of printing constants.
//!
//! Inline constants are kept as their hardware code (128..=208 integers, 240..=248 floats)
//! because the same code means a different bit pattern per operand type (0.5 is 0x3800 as
//! f16, 0x3f000000 as f32, 0x3fe0000000000000 as f64). A literal is the 32-bit dword that
//! follows the instruction; an instruction has at most one distinct literal value.
//! `Label`/`Symbol` leave a field for the code buffer to patch (see `encode::Fixup`).

use super::reg::Reg;
use super::tables::ValTy;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Operand {
    Reg(Reg),
    /// Inline constant, by hardware code (128..=208, 240..=248).
    Inline(u8),
    /// 32-bit literal dword.
    Literal(u32),
    /// Immediate field value (simm16, SMEM offset, ...), raw bits.
    Imm(u32),
    /// A SOPP branch target to be resolved by the code buffer (encodes as 0).
    Label(u32),
    /// A 32-bit literal to be relocated against a symbol (encodes as 0).
    Symbol(u32),
    /// An address or export source LLVM prints as `off` (memory and export formats).
    Off,
}

impl Operand {
    /// Inline integer constant (-16..=64).
    pub fn int(v: i32) -> Option<Operand> {
        match v {
            0..=64 => Some(Operand::Inline((128 + v) as u8)),
            -16..=-1 => Some(Operand::Inline((192 - v) as u8)),
            _ => None,
        }
    }
    pub fn reg(&self) -> Option<Reg> {
        match *self {
            Operand::Reg(r) => Some(r),
            _ => None,
        }
    }
    /// True for operands that need the literal dword.
    pub fn is_literal(&self) -> bool {
        matches!(self, Operand::Literal(_) | Operand::Symbol(_))
    }
}

const FLOATS: [&str; 8] = ["0.5", "-0.5", "1.0", "-1.0", "2.0", "-2.0", "4.0", "-4.0"];
const F16_BITS: [u32; 9] = [
    0x3800, 0xb800, 0x3c00, 0xbc00, 0x4000, 0xc000, 0x4400, 0xc400, 0x3118,
];
const F32_BITS: [u32; 9] = [
    0x3f000000, 0xbf000000, 0x3f800000, 0xbf800000, 0x40000000, 0xc0000000, 0x40800000, 0xc0800000,
    0x3e22f983,
];
const F64_HI: [u32; 8] = [
    0x3fe00000, 0xbfe00000, 0x3ff00000, 0xbff00000, 0x40000000, 0xc0000000, 0x40100000, 0xc0100000,
];

/// Value of an inline integer code, if it is one.
pub fn inline_int(code: u8) -> Option<i32> {
    match code {
        128..=192 => Some(code as i32 - 128),
        193..=208 => Some(192 - code as i32),
        _ => None,
    }
}

/// Text of an inline constant in an operand of type `ty`, as LLVM prints it.
pub fn inline_text(code: u8, ty: ValTy) -> String {
    if let Some(v) = inline_int(code) {
        return v.to_string();
    }
    let i = (code - 240) as usize;
    match ty {
        ValTy::I16 => format!("{:#x}", F16_BITS[i]),
        ValTy::B64 if i == 8 => "0.15915494309189532".into(),
        _ if i == 8 => "0.15915494".into(),
        _ => FLOATS[i].into(),
    }
}

/// Text of a 32-bit literal in an operand of type `ty`, as LLVM prints it.
pub fn literal_text(v: u32, ty: ValTy) -> String {
    let iv = v as i32;
    if (-16..=64).contains(&iv) {
        return iv.to_string();
    }
    let table: &[u32] = match ty {
        ValTy::F16 => &F16_BITS,
        ValTy::B32 => &F32_BITS,
        ValTy::B64 => &F64_HI,
        ValTy::I16 => &[],
    };
    if let Some(i) = table.iter().position(|&b| b == v) {
        return if i == 8 {
            "0.15915494".into()
        } else {
            FLOATS[i].into()
        };
    }
    format!("{v:#x}")
}

/// Parses a constant operand written as text: returns an inline code when the value is an
/// inline constant for `ty`, else a literal.
pub fn parse_const(s: &str, ty: ValTy) -> Option<Operand> {
    if let Some(i) = FLOATS.iter().position(|&f| f == s) {
        if ty == ValTy::I16 {
            return Some(Operand::Literal(F16_BITS[i]));
        }
        return Some(Operand::Inline(240 + i as u8));
    }
    if s == "0.15915494" || s == "0.15915494309189532" {
        return Some(match ty {
            ValTy::I16 => Operand::Literal(0x3118),
            _ => Operand::Inline(248),
        });
    }
    let v: i64 = if let Some(h) = s.strip_prefix("0x") {
        i64::from_str_radix(h, 16).ok()?
    } else if let Some(h) = s.strip_prefix("-0x") {
        -i64::from_str_radix(h, 16).ok()?
    } else {
        s.parse().ok()?
    };
    if (-16..=64).contains(&v) {
        return Operand::int(v as i32);
    }
    if !(-(1i64 << 31)..(1i64 << 32)).contains(&v) {
        return None;
    }
    let v = v as u32;
    // a literal whose value is an inline float pattern is written as the inline constant
    let table: &[u32] = match ty {
        ValTy::F16 => &F16_BITS,
        ValTy::B32 => &F32_BITS,
        _ => &[],
    };
    if let Some(i) = table.iter().position(|&b| b == v) {
        return Some(Operand::Inline(240 + i as u8));
    }
    Some(Operand::Literal(v))
}
