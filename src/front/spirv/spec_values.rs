//! Specialization-constant values as users write them (`gcnc compile|run|ir --spec
//! ID=VALUE`): which SpecIds a module declares with which scalar type, and the conversion
//! of a typed value to the bit pattern [`super::Options::spec`] holds.
//!
//! Design: the value is read by the type of the constant the SpecId decorates, so `2=0.5`
//! is the f32 (or f16, f64) 0.5, `3=true` a boolean, `4=-7` a signed integer of the
//! constant's width; a `0x` prefix is a raw bit pattern for any type, as before. A plain
//! integer for a float constant is that number (`2=3` is 3.0). Every value must fit: an
//! out-of-range integer, a negative value for an unsigned constant, a bit pattern wider
//! than the type, a float that overflows to infinity, or an unknown SpecId is an error
//! naming the ID and the reason ([`SpecValueError`]), never a silent truncation.
//!
//! Invariant: only the module's declarations are read (OpDecorate SpecId, OpSpecConstant*,
//! OpTypeBool/Int/Float); nothing here depends on the entry point or on other values.

use super::parse;
use crate::front::Error;
use crate::ir::f16::f64_to_f16;
use rspirv::dr::Operand;
use rspirv::spirv::{Decoration, Op};
use std::collections::BTreeMap;

/// The scalar type of a specialization constant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpecType {
    Bool,
    Int { bits: u8, signed: bool },
    Float { bits: u8 },
}

impl SpecType {
    fn bits(self) -> u8 {
        match self {
            SpecType::Bool => 1,
            SpecType::Int { bits, .. } | SpecType::Float { bits } => bits,
        }
    }
}

impl std::fmt::Display for SpecType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SpecType::Bool => write!(f, "bool"),
            SpecType::Int { bits, signed: true } => write!(f, "{bits}-bit signed integer"),
            SpecType::Int { bits, .. } => write!(f, "{bits}-bit unsigned integer"),
            SpecType::Float { bits } => write!(f, "{bits}-bit float"),
        }
    }
}

/// Why a `--spec ID=VALUE` argument was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SpecValueError {
    /// Not of the form `ID=VALUE` with a decimal ID.
    Syntax(String),
    /// The module declares no specialization constant with this SpecId.
    UnknownId { id: u32, known: Vec<u32> },
    /// The value cannot be a value of the constant's type.
    BadValue { id: u32, ty: SpecType, why: String },
}

impl std::fmt::Display for SpecValueError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SpecValueError::Syntax(m) => write!(f, "{m}"),
            SpecValueError::UnknownId { id, known } => {
                let k: Vec<String> = known.iter().map(|k| k.to_string()).collect();
                write!(
                    f,
                    "the module has no specialization constant {id} (it has: {})",
                    if k.is_empty() {
                        "none".to_string()
                    } else {
                        k.join(", ")
                    }
                )
            }
            SpecValueError::BadValue { id, ty, why } => {
                write!(f, "specialization constant {id} is a {ty}: {why}")
            }
        }
    }
}

impl std::error::Error for SpecValueError {}

/// The specialization constants of a module (SpecId → scalar type), in SpecId order.
pub fn spec_constants(words: &[u32]) -> Result<BTreeMap<u32, SpecType>, Error> {
    let parsed = parse::parse(words)?;
    let mut spec_id: BTreeMap<u32, u32> = BTreeMap::new();
    let mut types: BTreeMap<u32, SpecType> = BTreeMap::new();
    let mut out = BTreeMap::new();
    for i in &parsed.insts {
        match i.op {
            Op::Decorate
                if matches!(i.ops.get(1), Some(Operand::Decoration(Decoration::SpecId))) =>
            {
                spec_id.insert(i.id_op(0)?, i.lit(2)?);
            }
            Op::TypeBool => {
                types.insert(i.result_id()?, SpecType::Bool);
            }
            Op::TypeInt => {
                let ty = SpecType::Int {
                    bits: i.lit(0)? as u8,
                    signed: i.lit(1)? != 0,
                };
                types.insert(i.result_id()?, ty);
            }
            Op::TypeFloat => {
                types.insert(
                    i.result_id()?,
                    SpecType::Float {
                        bits: i.lit(0)? as u8,
                    },
                );
            }
            Op::SpecConstant | Op::SpecConstantTrue | Op::SpecConstantFalse => {
                let id = i.result_id()?;
                if let (Some(&sid), Some(&ty)) = (spec_id.get(&id), types.get(&i.result_ty()?)) {
                    out.insert(sid, ty);
                }
            }
            _ => {}
        }
    }
    Ok(out)
}

