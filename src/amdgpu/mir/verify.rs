//! The MIR verifier: checks the invariants listed in `mir`'s module doc.
//!
//! Run after isel, after register allocation and after lowering in debug builds and in
//! every test; a failure is a backend bug, reported as `Error::Verify` with the block,
//! the instruction's text and the broken rule.

use super::{Arg, BlockId, MInst, Op, Program, Pseudo, RegClass, RegType};
use crate::amdgpu::Error;
use crate::isa::tables::{ALLOW_SGPR, ALLOW_VGPR};

fn fail(p: &Program, b: usize, i: Option<&MInst>, msg: String) -> Error {
    let at = match i {
        Some(i) => format!("BB{b}: `{}`: ", super::print::print_inst(p, i)),
        None => format!("BB{b}: "),
    };
    Error::Verify(format!("{at}{msg}"))
}

/// Checks `p`. `allocated` demands that no temp remains.
pub fn verify(p: &Program, allocated: bool) -> Result<(), Error> {
    let n = p.blocks.len();
    let mut defs = vec![0u32; p.temps.len()];
    for (bi, b) in p.blocks.iter().enumerate() {
        // CFG symmetry
        for (succs, preds_of, what) in [
            (&b.linear_succs, true, "linear"),
            (&b.logical_succs, false, "logical"),
        ] {
            for s in succs {
                if s.0 as usize >= n {
                    return Err(fail(
                        p,
                        bi,
                        None,
                        format!("{what} successor BB{} out of range", s.0),
                    ));
                }
                let sb = p.block(*s);
                let preds = if preds_of {
                    &sb.linear_preds
                } else {
                    &sb.logical_preds
                };
                if !preds.contains(&BlockId(bi as u32)) {
                    return Err(fail(
                        p,
                        bi,
                        None,
                        format!("{what} edge to BB{} missing from its preds", s.0),
                    ));
                }
            }
        }
        for pr in &b.linear_preds {
            if !p.block(*pr).linear_succs.contains(&BlockId(bi as u32)) {
                return Err(fail(
                    p,
                    bi,
                    None,
                    format!("linear pred BB{} lacks the edge", pr.0),
                ));
            }
        }
        for pr in &b.logical_preds {
            if !p.block(*pr).logical_succs.contains(&BlockId(bi as u32)) {
                return Err(fail(
                    p,
                    bi,
                    None,
                    format!("logical pred BB{} lacks the edge", pr.0),
                ));
            }
        }
        for i in &b.insts {
            for a in i.defs.iter().chain(i.ops.iter()) {
                match a {
                    Arg::Temp(t) if allocated => {
                        return Err(fail(
                            p,
                            bi,
                            Some(i),
                            format!("temp %{} after allocation", t.0),
                        ))
                    }
                    Arg::Temp(t) if t.0 as usize >= p.temps.len() => {
                        return Err(fail(p, bi, Some(i), format!("temp %{} out of range", t.0)))
                    }
                    Arg::Label(l) if l.0 as usize >= n => {
                        return Err(fail(
                            p,
                            bi,
                            Some(i),
                            format!("label BB{} out of range", l.0),
                        ))
                    }
                    Arg::Symbol(k) if *k as usize >= p.symbols.len() => {
                        return Err(fail(p, bi, Some(i), format!("symbol {k} out of range")))
                    }
                    _ => {}
                }
            }
            for d in &i.defs {
                if let Arg::Temp(t) = d {
                    defs[t.0 as usize] += 1;
                }
            }
            check_inst(p, bi, i)?;
        }
    }
    if !allocated {
        for (t, &c) in defs.iter().enumerate() {
            let multi = p.multi_def.contains(&super::Temp(t as u32));
            if c > 1 && !multi {
                return Err(Error::Verify(format!("%{t} defined {c} times")));
            }
        }
        for b in &p.blocks {
            for i in &b.insts {
                for o in &i.ops {
                    if let Arg::Temp(t) = o {
                        if defs[t.0 as usize] == 0 {
                            return Err(Error::Verify(format!("%{} used but never defined", t.0)));
                        }
                    }
                }
            }
        }
    }
    Ok(())
}

/// Size in dwords and file of an operand, when it is a register.
fn reg_of(p: &Program, a: &Arg) -> Option<(RegType, u8)> {
    match *a {
        Arg::Temp(t) => Some((p.rc(t).ty, p.rc(t).dwords)),
        Arg::Reg(r) => Some((
            if r.base.is_vgpr() {
                RegType::Vgpr
            } else {
                RegType::Sgpr
            },
            r.count,
        )),
        _ => None,
    }
}

