//! Source-modifier folding on machine SSA (before register allocation): sign-bit
//! operations become the `neg`/`abs` bits of the float instructions that read them, and a
//! clamp to [0, 1] becomes the `clamp` bit of the instruction that computed its input.
//!
//! Selection emits `fneg` as `v_xor_b32 d, 0x80000000, x` (`0x8000` for f16) and `fabs`
//! as `v_and_b32 d, 0x7fffffff, x` (`0x7fff`), `fneg(fabs)` as `v_or_b32 d, 0x80000000, x`
//! (`0x8000`), SALU `s_xor_b32`/`s_and_b32`/`s_or_b32` likewise, and `fsat` as
//! `v_med3_f32 d, x, 0, 1.0` (`v_med3_f16`). Here:
//! - **neg/abs**: a reader of `d` whose encoding takes a float modifier on that source
//!   (`neg_mask`/`abs_mask` of its VOP3 form in `isa_tables`; integer sources have none)
//!   reads `x` with the modifier instead. Chains compose (`-|x|`, `|-x| = |x|`, `--x = x`)
//!   and combine with the reader's own modifiers. The producer's mask must match the
//!   source's width (a 32-bit sign for a 32-bit float source, a 16-bit one for an f16
//!   source); 64-bit sources are left alone (their sign is in the high dword). Lane-mask
//!   selects (`v_cndmask`) and DPP/SDWA instructions are not touched.
//! - **clamp**: `v_med3 d, x, 0, 1.0` whose `x` is read by nothing else and computed by a
//!   float arithmetic instruction of the same type (a fixed list: their clamp bit clamps the
//!   float result) without clamp or output modifier: that instruction sets `clamp` and
//!   defines `d` itself; the med3 goes. Clamp maps NaN to 0, which `fsat` allows.
//!
//! When a VOP1/VOP2 reader must be promoted to VOP3 for the modifier bit, that only pays
//! when the producer dies, so it is done only if every reader of `d` can fold; a reader
//! already in VOP3 always folds. A promotion is refused where VOP3 cannot encode the
//! instruction as it is: a literal on GFX9 (no VOP3 literal there) or more scalar sources
//! than the constant bus takes. `v_sub_f32 d, 0, x` is not treated as `-x`: it gives +0
//! for x = +0 where negation gives -0. Producers left without readers are removed by
//! `eliminate_dead_code`, which runs after this pass.
//!
//! Invariants: every rewritten instruction is encodable (its VOP3 form exists and has the
//! modifier bit); values are unchanged bit for bit except for clamp's NaN → 0.

use crate::amdgpu::mir::{Arg, MInst, Op, Program, Temp};
use crate::isa::tables::{self, ValTy};
use crate::isa::{Format, Gen, Mods, Opcode, Props};

/// A temp that is `±|x|` or `±x` of another: (x, neg, abs, sign bit width).
#[derive(Clone, Copy)]
struct Signed {
    x: Arg,
    neg: bool,
    abs: bool,
    bits: u8,
}

/// Folds sign operations and clamps into their readers/producers; returns how many
/// operands or clamps were folded.
pub fn fold_source_modifiers(p: &mut Program) -> u32 {
    fold_clamps(p) + fold_signs(p)
}

/// Definition and use counts per temp (uses counted per operand).
fn counts(p: &Program) -> (Vec<u32>, Vec<u32>) {
    let n = p.temps.len();
    let (mut defs, mut uses) = (vec![0u32; n], vec![0u32; n]);
    for b in &p.blocks {
        for i in &b.insts {
            for t in i.defs.iter().filter_map(|a| a.temp()) {
                defs[t.0 as usize] += 1;
            }
            for t in i.ops.iter().filter_map(|a| a.temp()) {
                uses[t.0 as usize] += 1;
            }
        }
    }
    (defs, uses)
}

