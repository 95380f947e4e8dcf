//! VOPD formation (GFX11 wave32 dual issue), after register allocation and lowering,
//! before `insert_waitcnt` and `resolve_hazards`: two independent VALU instructions of
//! one block become one VOPD instruction (`x :: y`), which issues both in one slot.
//!
//! Which instructions can be a half: a VOP1/VOP2 instruction whose opcode has a
//! `v_dual_*` form (`isa::format::vopd::dual_opcode`: fmac, fmaak, fmamk, mul, add, sub,
//! subrev, mul_dx9_zero, mov, cndmask, max, min, dot2acc as X or Y; add_nc_u32, lshlrev,
//! and as Y only), or the unmodified VOP3 form of one whose operands fit the VOP2 layout
//! (`v_cndmask_b32_e64` with the mask in `vcc_lo`, `v_fma_f32 d, a, b, d` as fmac). A
//! commutative half may swap its sources, `sub` and `subrev` swap into each other, to
//! put a VGPR in `vsrc1` or to move a source to another VGPR bank.
//!
//! Pairing, per block, first to last: instruction `i` takes the first later instruction
//! `j` within [`WINDOW`] such that
//! - `j` can move up to `i`: no instruction between them writes what `j` reads (its
//!   registers, exec, vcc for cndmask) or reads or writes what `j` writes, and none of
//!   them is a barrier to motion ([`is_barrier`]: pseudo, SOPP/SOPK (waits, branches,
//!   messages, barriers), exec writes, hardware-register writes, M0-relative VGPR
//!   access). The search stops at a barrier;
//! - `j` does not depend on `i`: it reads nothing `i` writes, and they write different
//!   registers. `i` may read what `j` writes: the two halves read their sources before
//!   either writes (RDNA3 ISA, VOPD: "the read gets the old value"), as `i` did first;
//! - some assignment of the two to X and Y (X-capable opcode in X) and of the source
//!   swaps passes the ISA layer's VOPD rules (`Inst::verify`: destination parity, src0
//!   and vsrc1 VGPR banks mod 4, accumulator parity, one literal value, at most two
//!   scalar values on the constant bus). The rules are checked there only.
//!
//! The motion check keeps the instructions between `i` and a candidate as two register
//! bit sets (what they write; what they write or read), grown as the search passes
//! them, so a candidate costs its own footprint, not the window's. A block with fewer
//! than two possible halves is left as it is without computing footprints.
//!
//! The pair takes `i`'s place; `j` is removed. Memory operations may be crossed (a VALU
//! half touches no memory; register dependencies through loads and stores are the
//! checks above), so the waits `insert_waitcnt` adds afterwards see the final order.
//! Hazards are resolved afterwards on the final order too: a pair's defs and uses are
//! both halves' (`MInst::vopd_halves`). The output depends only on the input program.

use crate::amdgpu::emit::to_inst;
use crate::amdgpu::mir::{Arg, MInst, Op, Program};
use crate::isa::format::vopd::dual_opcode;
use crate::isa::tables::{self, Format, Props};
use crate::isa::{ErrorKind, Gen, Mods, Opcode, PhysReg, Target, Wave};
use smallvec::SmallVec;

/// How many instructions below `i` its partner is looked for.
pub const WINDOW: usize = 32;

/// What the pass did, for measurement.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// VOPD instructions formed (each replaces two VALU instructions).
    pub pairs: u32,
    /// Candidate pairs (movable, independent, fitting opcodes) refused where some
    /// assignment of X/Y and source order failed first on a VGPR bank rule (none passed):
    /// what a bank-aware register assignment could have paired.
    pub bank_rejects: u32,
    /// Instructions left alone that had at least one such bank-only rejection.
    pub unpaired_by_banks: u32,
}

/// Forms VOPD pairs in every block of a GFX11 wave32 program (others are left alone).
pub fn form_vopd(p: &mut Program) -> Stats {
    let mut stats = Stats::default();
    if p.target.gen != Gen::Gfx11 || p.target.wave != Wave::W32 {
        return stats;
    }
    for bi in 0..p.blocks.len() {
        let insts = std::mem::take(&mut p.blocks[bi].insts);
        let insts = pair_block(p, insts, &mut stats);
        p.blocks[bi].insts = insts;
    }
    stats
}

/// One half candidate: the `v_dual_*` opcode, destination and sources in table order.
#[derive(Clone, Debug)]
struct Half {
    op: Opcode,
    def: Arg,
    ops: SmallVec<[Arg; 3]>,
}

/// Registers an instruction reads and writes, as half-open ranges of `PhysReg` numbers.
#[derive(Default)]
struct Footprint {
    reads: SmallVec<[(u16, u16); 8]>,
    writes: SmallVec<[(u16, u16); 4]>,
}

/// A set of `PhysReg` numbers (all of them are below 512), one bit each: the union of the
/// registers the instructions a candidate would move across read or write.
#[derive(Clone, Copy, Default)]
struct RegSet([u64; 8]);