fn check_inst(p: &Program, bi: usize, i: &MInst) -> Result<(), Error> {
    let t = p.target;
    if i.op_y.is_some() {
        // a VOPD pair: each half by its own table entry
        let Some((x, y)) = i.vopd_halves(t.gen) else {
            return Err(fail(p, bi, Some(i), "malformed VOPD pair".into()));
        };
        check_inst(p, bi, &x)?;
        return check_inst(p, bi, &y);
    }
    match i.op {
        Op::Hw(op, fmt) => {
            let d = crate::isa::tables::form(t.gen, op, fmt).ok_or_else(|| {
                fail(
                    p,
                    bi,
                    Some(i),
                    format!("{} has no {:?} form on {}", op.name(), fmt, t.gen.mcpu()),
                )
            })?;
            let mut di = i.defs.iter();
            let mut oi = i.ops.iter();
            let layout = i.explicit_layout(d);
            let nv = layout
                .iter()
                .filter(|o| o.field == crate::isa::Field::Vaddr)
                .count();
            let nsa = nv > 1;
            // the VGPRs of each NSA address operand (GFX11's fifth may be a tuple)
            let nsa_sizes = if nsa {
                crate::isa::format::mimg::addr_size(d, &i.mods.mem)
                    .and_then(|n| crate::isa::format::mimg::addr_operands(t.gen, n, nv))
                    .unwrap_or_default()
            } else {
                Vec::new()
            };
            let mut va = 0;
            for od in layout {
                let a = if od.is_def() { di.next() } else { oi.next() };
                let Some(a) = a else {
                    return Err(fail(p, bi, Some(i), "too few operands".into()));
                };
                if od.imm.is_some() {
                    // an immediate field that takes an SGPR too (SMEM's offset): one SGPR
                    let sgpr = od.allow & crate::isa::tables::ALLOW_SGPR != 0
                        && reg_of(p, a) == Some((RegType::Sgpr, 1));
                    if !sgpr && !matches!(a, Arg::Imm(_) | Arg::Const(_) | Arg::Label(_)) {
                        return Err(fail(
                            p,
                            bi,
                            Some(i),
                            "immediate field needs a constant".into(),
                        ));
                    }
                    continue;
                }
                if let Some((ty, n)) = reg_of(p, a) {
                    let mut want = od.dwords(t.wave);
                    // GLOBAL with `saddr` off takes a 64-bit `vaddr`
                    if fmt == crate::isa::Format::Global
                        && od.field == crate::isa::Field::Vaddr
                        && i.ops.contains(&Arg::Off)
                    {
                        want = 2;
                    }
                    // MIMG data and address sizes follow the modifiers (dmask, dim)
                    if fmt == crate::isa::Format::Mimg {
                        use crate::isa::format::mimg;
                        match od.field {
                            crate::isa::Field::Vdst | crate::isa::Field::Vdata => {
                                want = mimg::data_size(t.gen, d, &i.mods.mem)
                            }
                            crate::isa::Field::Vaddr if t.gen == crate::isa::Gen::Gfx9 => {
                                want = n.max(od.size)
                            }
                            // NSA: the split the generation encodes (none: no size fits)
                            crate::isa::Field::Vaddr if nsa => {
                                want = nsa_sizes.get(va).copied().unwrap_or(0);
                                va += 1;
                            }
                            crate::isa::Field::Vaddr => {
                                want = mimg::addr_size(d, &i.mods.mem).unwrap_or(od.size)
                            }
                            _ => {}
                        }
                    }
                    if n != want {
                        return Err(fail(
                            p,
                            bi,
                            Some(i),
                            format!("operand has {n} dwords, field {:?} takes {want}", od.field),
                        ));
                    }
                    let ok = if od.is_def() {
                        match od.field {
                            crate::isa::Field::Vdst => {
                                (ty == RegType::Vgpr) != (od.sgpr || od.size == 0)
                            }
                            _ => ty == RegType::Sgpr,
                        }
                    } else {
                        match ty {
                            RegType::Vgpr => od.allow & ALLOW_VGPR != 0,
                            RegType::Sgpr => od.allow & ALLOW_SGPR != 0,
                        }
                    };
                    if !ok {
                        return Err(fail(
                            p,
                            bi,
                            Some(i),
                            format!("{:?} operand not allowed in field {:?}", ty, od.field),
                        ));
                    }
                }
            }
            // a returning MUBUF/MIMG atomic also defines its data register (tied operand)
            let tied = matches!(fmt, crate::isa::Format::Mubuf | crate::isa::Format::Mimg)
                && i.mods.glc
                && i.defs.len() == 1
                && i.ops.first() == i.defs.first();
            if tied {
                di.next();
            }
            // v_interp_p2_f32 (VINTRP) accumulates into its destination: the accumulator is
            // one extra trailing use of the defined register (isel/graphics.rs)
            if fmt == crate::isa::Format::Vintrp
                && op == crate::isa::Opcode::VInterpP2F32
                && i.ops.last() == i.defs.first()
            {
                oi.next();
            }
            // a MIMG read with TFE reads its zeroed destination: one extra trailing use of
            // the defined tuple (isel/image.rs `read_dest`)
            if fmt == crate::isa::Format::Mimg && i.mods.mem.tfe && i.ops.last() == i.defs.first() {
                oi.next();
            }
            // `s_branch` into the next part (an unlinked graphics stage's end): the symbol,
            // then the values the epilog reads, all uses (isel/graphics/parts.rs)
            if op == crate::isa::Opcode::SBranch && matches!(i.ops.get(1), Some(Arg::Symbol(_))) {
                oi.by_ref().for_each(drop);
            }
            if di.next().is_some() || oi.next().is_some() {
                return Err(fail(p, bi, Some(i), "too many operands".into()));
            }
        }
        Op::Pseudo(Pseudo::ParallelCopy) => {
            if i.defs.len() != i.ops.len() {
                return Err(fail(p, bi, Some(i), "copy arity".into()));
            }
            for (d, o) in i.defs.iter().zip(&i.ops) {
                let (dt, dn) = reg_of(p, d)
                    .ok_or_else(|| fail(p, bi, Some(i), "copy to a non-register".into()))?;
                match reg_of(p, o) {
                    Some((st, sn)) => {
                        if sn != dn || (dt == RegType::Sgpr && st == RegType::Vgpr) {
                            return Err(fail(
                                p,
                                bi,
                                Some(i),
                                "copy between incompatible classes".into(),
                            ));
                        }
                    }
                    None if matches!(o, Arg::Const(_)) => {}
                    None => return Err(fail(p, bi, Some(i), "copy from a label/immediate".into())),
                }
            }
        }
        Op::Pseudo(Pseudo::CreateVector) | Op::Pseudo(Pseudo::SplitVector) => {
            let (whole, parts) = if i.op == Op::Pseudo(Pseudo::CreateVector) {
                (&i.defs[..], &i.ops[..])
            } else {
                (&i.ops[..], &i.defs[..])
            };
            if whole.len() != 1 {
                return Err(fail(
                    p,
                    bi,
                    Some(i),
                    "vector pseudo needs one whole operand".into(),
                ));
            }
            let (wt, wn) = reg_of(p, &whole[0])
                .ok_or_else(|| fail(p, bi, Some(i), "vector is not a register".into()))?;
            let mut sum = 0;
            for a in parts {
                let (pt, pn) = reg_of(p, a)
                    .ok_or_else(|| fail(p, bi, Some(i), "vector part is not a register".into()))?;
                if pt == RegType::Vgpr && wt == RegType::Sgpr {
                    return Err(fail(p, bi, Some(i), "VGPR part of an SGPR vector".into()));
                }
                sum += pn;
            }
            if sum != wn {
                return Err(fail(
                    p,
                    bi,
                    Some(i),
                    format!("parts have {sum} dwords, vector {wn}"),
                ));
            }
        }
        Op::Pseudo(Pseudo::StartLinearVgpr) => {
            if i.defs.len() != 1
                || !i.ops.is_empty()
                || reg_of(p, &i.defs[0]) != Some((RegType::Vgpr, 1))
            {
                return Err(fail(p, bi, Some(i), "defines one v1".into()));
            }
        }
        Op::Pseudo(Pseudo::Spill) | Op::Pseudo(Pseudo::Reload) => {
            let spill = i.op == Op::Pseudo(Pseudo::Spill);
            let (value, slot) = if spill {
                (i.ops.get(1), i.ops.get(2))
            } else {
                (i.defs.first(), i.ops.get(1))
            };
            let shape = i.defs.len() == usize::from(!spill)
                && i.ops.len() == if spill { 3 } else { 2 }
                && i.ops.first().and_then(|a| reg_of(p, a)) == Some((RegType::Vgpr, 1))
                && value
                    .and_then(|a| reg_of(p, a))
                    .is_some_and(|(t, _)| t == RegType::Sgpr)
                && matches!(slot, Some(Arg::Imm(_)));
            if !shape {
                return Err(fail(
                    p,
                    bi,
                    Some(i),
                    "spill/reload takes a linear v1, an SGPR value and an immediate lane".into(),
                ));
            }
        }
        Op::Pseudo(Pseudo::ConstDataAddr) => {
            let pair = match i.defs.as_slice() {
                [Arg::Temp(t)] => p.temps.get(t.0 as usize) == Some(&RegClass::S2),
                [Arg::Reg(r)] => r.count == 2 && r.base.0 % 2 == 0 && r.base.0 < 106,
                _ => false,
            };
            if !pair || !i.ops.is_empty() || bi != 0 {
                return Err(fail(
                    p,
                    bi,
                    Some(i),
                    "defines one aligned SGPR pair, reads nothing, and sits in the entry block"
                        .into(),
                ));
            }
        }
        Op::Pseudo(Pseudo::StartPgm) => {
            if bi != 0 {
                return Err(fail(p, bi, Some(i), "outside the entry block".into()));
            }
        }
    }
    Ok(())
}