/// The sign operation `i` is, if any: `(x, neg, abs, bits)` (`-x`, `|x|` or `-|x|`).
fn sign_op(i: &MInst) -> Option<(Arg, bool, bool, u8)> {
    let Op::Hw(o, _) = i.op else { return None };
    if i.mods != Mods::default() || i.defs.len() != 1 || i.ops.len() != 2 {
        return None;
    }
    // (neg, abs): xor flips the sign, and clears it, or sets it
    let (neg, abs) = match o {
        Opcode::VXorB32 | Opcode::SXorB32 => (true, false),
        Opcode::VAndB32 | Opcode::SAndB32 => (false, true),
        Opcode::VOrB32 | Opcode::SOrB32 => (true, true),
        _ => return None,
    };
    let (c, x) = match (i.ops[0], i.ops[1]) {
        (Arg::Const(c), x @ Arg::Temp(_)) | (x @ Arg::Temp(_), Arg::Const(c)) => (c, x),
        _ => return None,
    };
    let bits = match (abs && !neg, c) {
        (false, 0x8000_0000) | (true, 0x7fff_ffff) => 32,
        (false, 0x8000) | (true, 0x7fff) => 16,
        _ => return None,
    };
    Some((x, neg, abs, bits))
}

/// Whether the constant bus and the literal rule allow `ops` in a VOP3 instruction.
fn vop3_legal(p: &Program, ops: &[Arg]) -> bool {
    let gen = p.target.gen;
    let mut scalars: Vec<Arg> = Vec::new();
    let mut literal = false;
    for a in ops {
        match *a {
            Arg::Temp(t) if p.rc(t).is_sgpr() => {
                if !scalars.contains(a) {
                    scalars.push(*a)
                }
            }
            Arg::Reg(r) if !r.base.is_vgpr() => {
                if !scalars.contains(a) {
                    scalars.push(*a)
                }
            }
            Arg::Const(c) if !crate::amdgpu::isel::is_inline32(c) => literal = true,
            Arg::Symbol(_) => literal = true,
            _ => {}
        }
    }
    !(literal && gen == Gen::Gfx9) && scalars.len() + literal as usize <= gen.info().constant_bus
}

/// The source-modifier bits operand `k` of `i` may take in VOP3, and its value type.
fn modifiable(p: &Program, i: &MInst, k: usize) -> Option<(bool, bool, ValTy)> {
    let Op::Hw(o, f) = i.op else { return None };
    if !matches!(f, Format::Vop1 | Format::Vop2 | Format::Vop3) || k > 2 {
        return None;
    }
    if o.props().contains(Props::MASK_SRC) || i.mods.dpp != Default::default() {
        return None;
    }
    if i.mods.sdwa != Default::default() {
        return None;
    }
    let d = tables::form(p.target.gen, o, Format::Vop3)?;
    if d.vop3b && d.abs_mask == 0 && d.neg_mask == 0 {
        return None;
    }
    let mut src = d.explicit().filter(|o| {
        matches!(
            o.field,
            tables::Field::Src0 | tables::Field::Src1 | tables::Field::Src2
        )
    });
    let ty = src.nth(k)?.ty;
    let neg = d.neg_mask >> k & 1 == 1;
    let abs = d.abs_mask >> k & 1 == 1;
    (neg || abs).then_some((neg, abs, ty))
}

/// Whether a sign operation of `s.bits` can be folded into operand `k` of `i`.
fn can_fold(p: &Program, i: &MInst, k: usize, s: &Signed) -> bool {
    let Some((neg, abs, ty)) = modifiable(p, i, k) else {
        return false;
    };
    let width_ok = match ty {
        ValTy::B32 => s.bits == 32,
        ValTy::F16 => s.bits == 16,
        _ => false,
    };
    // a high-half f16 read (op_sel) has its sign in bit 31, not where the mask put it
    let mods_ok = (!s.neg || neg) && (!s.abs || abs) && i.mods.op_sel >> k & 1 == 0;
    if !width_ok || !mods_ok {
        return false;
    }
    let mut ops = i.ops.clone();
    ops[k] = s.x;
    let f = match i.op {
        Op::Hw(_, f) => f,
        Op::Pseudo(_) => return false,
    };
    // VOP2's src1 must be a VGPR; VOP3 (which a modifier needs anyway) has no such rule.
    f == Format::Vop3 && !matches!(s.x, Arg::Temp(t) if p.rc(t).is_sgpr()) || vop3_legal(p, &ops)
}

