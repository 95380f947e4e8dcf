//! Liveness and live ranges, shared by the spiller and assignment.
//!
//! Positions: instruction k of the layout (blocks in index order) reads at `2k` and
//! writes at `2k+1`, so a destination may take the register of a source that dies in
//! the same instruction. SMEM destinations are early-clobber (written at `2k`): a scalar
//! load's result must not overlap its address while the load is outstanding.
//!
//! Liveness is the least fixpoint of the usual backward equations, computed per temp
//! (ACO-style, from its upward-exposed reads back along predecessors to its
//! definitions) into per-block live-out lists: the cost is the size of the result, not
//! blocks × temps. Phi webs (several definitions by parallel copies) are handled the
//! same way: a block defining the temp stops the walk.
//!
//! Two CFGs:
//! - SGPRs, and the linear VGPRs of `p_start_linear_vgpr` (written lane by lane
//!   regardless of exec), follow the *linear* CFG (what the wave executes: an SGPR value
//!   stays allocated across both arms of a divergent if, anything live around a back
//!   edge for the whole loop).
//! - Other VGPRs follow the *lanes'* CFG: the linear CFG without the edges into the
//!   invert blocks of divergent ifs (blocks with no logical edge: they only switch exec
//!   from the then-lanes to the else-lanes), plus the logical edges (pre → else arm,
//!   then arm → merge). Loop back edges and loop exits stay, even where only linear.
//!
//! Why inactive lanes stay correct with the lanes' CFG: a VGPR write changes only the
//! lanes active in exec. Every lane's own execution — the instructions at which it is
//! active, in order — is a path of the lanes' CFG: a lane of the then arm goes pre → then
//! → merge, one of the else arm pre → else → merge (it is inactive in the then arm and
//! the invert block, which writes no VGPR); a lane that leaves a divergent loop by
//! `break` is inactive until the exit, reached along the body, the latch and the kept
//! exit edge; one that `continue`s comes back at the latch, along the body; a returned
//! lane never comes back. So if lane l needs value v from its definition to a use, v is
//! live on that CFG at every point of l's path in between, and any temp w written in l
//! there is live at a position v is live at: they interfere and get different registers.
//! A write to a lane that is inactive in its block (exec widened to all lanes or whole
//! quads in a whole-wave or WQM region, `v_writelane` into a temp) breaks the premise:
//! in a program with any (`lane_succs` is None) every VGPR follows the linear CFG.
//! Scratch stores and reloads of spilled VGPRs run under the exec of their definition /
//! use, so they follow the same argument.
//!
//! Live ranges (`ranges`): each temp's live range is a sorted list of disjoint closed
//! segments `[start, end]` with holes between them, built per block from its live-out set
//! and a backward walk over its instructions (Wimmer/Franz): a live-out temp is live to
//! the block's last write position, a read opens a segment back to the block start, a
//! definition closes it (a definition nobody reads still occupies its write position).
//! Segments that touch (`e + 1 == s`) are merged. Two temps interfere exactly when some
//! segment of one shares a position with a segment of the other. `Ranges::hull` is the
//! conservative one-interval view (first to last position) the splitting rule uses.
use crate::amdgpu::mir::{Arg, MInst, Op, Program, Pseudo, RegType, Temp};
use crate::isa::{Format, Opcode, Props};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Interval {
    pub start: u32,
    pub end: u32,
}

/// Per-block live-out sets, each a list of temps (in no particular order): block `b`'s
/// is `temps[start[b]..start[b + 1]]`. Their total size is the number of (block, temp)
/// pairs where the temp is live out, what the live ranges need anyway.
struct Liveness {
    start: Vec<u32>,
    temps: Vec<u32>,
}

impl Liveness {
    /// Calls `f` with every temp live out of block `bi`.
    fn for_each_out(&self, bi: usize, mut f: impl FnMut(usize)) {
        let (s, e) = (self.start[bi] as usize, self.start[bi + 1] as usize);
        for &t in &self.temps[s..e] {
            f(t as usize);
        }
    }
}

pub fn early_clobber(op: &Op) -> bool {
    matches!(op, Op::Hw(_, Format::Smem))
}

