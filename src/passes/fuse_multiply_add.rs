//! Multiply-add contraction: `fadd(fmul(a, b), c)` becomes `ffma(a, b, c)`.
//!
//! SPIR-V lets a consumer contract a float multiply and add unless one of them is decorated
//! `NoContraction` (GLSL `precise`), which the front end carries as [`InstData::exact`].
//! Every AMD generation gcnc targets has a full-rate fused multiply-add for f16, f32 and
//! f64 (`v_fma_f16`/`v_fmac_f16`, `v_fma_f32`/`v_fmac_f32`, `v_fma_f64`), so one `ffma`
//! replaces two instructions. The unfused `v_mad_f32`/`v_mac_f32` of GFX9 is not used:
//! it flushes f32 denormals, and gcnc's FLOAT_MODE keeps them.
//!
//! Rules, for f16/f32/f64 scalars and vectors alike (`t` the product, used once):
//! * `fadd(t, c)`, `fadd(c, t)` → `ffma(a, b, c)`;
//! * `fsub(t, c)` → `ffma(a, b, -c)`; `fsub(c, t)` → `ffma(-a, b, c)`.
//!
//! A negation is a constant with its sign bits flipped, the operand of an existing `fneg`,
//! or a new `fneg` placed before the add (selection then folds it into the fma's source
//! modifier). Invariants: an `exact` multiply or add is never fused; the product must have
//! no other use (a second use would keep the multiply alive and add an instruction); the
//! add becomes the `ffma` in place (same value, same `exact` = false) and the multiply is
//! removed. Fused results round once instead of twice: they differ from the unfused ones
//! in the last bit, which SPIR-V allows for values not marked `NoContraction`.
//!
//! Runs last in the middle end, after the algebraic clean-ups have folded `x*1` and
//! friends (a multiply they remove is not worth fusing).

use crate::ir::*;

pub fn run(m: &mut Module) -> bool {
    let mut progress = false;
    for (_, f) in m.functions.iter_mut() {
        progress |= fuse(f);
    }
    progress
}

/// The operands of a fusible multiply: an `fmul` of type `ty`, not `exact`, used once.
fn product(
    f: &Function,
    uses: &SecondaryMap<InstData, u32>,
    v: Value,
    ty: ValType,
) -> Option<(Value, Value)> {
    let d = f.inst(v);
    match &d.kind {
        InstKind::Alu {
            op: AluOp::Fmul,
            srcs,
        } if !d.exact && d.ty == ty && uses[v] == 1 && d.block.is_some() => {
            Some((srcs[0], srcs[1]))
        }
        _ => None,
    }
}

fn fuse(f: &mut Function) -> bool {
    let uses = f.use_counts();
    // removals and insertions are applied once at the end (one pass per block), so the
    // pass stays linear in the function's size
    let mut dead = SecondaryMap::with_len(f.insts.len(), false);
    let mut pending: Vec<(Inst, Inst)> = Vec::new();
    let mut changed = false;
    for i in f.insts_in_order() {
        let d = f.inst(i);
        let ty = d.ty;
        let (op, x, y) = match &d.kind {
            InstKind::Alu {
                op: op @ (AluOp::Fadd | AluOp::Fsub),
                srcs,
            } => (*op, srcs[0], srcs[1]),
            _ => continue,
        };
        if d.exact || !matches!(ty.bits, 16 | 32 | 64) {
            continue;
        }
        let (mul, srcs) = if let Some((a, b)) = product(f, &uses, x, ty) {
            let c = if op == AluOp::Fsub {
                negate(f, &mut pending, i, y)
            } else {
                y
            };
            (x, [a, b, c])
        } else if let Some((a, b)) = product(f, &uses, y, ty) {
            let a = if op == AluOp::Fsub {
                negate(f, &mut pending, i, a)
            } else {
                a
            };
            (y, [a, b, x])
        } else {
            continue;
        };
        if srcs.iter().filter(|&&v| is_literal(f, v)).count() > 1 {
            // two literals: a VOP3 instruction encodes at most one (none on GFX9), so
            // the fma would need a `v_mov` where the multiply and the add need none
            continue;
        }
        f.insts[i].kind = InstKind::Alu {
            op: AluOp::Ffma,
            srcs: srcs.into_iter().collect(),
        };
        dead[mul] = true;
        changed = true;
    }
    if changed {
        // removals first: `dead` is sized before the new instructions were allocated
        f.remove_all(&dead);
        f.place_before(&pending);
    }
    changed
}

/// Whether `v` is a constant the hardware cannot encode inline in a float operand (an
/// integer in -16..=64 or ±0.5, ±1, ±2, ±4 of its width), so it takes the literal slot.
fn is_literal(f: &Function, v: Value) -> bool {
    let Some(c) = f.as_const(v) else {
        return false;
    };
    let ty = f.ty(v);
    let bits = ty.bits;
    let floats: [f64; 4] = [0.5, 1.0, 2.0, 4.0];
    c.iter().any(|&x| {
        let small_int = x <= 64 || x >= ty.mask() - 15;
        let float = floats.iter().any(|&k| {
            let b = super::fold_constants::from_f(bits, k);
            x == b || x == b | 1u64 << (bits - 1)
        });
        !(small_int || float)
    })
}

/// `-v` for the instruction `at` to read: a constant with flipped sign bits, the operand
/// of an `fneg`, or a new `fneg`; a new instruction is queued in `pending` to be placed
/// immediately before `at`.
fn negate(f: &mut Function, pending: &mut Vec<(Inst, Inst)>, at: Inst, v: Value) -> Value {
    let ty = f.ty(v);
    let sign = 1u64 << (ty.bits - 1);
    if let Some(c) = f.as_const(v) {
        let neg: SmallVec<[u64; 4]> = c.iter().map(|&x| x ^ sign).collect();
        let n = f.alloc_detached(InstKind::Const(neg), ty);
        pending.push((at, n));
        return n;
    }
    if let InstKind::Alu {
        op: AluOp::Fneg,
        srcs,
    } = &f.inst(v).kind
    {
        return srcs[0];
    }
    let src: SmallVec<[Value; 3]> = smallvec::smallvec![v];
    let n = f.alloc_detached(
        InstKind::Alu {
            op: AluOp::Fneg,
            srcs: src,
        },
        ty,
    );
    pending.push((at, n));
    n
}