fn fold_signs(p: &mut Program) -> u32 {
    let (defs, uses) = counts(p);
    let single = |t: Temp| defs[t.0 as usize] == 1 && !p.multi_def.contains(&t);
    // the sign operations, composed through chains
    let mut signed: Vec<Option<Signed>> = vec![None; p.temps.len()];
    for b in &p.blocks {
        for i in &b.insts {
            let Some((x, neg, abs, bits)) = sign_op(i) else {
                continue;
            };
            let (Some(Arg::Temp(d)), Arg::Temp(xt)) = (i.defs.first().copied(), x) else {
                continue;
            };
            if !single(d) || !single(xt) || p.rc(d) != p.rc(xt) || p.rc(d).dwords != 1 {
                continue;
            }
            let inner = signed[xt.0 as usize].filter(|s| s.bits == bits);
            let s = match (inner, abs) {
                (None, _) => Signed { x, neg, abs, bits },
                (Some(s), false) => Signed { neg: !s.neg, ..s },
                // |s(x)| = |x|, and -|s(x)| = -|x|
                (Some(s), true) => Signed {
                    neg,
                    abs: true,
                    ..s
                },
            };
            signed[d.0 as usize] = Some(s);
        }
    }
    // which signed temps every reader can absorb (a sign operation further down a chain
    // reads the chain's root through `signed`, so it does not keep this one alive)
    let mut foldable_uses = vec![0u32; p.temps.len()];
    for b in &p.blocks {
        for i in &b.insts {
            let chained =
                matches!(i.defs.first(), Some(Arg::Temp(d)) if signed[d.0 as usize].is_some());
            for (k, a) in i.ops.iter().enumerate() {
                if chained && a.temp().is_some_and(|t| signed[t.0 as usize].is_some()) {
                    foldable_uses[a.temp().unwrap().0 as usize] += 1;
                    continue;
                }
                if let Some(s) = a.temp().and_then(|t| signed[t.0 as usize]) {
                    if can_fold(p, i, k, &s) {
                        foldable_uses[a.temp().unwrap().0 as usize] += 1;
                    }
                }
            }
        }
    }
    let mut folded = 0;
    for bi in 0..p.blocks.len() {
        for ii in 0..p.blocks[bi].insts.len() {
            let i = &p.blocks[bi].insts[ii];
            let mut new = i.clone();
            let mut changed = false;
            for k in 0..i.ops.len() {
                let Some(t) = new.ops[k].temp() else { continue };
                let Some(s) = signed[t.0 as usize] else {
                    continue;
                };
                let all = foldable_uses[t.0 as usize] == uses[t.0 as usize];
                let vop3 = matches!(new.op, Op::Hw(_, Format::Vop3));
                if !(all || vop3) || !can_fold(p, &new, k, &s) {
                    continue;
                }
                // the reader computes neg(abs(d)) with d = neg(abs(x)) as `s` says: an
                // abs of the reader swallows the sign, its neg stays outside
                let bit = 1u8 << k;
                let reader_abs = new.mods.abs & bit != 0;
                new.ops[k] = s.x;
                if s.abs {
                    new.mods.abs |= bit;
                }
                if s.neg && !reader_abs {
                    new.mods.neg ^= bit;
                }
                if let Op::Hw(o, _) = new.op {
                    new.op = Op::Hw(o, Format::Vop3);
                }
                changed = true;
                folded += 1;
            }
            if changed {
                p.blocks[bi].insts[ii] = new;
            }
        }
    }
    folded
}