/// Whether the instruction's "defs" are really read: `s_setreg_b32` names its source in
/// the table's `sdst` field, so MIR lists it among the defs (the temp is "defined" again
/// in place, nothing written). Liveness must see a read there, or the value has a hole
/// between its real definition and the setreg that another temp could take.
fn defs_are_reads(i: &MInst) -> bool {
    matches!(i.op, Op::Hw(o, _) if o.props().contains(Props::WRITES_HWREG))
}

/// The temps `i` reads (its operands, and its defs where [`defs_are_reads`]).
fn reads(i: &MInst) -> impl Iterator<Item = &Arg> {
    let defs: &[Arg] = if defs_are_reads(i) { &i.defs } else { &[] };
    i.ops.iter().chain(defs)
}

/// The temps `i` writes (none where [`defs_are_reads`]).
fn writes(i: &MInst) -> &[Arg] {
    if defs_are_reads(i) {
        &[]
    } else {
        &i.defs
    }
}

/// Live-out sets per block, each temp on its CFG. Computed per temp rather than by an
/// iterated dataflow over sets (the temps are not SSA — phi webs have several
/// definitions — but liveness of one temp does not depend on any other): from every
/// block that reads the temp before defining it (upward-exposed), walk the predecessors
/// on the temp's CFG, marking it live out of each and live in where the block does not
/// define it, and go on from there. Each (block, temp) pair is visited once per
/// predecessor edge, so the cost is the size of the result times the in-degree, with no
/// set as wide as the whole program: the least fixpoint of the usual equations, reached
/// in one walk.
fn liveness(p: &Program) -> Liveness {
    const NONE: u32 = u32::MAX;
    let n = p.temps.len();
    let nb = p.blocks.len();
    // (temp, block) pairs: reads before the block's definition (upward-exposed) and
    // definitions
    let mut def_in = vec![NONE; n];
    let mut exposed: Vec<(u32, u32)> = Vec::new();
    let mut defs: Vec<(u32, u32)> = Vec::new();
    for (bi, b) in p.blocks.iter().enumerate() {
        for i in &b.insts {
            for o in reads(i) {
                if let Arg::Temp(t) = *o {
                    if def_in[t.0 as usize] != bi as u32 {
                        exposed.push((t.0, bi as u32));
                    }
                }
            }
            for d in writes(i) {
                if let Arg::Temp(t) = *d {
                    if def_in[t.0 as usize] != bi as u32 {
                        def_in[t.0 as usize] = bi as u32;
                        defs.push((t.0, bi as u32));
                    }
                }
            }
        }
    }
    // predecessors on both CFGs
    let invert = |succs: &mut dyn Iterator<Item = (usize, u32)>| {
        let mut preds = vec![Vec::new(); nb];
        for (b, s) in succs {
            preds[s as usize].push(b as u32);
        }
        preds
    };
    let linear_preds = invert(
        &mut p
            .blocks
            .iter()
            .enumerate()
            .flat_map(|(bi, b)| b.linear_succs.iter().map(move |s| (bi, s.0))),
    );
    let lanes = lane_succs(p);
    let lane_preds = lanes.as_ref().map(|l| {
        invert(
            &mut l
                .iter()
                .enumerate()
                .flat_map(|(bi, v)| v.iter().map(move |&s| (bi, s))),
        )
    });
    let linear_vgprs = linear_vgprs(p);
    // group both lists by temp (stable: blocks in order)
    exposed.sort_unstable();
    defs.sort_unstable();
    // per block: stamps of the temp being walked (live in / live out / defined here)
    let (mut in_at, mut out_at, mut def_at) = (vec![NONE; nb], vec![NONE; nb], vec![NONE; nb]);
    let mut out_pairs: Vec<(u32, u32)> = Vec::new();
    let mut work: Vec<u32> = Vec::new();
    let (mut e, mut d) = (0, 0);
    while e < exposed.len() {
        let t = exposed[e].0;
        while d < defs.len() && defs[d].0 < t {
            d += 1;
        }
        while d < defs.len() && defs[d].0 == t {
            def_at[defs[d].1 as usize] = t;
            d += 1;
        }
        let preds = match &lane_preds {
            Some(lp)
                if p.temps[t as usize].ty == RegType::Vgpr && !linear_vgprs.contains(&Temp(t)) =>
            {
                lp
            }
            _ => &linear_preds,
        };
        while e < exposed.len() && exposed[e].0 == t {
            let b = exposed[e].1;
            e += 1;
            if in_at[b as usize] != t {
                in_at[b as usize] = t;
                work.push(b);
            }
        }
        while let Some(b) = work.pop() {
            for &q in &preds[b as usize] {
                let q = q as usize;
                if out_at[q] == t {
                    continue;
                }
                out_at[q] = t;
                out_pairs.push((q as u32, t));
                if def_at[q] != t && in_at[q] != t {
                    in_at[q] = t;
                    work.push(q as u32);
                }
            }
        }
    }
    // counting sort by block
    let mut start = vec![0u32; nb + 1];
    for &(b, _) in &out_pairs {
        start[b as usize + 1] += 1;
    }
    for b in 0..nb {
        start[b + 1] += start[b];
    }
    let mut fill = start.clone();
    let mut temps = vec![0u32; out_pairs.len()];
    for &(b, t) in &out_pairs {
        temps[fill[b as usize] as usize] = t;
        fill[b as usize] += 1;
    }
    Liveness { start, temps }
}

