//! Algebraic simplification: identities that hold bit-exactly.
//!
//! Commutative ops put a constant operand second (canonical form). Integer rules are
//! unconditional (`x+0`, `x*1`, `x*0`, `x-x`, `x&x`, `x^x`, shifts by
//! zero, double negation, `x*2^k → x<<k`, `x/2^k → x>>k` and `x%2^k → x&(2^k-1)` for
//! unsigned, re-association of constant chains `(x+c1)+c2 → x+(c1+c2)` and
//! `(x*c1)*c2`). Float rules are only the IEEE-exact ones: `x*1`, `x/1`, `x+(-0.0)`,
//! `x-(+0.0)`, `x*(-1) → -x`, `--x`, `|(-x)|`, `||x||`, `sat(sat x)`. Select and compare
//! rules: constant conditions, equal arms, an undef arm, `x==x` for integers, `x>=0`/`x<0`
//! unsigned. A shift by a constant masked to its low n bits, `(x >> k) & (2^n − 1)`
//! (`ushr` or `ishr`, 32-bit scalar), is the shift alone (`ushr`) when the mask keeps all
//! 32 − k bits, else `ubitfield_extract(x, k, n)` when k + n ≤ 32. Constant scaling
//! distributes over a constant addend (`(x+c1)<<c2`, `(x+c1)*c2`) so that addresses share one base and adjacent loads can be combined.
//! A rewritten instruction is replaced in place or redirected; the old one is left for DCE.

use crate::ir::*;

pub fn run(m: &mut Module) -> bool {
    let mut progress = false;
    for (_, f) in m.functions.iter_mut() {
        progress |= simplify(f);
    }
    progress
}

/// The value every component of constant `v` has, if they are all equal.
fn splat(f: &Function, v: Value) -> Option<u64> {
    let c = f.as_const(v)?;
    let x = *c.first()?;
    c.iter().all(|&y| y == x).then_some(x)
}

fn float_bits(bits: u8, v: f64) -> u64 {
    super::fold_constants::from_f(bits, v)
}

enum Rw {
    /// Use this existing value instead.
    Value(Value),
    /// Become this instruction.
    Kind(InstKind),
    /// Become an instruction using a new splatted constant operand.
    WithConst(AluOp, Value, u64),
    /// Become a splatted constant.
    Const(u64),
    /// `op(x, k) + c`: a new `op` instruction, this one becomes the add.
    Distribute(AluOp, Value, Value, u64),
    /// Become `ubitfield_extract(x, offset, count)` with new constant operands.
    Extract(Value, u64, u64),
}

/// `(x >> k) & (2^n − 1)` on a 32-bit scalar, the shift by a constant k: the field
/// `(x, k, n)` when `k + n ≤ 32` (one bitfield extract; for `ishr` too, since the mask
/// keeps only bits the two shifts agree on), or `None`.
fn shifted_field(f: &Function, shift: Value, mask: u64) -> Option<(Value, u64, u64)> {
    let InstKind::Alu { op, srcs } = &f.insts[shift].kind else {
        return None;
    };
    if !matches!(op, AluOp::Ushr | AluOp::Ishr) || f.insts[shift].ty != ValType::new(32, 1) {
        return None;
    }
    let k = splat(f, srcs[1])?;
    let n = u64::from((mask + 1).trailing_zeros());
    if !(1..32).contains(&k) || mask == 0 || (mask + 1) & mask != 0 || k + n > 32 {
        return None;
    }
    Some((srcs[0], k, n))
}

