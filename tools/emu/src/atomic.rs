//! Atomic read-modify-write operations shared by DS, buffer, global/flat and SMEM atomics,
//! parsed from the instruction's name (the generated `Opcode`'s mnemonic without its
//! format prefix): the operation, 32 or 64 bits, signedness, float.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    Add,
    Sub,
    Rsub,
    Inc,
    Dec,
    Min,
    Max,
    And,
    Or,
    Xor,
    Swap,
    /// Compare-and-swap: the data operand holds (new, compare) for buffer/global, and the
    /// caller passes them in that order.
    CmpSwap,
    /// DS mask-or: `(old & ~mask) | src`.
    Mskor,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Atomic {
    pub op: Op,
    pub wide: bool,
    pub signed: bool,
    pub float: bool,
}

/// Parses e.g. `add_u32`, `smin_x2`, `cmpswap_b64`, `wrxchg_rtn_b32`, `min_f32`, `add`.
pub fn parse(rest: &str) -> Option<Atomic> {
    let rest = rest.replace("_rtn", "");
    let (word, ty) = match rest.split_once('_') {
        Some((w, t)) => (w.to_string(), t.to_string()),
        None => (rest.clone(), String::new()),
    };
    let wide = matches!(ty.as_str(), "x2" | "u64" | "i64" | "b64" | "f64");
    let mut signed = ty.starts_with('i');
    let float = ty.starts_with('f') || word.starts_with('f') && word != "fadd";
    let op = match word.as_str() {
        "add" | "fadd" => Op::Add,
        "sub" => Op::Sub,
        "rsub" => Op::Rsub,
        "inc" => Op::Inc,
        "dec" => Op::Dec,
        "smin" => {
            signed = true;
            Op::Min
        }
        "smax" => {
            signed = true;
            Op::Max
        }
        "umin" | "min" | "fmin" => Op::Min,
        "umax" | "max" | "fmax" => Op::Max,
        "and" => Op::And,
        "or" => Op::Or,
        "xor" => Op::Xor,
        "swap" | "wrxchg" | "storexchg" => Op::Swap,
        "cmpswap" | "cmpst" | "cmpstore" | "fcmpswap" => Op::CmpSwap,
        "mskor" => Op::Mskor,
        _ => return None,
    };
    Some(Atomic {
        op,
        wide,
        signed,
        float: float || word == "fadd",
    })
}

impl Atomic {
    /// The new memory value from the old one, the data and (CmpSwap/Mskor) a second value.
    pub fn apply(&self, old: u64, data: u64, second: u64) -> u64 {
        let mask = if self.wide { u64::MAX } else { 0xffff_ffff };
        let (old, data, second) = (old & mask, data & mask, second & mask);
        let sx = |v: u64| -> i64 {
            if self.wide {
                v as i64
            } else {
                v as u32 as i32 as i64
            }
        };
        let fl = |v: u64| -> f64 {
            if self.wide {
                f64::from_bits(v)
            } else {
                f32::from_bits(v as u32) as f64
            }
        };
        let unfl = |x: f64| -> u64 {
            if self.wide {
                x.to_bits()
            } else {
                (x as f32).to_bits() as u64
            }
        };
        let r = match self.op {
            Op::Add if self.float => unfl(fl(old) + fl(data)),
            Op::Add => old.wrapping_add(data),
            Op::Sub => old.wrapping_sub(data),
            Op::Rsub => data.wrapping_sub(old),
            Op::Inc => {
                if old >= data {
                    0
                } else {
                    old + 1
                }
            }
            Op::Dec => {
                if old == 0 || old > data {
                    data
                } else {
                    old - 1
                }
            }
            Op::Min if self.float => unfl(crate::float::min_num(fl(old), fl(data), f64::is_nan)),
            Op::Max if self.float => unfl(crate::float::max_num(fl(old), fl(data), f64::is_nan)),
            Op::Min if self.signed => sx(old).min(sx(data)) as u64,
            Op::Max if self.signed => sx(old).max(sx(data)) as u64,
            Op::Min => old.min(data),
            Op::Max => old.max(data),
            Op::And => old & data,
            Op::Or => old | data,
            Op::Xor => old ^ data,
            Op::Swap => data,
            Op::CmpSwap => {
                if old == second {
                    data
                } else {
                    old
                }
            }
            Op::Mskor => (old & !data) | second,
        };
        r & mask
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_semantics() {
        let a = parse("smin_x2").unwrap();
        assert!(a.wide && a.signed && a.op == Op::Min);
        assert_eq!(a.apply(5, (-3i64) as u64, 0), (-3i64) as u64);
        let a = parse("inc_u32").unwrap();
        assert_eq!(a.apply(7, 7, 0), 0);
        assert_eq!(a.apply(3, 7, 0), 4);
        let a = parse("dec_u32").unwrap();
        assert_eq!(a.apply(0, 9, 0), 9);
        let a = parse("cmpswap_b32").unwrap();
        assert_eq!(a.apply(1, 10, 1), 10);
        assert_eq!(a.apply(2, 10, 1), 2);
        let a = parse("add_f32").unwrap();
        assert_eq!(
            a.apply(1.5f32.to_bits() as u64, 2.0f32.to_bits() as u64, 0),
            3.5f32.to_bits() as u64
        );
        assert_eq!(parse("wrxchg_rtn_b32").unwrap().op, Op::Swap);
        assert!(parse("max_i32").unwrap().signed);
        assert!(parse("add").is_some_and(|a| !a.wide));
    }
}