/// The successors on the lanes' CFG per block (see the module doc), or None when the
/// program writes VGPR lanes outside its blocks' lanes (then every VGPR follows the
/// linear CFG).
fn lane_succs(p: &Program) -> Option<Vec<Vec<u32>>> {
    if !exact_lanes(p) {
        return None;
    }
    // the invert blocks of divergent ifs: only linear edges, and somewhere to go
    let invert = |b: usize| {
        let b = &p.blocks[b];
        b.logical_preds.is_empty() && b.logical_succs.is_empty() && !b.linear_succs.is_empty()
    };
    Some(
        (0..p.blocks.len())
            .map(|bi| {
                let b = &p.blocks[bi];
                let mut v: Vec<u32> = b.logical_succs.iter().map(|s| s.0).collect();
                for s in &b.linear_succs {
                    if (s.0 == 0 || !invert(s.0 as usize)) && !v.contains(&s.0) {
                        v.push(s.0);
                    }
                }
                v
            })
            .collect(),
    )
}

/// Does every VGPR write of `p` change only lanes active in its block (no WQM, no exec
/// widened, no `v_writelane`)? Then each lane's execution is a path of the lanes' CFG
/// (module doc), and a value recomputed under a use's exec holds what that use reads.
pub fn exact_lanes(p: &Program) -> bool {
    p.wqm.is_none()
        && !p
            .blocks
            .iter()
            .flat_map(|b| &b.insts)
            .any(writes_other_lanes)
}

/// Does `i` write VGPR lanes that may be inactive in its block: widen exec (to all lanes,
/// or to whole quads), or write a lane regardless of exec (`v_writelane`)?
fn writes_other_lanes(i: &MInst) -> bool {
    let Some(op) = i.opcode() else {
        return false;
    };
    matches!(
        op,
        Opcode::VWritelaneB32 | Opcode::SWqmB32 | Opcode::SWqmB64
    ) || (super::split::writes_exec(i) && i.ops.contains(&Arg::Const(u32::MAX)))
}

/// VGPRs defined by `p_start_linear_vgpr` (SGPR spill slots, written lane by lane
/// regardless of exec): their lanes are live wherever the wave is.
fn linear_vgprs(p: &Program) -> std::collections::BTreeSet<Temp> {
    p.blocks
        .iter()
        .flat_map(|b| &b.insts)
        .filter(|i| i.op == Op::Pseudo(Pseudo::StartLinearVgpr))
        .flat_map(|i| i.defs.iter().filter_map(|a| a.temp()))
        .collect()
}

/// Every temp's segments: `segs[start[t]..start[t + 1]]`, sorted and disjoint.
pub struct Ranges {
    start: Vec<u32>,
    segs: Vec<(u32, u32)>,
}

impl Ranges {
    /// Temp t's segments (empty when it is never referenced).
    pub fn of(&self, t: usize) -> &[(u32, u32)] {
        match self.start.get(t + 1) {
            Some(&e) => &self.segs[self.start[t] as usize..e as usize],
            None => &[],
        }
    }

    /// First to last position of temp t.
    pub fn hull(&self, t: usize) -> Option<Interval> {
        let s = self.of(t);
        Some(Interval {
            start: s.first()?.0,
            end: s.last()?.1,
        })
    }