/// Parses one `ID=VALUE` argument against the module's constants `consts`.
pub fn parse_spec_arg(
    consts: &BTreeMap<u32, SpecType>,
    arg: &str,
) -> Result<(u32, u64), SpecValueError> {
    let (id, v) = arg
        .split_once('=')
        .ok_or_else(|| SpecValueError::Syntax("expected ID=VALUE".into()))?;
    let id: u32 = id.trim().parse().map_err(|_| {
        SpecValueError::Syntax(format!(
            "`{}` is not a SpecId (a decimal number)",
            id.trim()
        ))
    })?;
    let ty = *consts.get(&id).ok_or_else(|| SpecValueError::UnknownId {
        id,
        known: consts.keys().copied().collect(),
    })?;
    let bits = parse_value(ty, v.trim()).map_err(|why| SpecValueError::BadValue { id, ty, why })?;
    Ok((id, bits))
}

/// The bit pattern of `text` as a value of type `ty` (the reason when it is not one).
pub fn parse_value(ty: SpecType, text: &str) -> Result<u64, String> {
    let width = ty.bits();
    if let Some(h) = text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        let v = u64::from_str_radix(h, 16).map_err(|_| format!("`{text}` is not a hex number"))?;
        if width < 64 && v >> width != 0 {
            return Err(format!("the bit pattern {text} is wider than {width} bits"));
        }
        return Ok(v);
    }
    match ty {
        SpecType::Bool => match text {
            "true" | "1" => Ok(1),
            "false" | "0" => Ok(0),
            _ => Err(format!("`{text}` is not true, false, 1 or 0")),
        },
        SpecType::Int { bits, signed } => {
            let v: i128 = text
                .parse()
                .map_err(|_| format!("`{text}` is not a decimal integer"))?;
            let (lo, hi) = if signed {
                (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
            } else {
                (0, (1i128 << bits) - 1)
            };
            if v < lo || v > hi {
                return Err(format!("{text} is outside {lo}..={hi}"));
            }
            Ok((v as u64) & mask(bits))
        }
        SpecType::Float { bits } => {
            let t = text.strip_suffix('f').unwrap_or(text);
            let x: f64 = t.parse().map_err(|_| format!("`{text}` is not a number"))?;
            let b = match bits {
                16 => f64_to_f16(x, false) as u64,
                32 => (x as f32).to_bits() as u64,
                _ => x.to_bits(),
            };
            let back_inf = match bits {
                16 => b & 0x7fff == 0x7c00,
                32 => b & 0x7fff_ffff == 0x7f80_0000,
                _ => x.is_infinite(),
            };
            if back_inf && x.is_finite() {
                return Err(format!("{text} overflows a {bits}-bit float"));
            }
            Ok(b)
        }
    }
}