impl RegSet {
    fn insert(&mut self, ranges: &[(u16, u16)]) {
        for &(s, e) in ranges {
            for r in s..e {
                self.0[usize::from(r >> 6)] |= 1 << (r & 63);
            }
        }
    }
    fn meets(&self, ranges: &[(u16, u16)]) -> bool {
        ranges
            .iter()
            .any(|&(s, e)| (s..e).any(|r| self.0[usize::from(r >> 6)] & (1 << (r & 63)) != 0))
    }
}

fn overlaps(a: &[(u16, u16)], b: &[(u16, u16)]) -> bool {
    a.iter()
        .any(|&(s, e)| b.iter().any(|&(s2, e2)| s < e2 && s2 < e))
}

fn range(r: PhysReg, n: u16) -> (u16, u16) {
    (r.0, r.0 + n)
}

fn footprint(i: &MInst) -> Footprint {
    let mut f = Footprint::default();
    let regs = |args: &[Arg], out: &mut SmallVec<[(u16, u16); 8]>| {
        for a in args {
            if let Arg::Reg(r) = a {
                out.push(range(r.base, r.count as u16));
            }
        }
    };
    regs(&i.ops, &mut f.reads);
    let mut w = SmallVec::new();
    regs(&i.defs, &mut w);
    f.writes.extend(w);
    let props = i.opcode().map_or(Props::empty(), |o| o.props())
        | i.op_y.map_or(Props::empty(), |o| o.props());
    let implicit = [
        (
            Props::READS_VCC,
            Props::WRITES_VCC,
            range(PhysReg::VCC_LO, 2),
        ),
        (
            Props::READS_EXEC,
            Props::WRITES_EXEC,
            range(PhysReg::EXEC_LO, 2),
        ),
        (Props::READS_SCC, Props::WRITES_SCC, range(PhysReg::SCC, 1)),
    ];
    for (r, w, reg) in implicit {
        if props.contains(r) || (r == Props::READS_EXEC && props.contains(Props::VALU)) {
            f.reads.push(reg);
        }
        if props.contains(w) {
            f.writes.push(reg);
        }
    }
    f
}

/// An instruction no VALU instruction is moved across.
fn is_barrier(i: &MInst, f: &Footprint) -> bool {
    let Op::Hw(op, fmt) = i.op else {
        return true;
    };
    matches!(fmt, Format::Sopp | Format::Sopk)
        || op.props().intersects(
            Props::BRANCH
                | Props::BARRIER
                | Props::END_PGM
                | Props::WAITCNT
                | Props::WRITES_EXEC
                | Props::WRITES_HWREG
                | Props::MOVREL,
        )
        || overlaps(&f.writes, &[range(PhysReg::EXEC_LO, 2)])
}

fn is_vgpr(a: &Arg) -> bool {
    matches!(a, Arg::Reg(r) if r.base.is_vgpr() && r.count == 1)
}

/// The ways `i` can be a VOPD half (none when it cannot be one).
fn half_forms(t: Target, i: &MInst) -> SmallVec<[Half; 2]> {
    let mut out = SmallVec::new();
    let (Op::Hw(op, fmt), None) = (i.op, i.op_y) else {
        return out;
    };
    if i.mods != Mods::default() || i.defs.len() != 1 || !is_vgpr(&i.defs[0]) {
        return out;
    }
    let vcc = Arg::Reg(crate::isa::Reg::vcc(t.wave));
    let (base, srcs): (Opcode, &[Arg]) = match fmt {
        Format::Vop1 | Format::Vop2 => (op, &i.ops),
        Format::Vop3 => match (op, &i.ops[..]) {
            (Opcode::VCndmaskB32, [_, _, m]) if *m == vcc => (op, &i.ops[..2]),
            (Opcode::VFmaF32, [_, _, c]) if *c == i.defs[0] => (Opcode::VFmacF32, &i.ops[..2]),
            _ if tables::form(t.gen, op, Format::Vop2).is_some()
                || tables::form(t.gen, op, Format::Vop1).is_some() =>
            {
                (op, &i.ops)
            }
            _ => return out,
        },
        _ => return out,
    };
    let Some(dual) = dual_opcode(t.gen, base) else {
        return out;
    };
    // a constant source keeps its meaning only where both forms type it alike (the f16
    // src0 of dot2acc is a 32-bit field in VOPD)
    let base_fmt = [Format::Vop2, Format::Vop1]
        .into_iter()
        .find(|&f| tables::form(t.gen, base, f).is_some());
    let (Some(bd), Some(dd)) = (
        base_fmt.and_then(|f| tables::form(t.gen, base, f)),
        [Format::VopdX, Format::VopdY]
            .into_iter()
            .find_map(|f| tables::form(t.gen, dual, f)),
    ) else {
        return out;
    };
    let fields: SmallVec<[_; 4]> = dd.explicit().filter(|o| !o.is_def()).collect();
    if fields.len() != srcs.len() {
        return out;
    }
    let src0_ty_same = bd
        .explicit()
        .find(|o| o.field == tables::Field::Src0)
        .map(|o| o.ty)
        == fields.first().map(|o| o.ty);
    let fits = |ops: &[Arg]| {
        fields.iter().zip(ops).all(|(od, a)| match od.field {
            tables::Field::Vsrc1 => is_vgpr(a),
            tables::Field::K => matches!(a, Arg::Const(_)),
            _ => match a {
                Arg::Reg(r) => r.count == 1,
                Arg::Const(_) => src0_ty_same,
                _ => false,
            },
        })
    };
    let half = |op, ops: &[Arg]| Half {
        op,
        def: i.defs[0],
        ops: ops.into(),
    };
    if fits(srcs) {
        out.push(half(dual, srcs));
    }
    // the sources swapped: commutative, or sub <-> subrev
    if let [a, b] = srcs {
        let swapped = match base {
            Opcode::VSubF32 => dual_opcode(t.gen, Opcode::VSubrevF32),
            Opcode::VSubrevF32 => dual_opcode(t.gen, Opcode::VSubF32),
            _ if base.props().contains(Props::COMMUTATIVE) => Some(dual),
            _ => None,
        };
        if let Some(sw) = swapped {
            if fits(&[*b, *a]) {
                out.push(half(sw, &[*b, *a]));
            }
        }
    }
    out
}

