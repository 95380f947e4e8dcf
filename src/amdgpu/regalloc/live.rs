//! Liveness and live ranges, shared by the spiller and assignment.
//!
//! Positions: instruction k of the layout (blocks in index order) reads at `2k` and
//! writes at `2k+1`, so a destination may take the register of a source that dies in
//! the same instruction. SMEM destinations are early-clobber (written at `2k`): a scalar
//! load's result must not overlap its address while the load is outstanding.
//!
//! Liveness is the least fixpoint of the usual backward equations, computed per temp
//! (ACO-style, from its upward-exposed reads back along predecessors to its
//! definitions): the cost is the size of the result, not blocks × temps. Phi webs
//! (several definitions by parallel copies) are handled the same way: a block defining
//! the temp stops the walk. The result is kept in two parts: the blocks that read or
//! write a temp live out of them (walked instruction by instruction), and the runs of
//! consecutive blocks a temp is only live through (one segment per run, however many
//! blocks: a value live across a long loop costs one entry, not one per block). With
//! the verifiers on, the ranges are checked against a dense block-set dataflow
//! ([`check_ranges`]).
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

/// The liveness [`ranges`] needs, split by what a block does with the temp:
/// - `refd`: per block, the temps it reads or writes that are live out of it (block `b`'s
///   are `refd.of(b)`); these blocks get the instruction walk;
/// - `through`: per temp, the runs of consecutive blocks (by index) it is live through
///   without being read or written there: live in and live out of each (a block that
///   neither reads nor defines a temp live out of it has it live in too). Such a block
///   is one whole-block segment, and a run of them one segment, since consecutive blocks
///   occupy consecutive positions; `(temp, first block, last block)`.
///
/// Together they are the live-out sets of the usual equations, without a (block, temp)
/// pair for every block a temp is only live through.
struct Liveness {
    refd: Grouped,
    through: Vec<(u32, u32, u32)>,
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

/// Liveness per temp on its CFG. Computed per temp rather than by an iterated dataflow
/// over sets (the temps are not SSA — phi webs have several definitions — but liveness
/// of one temp does not depend on any other): from every block that reads the temp
/// before defining it (upward-exposed), walk the predecessors on the temp's CFG, marking
/// it live out of each and live in where the block does not define it, and go on from
/// there. Each (block, temp) pair is visited once per predecessor edge: the least
/// fixpoint of the usual equations, reached in one walk. A live-out block that
/// references the temp is listed for the instruction walk; the others only set a bit of
/// a block set reused across temps, read back as runs of consecutive blocks (only the
/// words between the lowest and highest block marked), so the result holds one entry
/// per run rather than one per block.
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
    drop(def_in);
    // predecessors on both CFGs: (successor, block) pairs grouped by successor
    let linear_edges: Vec<(u32, u32)> = p
        .blocks
        .iter()
        .enumerate()
        .flat_map(|(bi, b)| b.linear_succs.iter().map(move |s| (s.0, bi as u32)))
        .collect();
    let linear_preds = Grouped::new(nb, &linear_edges);
    let lane_preds = lane_succs(p).map(|l| {
        let edges: Vec<(u32, u32)> = l
            .iter()
            .enumerate()
            .flat_map(|(bi, v)| v.iter().map(move |&s| (s, bi as u32)))
            .collect();
        Grouped::new(nb, &edges)
    });
    let mut linear_vgpr = vec![false; n];
    for t in linear_vgprs(p) {
        linear_vgpr[t.0 as usize] = true;
    }
    // both lists by temp (blocks in order within a temp)
    let exposed = Grouped::new(n, &exposed);
    let defs = Grouped::new(n, &defs);
    // per block: stamps of the temp being walked (live in / live out / defined here /
    // read or written here)
    let mut in_at = vec![NONE; nb];
    let mut out_at = vec![NONE; nb];
    let mut def_at = vec![NONE; nb];
    let mut ref_at = vec![NONE; nb];
    // blocks the temp being walked is live through, as bits; cleared as they are read
    let mut thru = vec![0u64; nb.div_ceil(64)];
    let mut refd: Vec<(u32, u32)> = Vec::new();
    let mut through: Vec<(u32, u32, u32)> = Vec::new();
    let mut work: Vec<u32> = Vec::new();
    for t in 0..n as u32 {
        let reads_in = exposed.of(t as usize);
        if reads_in.is_empty() {
            continue;
        }
        for &b in defs.of(t as usize) {
            def_at[b as usize] = t;
            ref_at[b as usize] = t;
        }
        let preds = match &lane_preds {
            Some(lp) if p.temps[t as usize].ty == RegType::Vgpr && !linear_vgpr[t as usize] => lp,
            _ => &linear_preds,
        };
        for &b in reads_in {
            ref_at[b as usize] = t;
            if in_at[b as usize] != t {
                in_at[b as usize] = t;
                work.push(b);
            }
        }
        let (mut lo, mut hi) = (u32::MAX, 0u32);
        while let Some(b) = work.pop() {
            for &q in preds.of(b as usize) {
                let qi = q as usize;
                if out_at[qi] == t {
                    continue;
                }
                out_at[qi] = t;
                if ref_at[qi] == t {
                    refd.push((q, t));
                } else {
                    thru[qi / 64] |= 1 << (qi % 64);
                    lo = lo.min(q);
                    hi = hi.max(q);
                }
                if def_at[qi] != t && in_at[qi] != t {
                    in_at[qi] = t;
                    work.push(q);
                }
            }
        }
        if lo > hi {
            continue;
        }
        // the marked blocks as runs of consecutive indices
        let mut run: Option<(u32, u32)> = None;
        for wi in lo as usize / 64..=hi as usize / 64 {
            let mut w = std::mem::take(&mut thru[wi]);
            while w != 0 {
                let b = (wi * 64) as u32 + w.trailing_zeros();
                w &= w - 1;
                run = match run {
                    Some((s, e)) if e + 1 == b => Some((s, b)),
                    Some((s, e)) => {
                        through.push((t, s, e));
                        Some((b, b))
                    }
                    None => Some((b, b)),
                };
            }
        }
        if let Some((s, e)) = run {
            through.push((t, s, e));
        }
    }
    Liveness {
        refd: Grouped::new(nb, &refd),
        through,
    }
}