fn mask(bits: u8) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const U32: SpecType = SpecType::Int {
        bits: 32,
        signed: false,
    };
    const I32: SpecType = SpecType::Int {
        bits: 32,
        signed: true,
    };

    #[test]
    fn values_are_read_by_the_constants_type() {
        assert_eq!(
            parse_value(SpecType::Float { bits: 32 }, "0.5"),
            Ok(0x3f00_0000)
        );
        assert_eq!(
            parse_value(SpecType::Float { bits: 32 }, "3"),
            Ok(0x4040_0000)
        );
        assert_eq!(
            parse_value(SpecType::Float { bits: 32 }, "1.5f"),
            Ok(0x3fc0_0000)
        );
        assert_eq!(parse_value(SpecType::Float { bits: 16 }, "-2"), Ok(0xc000));
        assert_eq!(
            parse_value(SpecType::Float { bits: 64 }, "0.1"),
            Ok(0.1f64.to_bits())
        );
        assert_eq!(parse_value(SpecType::Bool, "true"), Ok(1));
        assert_eq!(parse_value(SpecType::Bool, "0"), Ok(0));
        assert_eq!(parse_value(I32, "-7"), Ok(0xffff_fff9));
        assert_eq!(
            parse_value(
                SpecType::Int {
                    bits: 64,
                    signed: true
                },
                "-1"
            ),
            Ok(u64::MAX)
        );
        assert_eq!(
            parse_value(
                SpecType::Int {
                    bits: 16,
                    signed: true
                },
                "-2"
            ),
            Ok(0xfffe)
        );
        assert_eq!(parse_value(U32, "4294967295"), Ok(0xffff_ffff));
    }

    #[test]
    fn bit_patterns_pass_through_for_every_type() {
        assert_eq!(
            parse_value(SpecType::Float { bits: 32 }, "0x3f800000"),
            Ok(0x3f80_0000)
        );
        assert_eq!(parse_value(I32, "0xffffffff"), Ok(0xffff_ffff));
        assert_eq!(parse_value(SpecType::Bool, "0x1"), Ok(1));
    }

    #[test]
    fn values_that_do_not_fit_are_refused_with_the_reason() {
        let e = parse_value(U32, "-1").unwrap_err();
        assert!(e.contains("outside 0..=4294967295"), "{e}");
        let e = parse_value(I32, "2147483648").unwrap_err();
        assert!(e.contains("outside"), "{e}");
        let e = parse_value(
            SpecType::Int {
                bits: 8,
                signed: false,
            },
            "256",
        )
        .unwrap_err();
        assert!(e.contains("0..=255"), "{e}");
        let e = parse_value(U32, "0x100000000").unwrap_err();
        assert!(e.contains("wider than 32 bits"), "{e}");
        let e = parse_value(SpecType::Bool, "yes").unwrap_err();
        assert!(e.contains("true, false"), "{e}");
        let e = parse_value(SpecType::Float { bits: 16 }, "70000").unwrap_err();
        assert!(e.contains("overflows a 16-bit float"), "{e}");
        let e = parse_value(SpecType::Float { bits: 32 }, "half").unwrap_err();
        assert!(e.contains("not a number"), "{e}");
        let e = parse_value(U32, "1.5").unwrap_err();
        assert!(e.contains("not a decimal integer"), "{e}");
    }

    #[test]
    fn arguments_name_the_id_and_the_reason() {
        let consts: BTreeMap<u32, SpecType> = [(0, U32), (3, SpecType::Bool)].into();
        assert_eq!(parse_spec_arg(&consts, "3=true"), Ok((3, 1)));
        assert_eq!(parse_spec_arg(&consts, " 0 = 12 "), Ok((0, 12)));
        let e = parse_spec_arg(&consts, "5=1").unwrap_err().to_string();
        assert_eq!(
            e,
            "the module has no specialization constant 5 (it has: 0, 3)"
        );
        let e = parse_spec_arg(&consts, "0=-7").unwrap_err().to_string();
        assert_eq!(
            e,
            "specialization constant 0 is a 32-bit unsigned integer: -7 is outside 0..=4294967295"
        );
        let e = parse_spec_arg(&consts, "x=1").unwrap_err().to_string();
        assert!(e.contains("not a SpecId"), "{e}");
        let e = parse_spec_arg(&consts, "7").unwrap_err().to_string();
        assert!(e.contains("ID=VALUE"), "{e}");
    }
}