fn simplify(f: &mut Function) -> bool {
    let mut map: SecondaryMap<InstData, Option<Value>> = SecondaryMap::new(None);
    let mut any = false;
    let mut pending: Vec<(Inst, Inst)> = Vec::new();
    for i in f.insts_in_order() {
        let ty = f.insts[i].ty;
        let InstKind::Alu { op, srcs } = &f.insts[i].kind else {
            continue;
        };
        let op = *op;
        let r = |k: usize| -> Value {
            let mut v = srcs[k];
            while let Some(t) = map[v] {
                v = t;
            }
            v
        };
        let s: SmallVec<[Value; 4]> = (0..srcs.len()).map(r).collect();
        let bits = if s.is_empty() {
            0
        } else {
            f.insts[s[0]].ty.bits
        };
        let c = |k: usize| s.get(k).and_then(|&v| splat(f, v));
        let inner = |k: usize| match &f.insts[s[k]].kind {
            InstKind::Alu { op: o, srcs } => Some((*o, srcs.clone())),
            _ => None,
        };
        let fone = float_bits(bits.max(16), 1.0);
        let fneg_one = float_bits(bits.max(16), -1.0);
        let fneg_zero = if bits >= 16 { 1u64 << (bits - 1) } else { 0 };
        let all_ones = ValType::new(bits.max(1), 1).mask();
        use AluOp::*;
        let rw: Option<Rw> = match op {
            // Canonical form: constants second in commutative ops.
            _ if op.is_commutative()
                && s.len() == 2
                && f.as_const(s[0]).is_some()
                && f.as_const(s[1]).is_none() =>
            {
                Some(Rw::Kind(InstKind::Alu {
                    op,
                    srcs: smallvec::smallvec![s[1], s[0]],
                }))
            }
            Iadd | Ior | Ixor | Isub | Ishl | Ishr | Ushr if c(1) == Some(0) => {
                Some(Rw::Value(s[0]))
            }
            Iadd | Ior | Ixor if c(0) == Some(0) => Some(Rw::Value(s[1])),
            Isub | Ixor if s[0] == s[1] => Some(Rw::Const(0)),
            Iand | Ior if s[0] == s[1] => Some(Rw::Value(s[0])),
            Iand if c(1) == Some(0) || c(0) == Some(0) => Some(Rw::Const(0)),
            Iand if c(1) == Some(all_ones) => Some(Rw::Value(s[0])),
            Iand if c(0) == Some(all_ones) => Some(Rw::Value(s[1])),
            Ior if c(1) == Some(all_ones) || c(0) == Some(all_ones) => Some(Rw::Const(all_ones)),
            // (x >> k) & (2^n − 1) → ubitfield_extract(x, k, n) (one v_bfe_u32/s_bfe_u32)
            Iand if ty == ValType::new(32, 1) && c(1).is_some() => {
                let m = c(1).unwrap();
                match (inner(0), shifted_field(f, s[0], m)) {
                    // ushr by k leaves 32 − k bits: a mask keeping all of them changes
                    // nothing
                    (Some((Ushr, isrcs)), _)
                        if splat(f, isrcs[1]).is_some_and(|k| {
                            let low = (1u64 << (32 - k.clamp(1, 31))) - 1;
                            (1..32).contains(&k) && m & low == low
                        }) =>
                    {
                        Some(Rw::Value(s[0]))
                    }
                    (_, Some((x, k, n))) => Some(Rw::Extract(x, k, n)),
                    _ => None,
                }
            }
            Imul if c(1) == Some(1) => Some(Rw::Value(s[0])),
            Imul if c(0) == Some(1) => Some(Rw::Value(s[1])),
            Imul if c(1) == Some(0) || c(0) == Some(0) => Some(Rw::Const(0)),
            Imul | Udiv | Umod if c(1).is_some_and(|x| x.is_power_of_two()) => {
                let x = c(1).unwrap();
                match op {
                    Imul => Some(Rw::WithConst(Ishl, s[0], x.trailing_zeros() as u64)),
                    Udiv => Some(Rw::WithConst(Ushr, s[0], x.trailing_zeros() as u64)),
                    _ => Some(Rw::WithConst(Iand, s[0], x - 1)),
                }
            }
            Imul if c(0).is_some_and(|x| x.is_power_of_two()) => Some(Rw::WithConst(
                Ishl,
                s[1],
                c(0).unwrap().trailing_zeros() as u64,
            )),
            Idiv if c(1) == Some(1) => Some(Rw::Value(s[0])),
            Iadd | Imul if c(1).is_some() => match inner(0) {
                Some((iop, isrcs)) if iop == op => match splat(f, isrcs[1]) {
                    Some(c1) => {
                        let c2 = c(1).unwrap();
                        let m = ValType::new(bits, 1).mask();
                        let folded = if op == Iadd {
                            c1.wrapping_add(c2) & m
                        } else {
                            c1.wrapping_mul(c2) & m
                        };
                        Some(Rw::WithConst(op, isrcs[0], folded))
                    }
                    None => None,
                },
                _ => None,
            },
            // Distribute constant scaling over a constant addend, so address arithmetic
            // keeps one shared base: (x + c1) << c2 → (x << c2) + (c1 << c2).
            Ishl | Imul if c(1).is_some() && ty.comps == 1 => match inner(0) {
                Some((Iadd, isrcs)) => match splat(f, isrcs[1]) {
                    Some(c1) => {
                        let c2 = c(1).unwrap();
                        let m = ty.mask();
                        let scaled = if op == Ishl {
                            c1.wrapping_shl((c2 & 63) as u32) & m
                        } else {
                            c1.wrapping_mul(c2) & m
                        };
                        Some(Rw::Distribute(op, isrcs[0], s[1], scaled))
                    }
                    None => None,
                },
                _ => None,
            },
            Ineg | Inot | Fneg => match inner(0) {
                Some((iop, isrcs)) if iop == op => Some(Rw::Value(isrcs[0])),
                _ => None,
            },
            Fabs => match inner(0) {
                Some((Fabs, _)) => Some(Rw::Value(s[0])),
                Some((Fneg, isrcs)) => Some(Rw::Kind(InstKind::Alu {
                    op: Fabs,
                    srcs: smallvec::smallvec![isrcs[0]],
                })),
                _ => None,
            },
            Fsat => match inner(0) {
                Some((Fsat, _)) => Some(Rw::Value(s[0])),
                _ => None,
            },
            Fmul if c(1) == Some(fone) => Some(Rw::Value(s[0])),
            Fmul if c(0) == Some(fone) => Some(Rw::Value(s[1])),
            Fdiv if c(1) == Some(fone) => Some(Rw::Value(s[0])),
            Fmul if c(1) == Some(fneg_one) => Some(Rw::Kind(InstKind::Alu {
                op: Fneg,
                srcs: smallvec::smallvec![s[0]],
            })),
            Fadd if c(1) == Some(fneg_zero) => Some(Rw::Value(s[0])),
            Fadd if c(0) == Some(fneg_zero) => Some(Rw::Value(s[1])),
            Fsub if c(1) == Some(0) => Some(Rw::Value(s[0])),
            Bcsel if c(0) == Some(1) => Some(Rw::Value(s[1])),
            Bcsel if c(0) == Some(0) => Some(Rw::Value(s[2])),
            Bcsel if s[1] == s[2] => Some(Rw::Value(s[1])),
            Bcsel if matches!(f.insts[s[2]].kind, InstKind::Undef) => Some(Rw::Value(s[1])),
            Bcsel if matches!(f.insts[s[1]].kind, InstKind::Undef) => Some(Rw::Value(s[2])),
            Bcsel if ty.bits == 1 && c(1) == Some(1) && c(2) == Some(0) => Some(Rw::Value(s[0])),
            Ieq | Ige | Uge if s[0] == s[1] => Some(Rw::Const(1)),
            Ine | Ilt | Ult if s[0] == s[1] => Some(Rw::Const(0)),
            Uge if c(1) == Some(0) => Some(Rw::Const(1)),
            Ult if c(1) == Some(0) => Some(Rw::Const(0)),
            _ => None,
        };
        let Some(rw) = rw else { continue };
        any = true;
        match rw {
            Rw::Value(v) => map[i] = Some(v),
            Rw::Kind(k) => f.insts[i].kind = k,
            Rw::Const(x) => {
                let x = x & ty.mask();
                f.insts[i].kind = InstKind::Const((0..ty.comps).map(|_| x).collect());
            }
            Rw::Distribute(dop, x, k, c) => {
                let scaled = f.alloc_detached(
                    InstKind::Alu {
                        op: dop,
                        srcs: smallvec::smallvec![x, k],
                    },
                    ty,
                );
                let cv = f.alloc_detached(InstKind::Const(smallvec::smallvec![c]), ty);
                pending.push((i, scaled));
                pending.push((i, cv));
                f.insts[i].kind = InstKind::Alu {
                    op: Iadd,
                    srcs: smallvec::smallvec![scaled, cv],
                };
            }
            Rw::Extract(x, k, n) => {
                let u32t = ValType::new(32, 1);
                let kv = f.alloc_detached(InstKind::Const(smallvec::smallvec![k]), u32t);
                let nv = f.alloc_detached(InstKind::Const(smallvec::smallvec![n]), u32t);
                pending.push((i, kv));
                pending.push((i, nv));
                f.insts[i].kind = InstKind::Alu {
                    op: UbitfieldExtract,
                    srcs: smallvec::smallvec![x, kv, nv],
                };
            }
            Rw::WithConst(nop, a, x) => {
                let at = f.insts[a].ty;
                let cty = if matches!(nop, Ishl | Ushr | Ishr) {
                    ValType::new(32, at.comps)
                } else {
                    at
                };
                let cv = f.alloc_detached(
                    InstKind::Const((0..cty.comps).map(|_| x & cty.mask()).collect()),
                    cty,
                );
                pending.push((i, cv));
                f.insts[i].kind = InstKind::Alu {
                    op: nop,
                    srcs: smallvec::smallvec![a, cv],
                };
            }
        }
    }
    f.place_before(&pending);
    if any {
        f.rewrite_uses(&map);
    }
    any
}