/// Why two halves did not pair.
enum Refusal {
    /// Only a VGPR bank rule failed for some assignment.
    Banks,
    Other,
}

/// The VOPD instruction of halves `a` and `b` (either may be X), or why there is none.
fn pair(p: &Program, a: &[Half], b: &[Half]) -> Result<MInst, Refusal> {
    let t = p.target;
    let mut banks = false;
    for (xs, ys) in [(a, b), (b, a)] {
        for x in xs {
            if tables::form(t.gen, x.op, Format::VopdX).is_none() {
                continue;
            }
            for y in ys {
                if tables::form(t.gen, y.op, Format::VopdY).is_none() {
                    continue;
                }
                let mut ops: SmallVec<[Arg; 4]> = x.ops.iter().copied().collect();
                ops.extend(y.ops.iter().copied());
                let mut m = MInst::hw(x.op, Format::VopdX, &[x.def, y.def], &ops);
                m.op_y = Some(y.op);
                let Ok(inst) = to_inst(p, &m) else { continue };
                match inst.verify(t) {
                    Ok(_) => return Ok(m),
                    Err(e) => banks |= matches!(e.kind, ErrorKind::VopdBank(_)),
                }
            }
        }
    }
    Err(if banks {
        Refusal::Banks
    } else {
        Refusal::Other
    })
}

fn pair_block(p: &Program, insts: Vec<MInst>, stats: &mut Stats) -> Vec<MInst> {
    let t = p.target;
    let n = insts.len();
    let halves: Vec<SmallVec<[Half; 2]>> = insts.iter().map(|i| half_forms(t, i)).collect();
    if halves.iter().filter(|h| !h.is_empty()).nth(1).is_none() {
        return insts; // fewer than two candidates: nothing to pair
    }
    let feet: Vec<Footprint> = insts.iter().map(footprint).collect();
    let mut slots: Vec<Option<MInst>> = insts.into_iter().map(Some).collect();
    // a pair formed at i, or an instruction moved into one
    let mut taken = vec![false; n];
    for i in 0..n {
        if halves[i].is_empty() || taken[i] {
            continue;
        }
        // what the instructions between `i` and the candidate write, and write or read
        let mut between_writes = RegSet::default();
        let mut between_touches = RegSet::default();
        let mut bank_refused = false;
        let fi = &feet[i];
        for j in i + 1..n.min(i + 1 + WINDOW) {
            if slots[j].is_none() {
                continue; // already moved up into an earlier pair
            }
            let fj = &feet[j];
            if !taken[j]
                && !halves[j].is_empty()
                // `j` can move up across the instructions between
                && !between_writes.meets(&fj.reads)
                && !between_touches.meets(&fj.writes)
                // and does not depend on `i`
                && !overlaps(&fj.reads, &fi.writes)
                && !overlaps(&fj.writes, &fi.writes)
            {
                match pair(p, &halves[i], &halves[j]) {
                    Ok(m) => {
                        slots[i] = Some(m);
                        slots[j] = None;
                        taken[i] = true;
                        taken[j] = true;
                        stats.pairs += 1;
                        break;
                    }
                    Err(Refusal::Banks) => {
                        stats.bank_rejects += 1;
                        bank_refused = true;
                    }
                    Err(Refusal::Other) => {}
                }
            }
            if slots[j].as_ref().is_some_and(|k| is_barrier(k, fj)) {
                break;
            }
            between_writes.insert(&fj.writes);
            between_touches.insert(&fj.writes);
            between_touches.insert(&fj.reads);
        }
        if !taken[i] && bank_refused {
            stats.unpaired_by_banks += 1;
        }
    }
    slots.into_iter().flatten().collect()
}
