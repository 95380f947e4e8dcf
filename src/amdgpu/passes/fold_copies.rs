//! Copy folding on machine SSA (before register allocation): an instruction that only
//! copies one of its sources — `x * 1`, `x + 0`, `x - 0`, `x | 0`, `x ^ 0`, `x & ~0`,
//! a shift by 0, a `s_mov`/`v_mov`/one-pair parallel copy of a temp — has its result's
//! readers read the source instead. The instruction itself stays; it is dead afterwards
//! and `eliminate_dead_code` removes it (or keeps it when SCC it writes is still read).
//!
//! Design: one forward walk records `alias[d] = x` for each such `d = x`, then one walk
//! renames every source operand (and the temps `Program::wqm` names) through the alias
//! chains. Linear in the number of operands.
//!
//! When renaming is sound (what is checked):
//! - `d` and `x` are temps of the same register class (a VGPR copy of an SGPR is a real
//!   move and stays);
//! - `d` has one definition and no fixed register (not in `Program::multi_def`, not
//!   precoloured); `x` has one definition too: in SSA it dominates `d` and every reader
//!   of `d`, and is never redefined in between (a phi web `x` could be, around a loop);
//! - the instruction has no modifiers (clamp, neg, DPP, ...) that would change the value.
//!
//! For a VGPR, lanes where `d` was written under a smaller exec than `x` read `x`'s value
//! instead of an undefined one, which no correct reader observes.

use crate::amdgpu::mir::{Arg, MInst, Op, Program, Pseudo, Temp};
use crate::isa::{Mods, Opcode};

/// Which source an identity operation copies, given its operands.
fn copied_source(i: &MInst, ids: &Identities) -> Option<Arg> {
    let o = match i.op {
        Op::Pseudo(Pseudo::ParallelCopy) if i.defs.len() == 1 => return Some(i.ops[0]),
        Op::Hw(o, _) => o,
        Op::Pseudo(_) => return None,
    };
    if i.mods != Mods::default() || i.defs.len() != 1 {
        return None;
    }
    let c = |k: usize, v: u32| i.ops.get(k) == Some(&Arg::Const(v));
    let two = i.ops.len() == 2;
    if ids.moves.contains(&o) && i.ops.len() == 1 {
        return Some(i.ops[0]);
    }
    let either = |v: u32| {
        if two && c(1, v) {
            Some(i.ops[0])
        } else if two && c(0, v) {
            Some(i.ops[1])
        } else {
            None
        }
    };
    if ids.one_either.contains(&o) {
        return either(1);
    }
    if ids.zero_either.contains(&o) {
        return either(0);
    }
    if ids.ones_either.contains(&o) {
        return either(u32::MAX);
    }
    if ids.zero_second.contains(&o) && two && c(1, 0) {
        return Some(i.ops[0]);
    }
    if ids.zero_first.contains(&o) && two && c(0, 0) {
        return Some(i.ops[1]);
    }
    None
}

/// The identity operations, resolved for the program's generation.
struct Identities {
    moves: Vec<Opcode>,
    /// `x * 1` in either order.
    one_either: Vec<Opcode>,
    /// `x op 0` in either order.
    zero_either: Vec<Opcode>,
    /// `x & ~0` in either order.
    ones_either: Vec<Opcode>,
    /// `x op 0` (the constant second): subtractions and scalar shifts.
    zero_second: Vec<Opcode>,
    /// `0 op x` (the constant first): reversed subtraction and vector shifts.
    zero_first: Vec<Opcode>,
}

impl Identities {
    fn new(gen: crate::isa::Gen) -> Identities {
        let on = |ops: &[Opcode]| ops.iter().filter_map(|o| o.on(gen)).collect::<Vec<_>>();
        use Opcode::*;
        Identities {
            moves: on(&[SMovB32, SMovB64, VMovB32]),
            one_either: on(&[SMulI32, VMulLoU32]),
            zero_either: on(&[
                SAddU32, SAddI32, VAddU32, SOrB32, SOrB64, VOrB32, SXorB32, SXorB64, VXorB32,
            ]),
            ones_either: on(&[SAndB32, VAndB32]),
            zero_second: on(&[
                SSubU32, SSubI32, VSubU32, SLshlB32, SLshrB32, SAshrI32, SLshlB64, SLshrB64,
                SAshrI64,
            ]),
            zero_first: on(&[VSubrevU32, VLshlrevB32, VLshrrevB32, VAshrrevI32]),
        }
    }
}

/// Renames the readers of copies to the copied temp; returns how many temps were folded.
pub fn fold_copies(p: &mut Program) -> u32 {
    let ids = Identities::new(p.target.gen);
    let n = p.temps.len();
    let mut defs = vec![0u8; n];
    for b in &p.blocks {
        for i in &b.insts {
            for a in &i.defs {
                if let Arg::Temp(t) = a {
                    defs[t.0 as usize] = defs[t.0 as usize].saturating_add(1);
                }
            }
        }
    }
    let single = |t: Temp| defs[t.0 as usize] == 1 && !p.multi_def.contains(&t);
    let mut alias: Vec<Option<Temp>> = vec![None; n];
    let mut folded = 0;
    for b in &p.blocks {
        for i in &b.insts {
            let Some(Arg::Temp(x)) = copied_source(i, &ids) else {
                continue;
            };
            let Arg::Temp(d) = i.defs[0] else {
                continue;
            };
            if d != x
                && single(d)
                && single(x)
                && p.rc(d) == p.rc(x)
                && !p.precolored.contains_key(&d)
            {
                alias[d.0 as usize] = Some(x);
                folded += 1;
            }
        }
    }
    if folded == 0 {
        return 0;
    }
    let resolve = |mut t: Temp| {
        while let Some(x) = alias[t.0 as usize] {
            t = x;
        }
        t
    };
    for b in &mut p.blocks {
        for i in &mut b.insts {
            for a in &mut i.ops {
                if let Arg::Temp(t) = a {
                    *t = resolve(*t);
                }
            }
        }
    }
    if let Some(w) = &mut p.wqm {
        w.live = resolve(w.live);
        for t in &mut w.seeds {
            *t = resolve(*t);
        }
    }
    folded
}