/// Float arithmetic whose VOP3 clamp bit clamps a float result of the same type as its
/// sources: (f32 ops, f16 ops).
fn clamp_producers() -> (&'static [Opcode], &'static [Opcode]) {
    use Opcode::*;
    (
        &[
            VAddF32, VSubF32, VSubrevF32, VMulF32, VFmaF32, VMinF32, VMaxF32, VFractF32, VExpF32,
            VLogF32, VRcpF32, VRsqF32, VSqrtF32, VFloorF32, VCeilF32, VTruncF32, VRndneF32,
            VSinF32, VCosF32,
        ],
        &[
            VAddF16, VSubF16, VSubrevF16, VMulF16, VFmaF16, VMinF16, VMaxF16, VFractF16, VExpF16,
            VLogF16, VRcpF16, VRsqF16, VSqrtF16, VFloorF16, VCeilF16, VTruncF16, VRndneF16,
            VSinF16, VCosF16,
        ],
    )
}

fn fold_clamps(p: &mut Program) -> u32 {
    let gen = p.target.gen;
    let (defs, uses) = counts(p);
    let (f32_ops, f16_ops) = clamp_producers();
    let seeds: Vec<Temp> = p.wqm.as_ref().map_or(Vec::new(), |w| w.seeds.clone());
    // the defining instruction of each single-definition temp
    let mut def_at: Vec<Option<(usize, usize)>> = vec![None; p.temps.len()];
    for (bi, b) in p.blocks.iter().enumerate() {
        for (ii, i) in b.insts.iter().enumerate() {
            if let Some(Arg::Temp(t)) = i.defs.first() {
                def_at[t.0 as usize] = Some((bi, ii));
            }
        }
    }
    let mut folded = 0;
    let mut dead = Vec::new();
    for bi in 0..p.blocks.len() {
        for ii in 0..p.blocks[bi].insts.len() {
            let m = &p.blocks[bi].insts[ii];
            let (ty_ops, one) = match m.op {
                Op::Hw(Opcode::VMed3F32, _) => (f32_ops, 0x3f80_0000),
                Op::Hw(Opcode::VMed3F16, _) => (f16_ops, 0x3c00),
                _ => continue,
            };
            if m.mods != Mods::default()
                || m.ops.len() != 3
                || m.ops[1] != Arg::Const(0)
                || m.ops[2] != Arg::Const(one)
            {
                continue;
            }
            let (Some(Arg::Temp(d)), Arg::Temp(x)) = (m.defs.first().copied(), m.ops[0]) else {
                continue;
            };
            let (xi, di) = (x.0 as usize, d.0 as usize);
            if defs[xi] != 1 || uses[xi] != 1 || defs[di] != 1 || p.rc(x) != p.rc(d) {
                continue;
            }
            if p.multi_def.contains(&x) || p.multi_def.contains(&d) || seeds.contains(&x) {
                continue;
            }
            if p.precolored.contains_key(&x) || p.precolored.contains_key(&d) {
                continue;
            }
            let Some((pb, pi)) = def_at[xi] else { continue };
            let prod = &p.blocks[pb].insts[pi];
            let Op::Hw(o, f) = prod.op else { continue };
            let Some(desc) = tables::form(gen, o, Format::Vop3) else {
                continue;
            };
            let plain = Mods {
                abs: prod.mods.abs,
                neg: prod.mods.neg,
                ..Mods::default()
            };
            if !ty_ops.contains(&o)
                || prod.mods != plain
                || prod.defs.len() != 1
                || !desc.mods.contains(tables::ModSet::CLAMP)
                || f != Format::Vop3 && !vop3_legal(p, &prod.ops)
            {
                continue;
            }
            let prod = &mut p.blocks[pb].insts[pi];
            prod.op = Op::Hw(o, Format::Vop3);
            prod.mods.clamp = true;
            prod.defs[0] = Arg::Temp(d);
            dead.push((bi, ii));
            folded += 1;
        }
    }
    // removed last: `def_at` positions stay valid while the walk runs
    for (bi, ii) in dead.into_iter().rev() {
        p.blocks[bi].insts.remove(ii);
    }
    folded
}