/// `(key, value)` pairs grouped by key in one pass (a counting sort; values keep their
/// order within a key): key k's values are `vals[start[k]..start[k + 1]]`.
struct Grouped {
    start: Vec<u32>,
    vals: Vec<u32>,
}

impl Grouped {
    fn new(keys: usize, pairs: &[(u32, u32)]) -> Grouped {
        let mut start = vec![0u32; keys + 1];
        for &(k, _) in pairs {
            start[k as usize + 1] += 1;
        }
        for k in 0..keys {
            start[k + 1] += start[k];
        }
        let mut fill = start.clone();
        let mut vals = vec![0u32; pairs.len()];
        for &(k, v) in pairs {
            vals[fill[k as usize] as usize] = v;
            fill[k as usize] += 1;
        }
        Grouped { start, vals }
    }

    fn of(&self, k: usize) -> &[u32] {
        &self.vals[self.start[k] as usize..self.start[k + 1] as usize]
    }
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
    let live = liveness(p);
    let n = p.temps.len();
    let span = spans(p);
    // (temp, start, end): the runs of blocks a temp is live through, then the segments
    // of the blocks that reference it (blocks in order, each block's in reverse)
    let mut raw: Vec<(u32, u32, u32)> = live
        .through
        .iter()
        .map(|&(t, b0, b1)| (t, span[b0 as usize].0, span[b1 as usize].1))
        .collect();
    block_segments(p, &span, |bi| live.refd.of(bi), &mut raw);
    merge(n, raw)
}