    /// Is temp t live at `pos`?
    pub fn covers(&self, t: usize, pos: u32) -> bool {
        let s = self.of(t);
        let k = s.partition_point(|&(_, e)| e < pos);
        s.get(k).is_some_and(|&(b, _)| b <= pos)
    }

    /// Number of temps (the length `ranges` was built for).
    pub fn len(&self) -> usize {
        self.start.len() - 1
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Do two sorted segment lists share a position? Linear in the shorter list times the
/// log of the longer one.
pub fn overlap(a: &[(u32, u32)], b: &[(u32, u32)]) -> bool {
    overlap_in(a, b, 0, u32::MAX)
}

/// Do two sorted segment lists share a position inside `[lo, hi]`?
pub fn overlap_in(a: &[(u32, u32)], b: &[(u32, u32)], lo: u32, hi: u32) -> bool {
    let (short, long) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    let mut from = long.partition_point(|&(_, le)| le < lo);
    for &(s, e) in &short[short.partition_point(|&(_, se)| se < lo)..] {
        let (s, e) = (s.max(lo), e.min(hi));
        if s > e {
            // past hi: nothing later can meet the window
            return false;
        }
        // the first segment of `long` ending at or after s
        from += long[from..].partition_point(|&(_, le)| le < s);
        match long.get(from) {
            Some(&(ls, _)) if ls <= e => return true,
            Some(_) => {}
            None => return false,
        }
    }
    false
}

/// The live ranges of every temp of `p` (see the module doc).
pub fn ranges(p: &Program) -> Ranges {
    const NONE: u32 = u32::MAX;
    let live = liveness(p);
    let n = p.temps.len();
    // (temp, start, end), blocks in order, each block's segments in reverse
    let mut raw: Vec<(u32, u32, u32)> = Vec::new();
    // per temp: the end of the segment open in the current block
    let mut open = vec![NONE; n];
    let mut opened: Vec<u32> = Vec::new();
    let mut k0 = 0u32;
    for (bi, b) in p.blocks.iter().enumerate() {
        let first = 2 * k0;
        let kn = k0 + b.insts.len() as u32;
        let last = (2 * kn).saturating_sub(1).max(first);
        live.for_each_out(bi, |t| {
            open[t] = last;
            opened.push(t as u32);
        });
        for (j, i) in b.insts.iter().enumerate().rev() {
            let k = k0 + j as u32;
            let dpos = if early_clobber(&i.op) {
                2 * k
            } else {
                2 * k + 1
            };
            for d in writes(i) {
                if let Arg::Temp(t) = *d {
                    let t = t.0 as usize;
                    let e = std::mem::replace(&mut open[t], NONE);
                    raw.push((t as u32, dpos, if e == NONE { dpos } else { e.max(dpos) }));
                }
            }
            for o in reads(i) {
                if let Arg::Temp(t) = *o {
                    let t = t.0 as usize;
                    if open[t] == NONE {
                        open[t] = 2 * k;
                        opened.push(t as u32);
                    }
                }
            }
        }
        for t in opened.drain(..) {
            let e = std::mem::replace(&mut open[t as usize], NONE);
            if e != NONE {
                raw.push((t, first, e));
            }
        }
        k0 = kn;
    }
    // counting sort by temp, then each temp's segments sorted and merged
    let mut start = vec![0u32; n + 1];
    for &(t, _, _) in &raw {
        start[t as usize + 1] += 1;
    }
    for t in 0..n {
        start[t + 1] += start[t];
    }
    let mut fill = start.clone();
    let mut segs = vec![(0u32, 0u32); raw.len()];
    for &(t, s, e) in &raw {
        segs[fill[t as usize] as usize] = (s, e);
        fill[t as usize] += 1;
    }
    drop(raw);
    let mut out: Vec<(u32, u32)> = Vec::with_capacity(segs.len());
    let mut out_start = vec![0u32; n + 1];
    for t in 0..n {
        let v = &mut segs[start[t] as usize..start[t + 1] as usize];
        v.sort_unstable();
        let from = out.len();
        for &(s, e) in v.iter() {
            let len = out.len();
            match out.last_mut() {
                Some(l) if len > from && s <= l.1.saturating_add(1) => l.1 = l.1.max(e),
                _ => out.push((s, e)),
            }
        }
        out_start[t + 1] = out.len() as u32;
    }
    Ranges {
        start: out_start,
        segs: out,
    }
}