/// Checks `lr` against the live ranges computed the textbook way (run by the
/// allocator when the verifiers do): live-in and live-out sets per block as dense bit
/// sets over all temps, the backward equations iterated over the blocks until nothing
/// changes (each temp on its CFG, as [`liveness`]), then every block walked from its
/// whole live-out set — no per-temp walk, no runs of blocks. Names the first temp whose
/// segments differ.
pub fn check_ranges(p: &Program, lr: &Ranges) -> Result<(), String> {
    let n = p.temps.len();
    let nb = p.blocks.len();
    let words = n.div_ceil(64);
    let bit = |v: &mut [u64], t: usize| v[t / 64] |= 1 << (t % 64);
    // per block: upward-exposed reads, definitions (both as bit sets)
    let mut gen = vec![0u64; nb * words];
    let mut kill = vec![0u64; nb * words];
    for (bi, b) in p.blocks.iter().enumerate() {
        let (g, k) = (
            &mut gen[bi * words..(bi + 1) * words],
            &mut kill[bi * words..(bi + 1) * words],
        );
        for i in &b.insts {
            for t in reads(i).filter_map(|a| a.temp()) {
                let t = t.0 as usize;
                if k[t / 64] & (1 << (t % 64)) == 0 {
                    bit(g, t);
                }
            }
            for t in writes(i).iter().filter_map(|a| a.temp()) {
                bit(k, t.0 as usize);
            }
        }
    }
    // which temps follow the lanes' CFG (the rest the linear one)
    let lanes = lane_succs(p);
    let linear = linear_vgprs(p);
    let mut lane_temp = vec![0u64; words];
    if lanes.is_some() {
        for t in 0..n {
            if p.temps[t].ty == RegType::Vgpr && !linear.contains(&Temp(t as u32)) {
                bit(&mut lane_temp, t);
            }
        }
    }
    let mut live_in = vec![0u64; nb * words];
    let mut live_out = vec![0u64; nb * words];
    let mut changed = true;
    while changed {
        changed = false;
        for bi in (0..nb).rev() {
            let mut out = vec![0u64; words];
            for s in &p.blocks[bi].linear_succs {
                let si = s.0 as usize;
                for w in 0..words {
                    out[w] |= live_in[si * words + w] & !lane_temp[w];
                }
            }
            if let Some(l) = &lanes {
                for &si in &l[bi] {
                    for w in 0..words {
                        out[w] |= live_in[si as usize * words + w] & lane_temp[w];
                    }
                }
            }
            for w in 0..words {
                let x = bi * words + w;
                let inw = gen[x] | (out[w] & !kill[x]);
                if inw != live_in[x] || out[w] != live_out[x] {
                    changed = true;
                }
                live_in[x] = inw;
                live_out[x] = out[w];
            }
        }
    }
    let outs: Vec<Vec<u32>> = (0..nb)
        .map(|bi| {
            (0..n as u32)
                .filter(|&t| live_out[bi * words + t as usize / 64] & (1 << (t % 64)) != 0)
                .collect()
        })
        .collect();
    let mut raw = Vec::new();
    block_segments(p, &spans(p), |bi| &outs[bi], &mut raw);
    let want = merge(n, raw);
    for t in 0..n {
        if lr.of(t) != want.of(t) {
            return Err(format!(
                "live ranges of %{t}: {:?}, by the block-set dataflow {:?}",
                lr.of(t),
                want.of(t)
            ));
        }
    }
    Ok(())
}

/// Each block's first and last position (an empty block's are both its start).
fn spans(p: &Program) -> Vec<(u32, u32)> {
    let mut span: Vec<(u32, u32)> = Vec::with_capacity(p.blocks.len());
    let mut k0 = 0u32;
    for b in &p.blocks {
        let kn = k0 + b.insts.len() as u32;
        let first = 2 * k0;
        span.push((first, (2 * kn).saturating_sub(1).max(first)));
        k0 = kn;
    }
    span
}

/// The segments of every block's own walk (Wimmer/Franz), from the temps `live_out(b)`
/// names as live out of block `b` and each instruction's reads and writes, pushed as
/// `(temp, start, end)` (blocks in order, each block's in reverse).
fn block_segments<'a>(
    p: &Program,
    span: &[(u32, u32)],
    live_out: impl Fn(usize) -> &'a [u32],
    raw: &mut Vec<(u32, u32, u32)>,
) {
    const NONE: u32 = u32::MAX;
    // per temp: the end of the segment open in the current block
    let mut open = vec![NONE; p.temps.len()];
    let mut opened: Vec<u32> = Vec::new();
    let mut k0 = 0u32;
    for (bi, b) in p.blocks.iter().enumerate() {
        let (first, last) = span[bi];
        for &t in live_out(bi) {
            open[t as usize] = last;
            opened.push(t);
        }
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
        k0 += b.insts.len() as u32;
    }
}

/// `(temp, start, end)` segments in any order → each temp's sorted, with touching and
/// overlapping segments merged (the canonical form: one segment per maximal run of
/// positions, whatever pieces the run was pushed in).
fn merge(n: usize, raw: Vec<(u32, u32, u32)>) -> Ranges {
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
