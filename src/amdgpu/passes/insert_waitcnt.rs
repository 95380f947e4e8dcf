//! `s_waitcnt` insertion, after register allocation and lowering.
//!
//! Model (the scoreboard of LLVM's SIInsertWaitcnts, simplified): every memory
//! instruction increments one counter — `vmcnt` (VMEM loads; stores too on GFX9),
//! `vscnt` (VMEM stores, GFX10+), `lgkmcnt` (SMEM, LDS, GDS, messages), `expcnt`
//! (exports) — and the hardware decrements it as results arrive. Within one counter,
//! VMEM and LDS results arrive in issue order, SMEM results in any order. Before an
//! instruction reads or overwrites a register with a pending result we wait:
//! - in-order counter: until at most `issued_after` events are outstanding;
//! - counter with an out-of-order event (SMEM) pending: until it is 0.
//!
//! Across blocks, the pending registers of all linear predecessors are joined without
//! their order (forward dataflow to a fixed point; a join forgets scores, so a wait for
//! an inherited register is a wait for 0). `s_endpgm` needs no wait.
//!
//! Invariant: no instruction reads or writes a register whose producing memory operation
//! may still be outstanding, and none overwrites a register an outstanding SMEM load
//! or export still reads.
//!
//! Cost: the register scores are sorted vectors ([`Scores`], usually a handful of
//! entries: binary search, no per-entry allocation; a join is one merge of two of them),
//! and each instruction's register dwords are listed once per visit. The fixpoint
//! sweeps skip a block none of whose predecessors' summaries changed since its last
//! visit (it would compute the same summary), so a sweep after the first visits only
//! the blocks a change reaches, and the last sweep, which confirms the fixpoint, visits
//! none; the waits are then placed from each block's entry state, rebuilt from the
//! final summaries (what its last visit started from).

use crate::amdgpu::mir::{Arg, MInst, Op, Program};
use crate::amdgpu::Error;
use crate::isa::{simm16, Format, Gen, Opcode, Props};

/// Counters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Counter {
    Vm,
    Lgkm,
    Exp,
    Vs,
}

const COUNTERS: [Counter; 4] = [Counter::Vm, Counter::Lgkm, Counter::Exp, Counter::Vs];

/// Which counter an instruction increments, if any, and whether its results may return
/// out of order.
pub fn counter_of(gen: Gen, op: Opcode) -> Option<(Counter, bool)> {
    let p = op.props_on(gen);
    // GFX11 LDSDIR (`lds_param_load`) reads LDS but counts in EXP_CNT
    if p.contains(Props::LDS) && p.contains(Props::EXP_CNT) {
        return Some((Counter::Exp, false));
    }
    if p.contains(Props::SMEM) {
        return Some((Counter::Lgkm, true));
    }
    if p.contains(Props::LDS) {
        return Some((Counter::Lgkm, false));
    }
    if p.contains(Props::VS_CNT) && gen != Gen::Gfx9 {
        return Some((Counter::Vs, false));
    }
    if p.contains(Props::VM_CNT) || p.contains(Props::VMEM) {
        return Some((Counter::Vm, false));
    }
    if p.contains(Props::EXP_CNT) {
        return Some((Counter::Exp, false));
    }
    if p.contains(Props::LGKM_CNT) {
        return Some((Counter::Lgkm, true));
    }
    None
}

/// Register dword → (counter, score), sorted by register: the ordered map the scoreboard
/// needs, without a node allocation per entry.
#[derive(Clone, Debug, Default, PartialEq)]
struct Scores(Vec<(u16, (Counter, u32))>);

impl Scores {
    fn get(&self, r: u16) -> Option<&(Counter, u32)> {
        self.0
            .binary_search_by_key(&r, |e| e.0)
            .ok()
            .map(|k| &self.0[k].1)
    }
    fn insert(&mut self, r: u16, v: (Counter, u32)) {
        match self.0.binary_search_by_key(&r, |e| e.0) {
            Ok(k) => self.0[k].1 = v,
            Err(k) => self.0.insert(k, (r, v)),
        }
    }
    fn len(&self) -> usize {
        self.0.len()
    }
    fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
    /// Every register of `o` with score 0 on `o`'s counter, unless this one has it with
    /// score 0 already (then its own counter stays): one merge of the two sorted lists.
    fn join(&mut self, o: &Scores) {
        if o.is_empty() {
            return;
        }
        let inherit = |&(r, (c, _)): &(u16, (Counter, u32))| (r, (c, 0));
        if self.is_empty() {
            self.0.extend(o.0.iter().map(inherit));
            return;
        }
        let mine = std::mem::take(&mut self.0);
        let mut out = Vec::with_capacity(mine.len() + o.len());
        let (mut i, mut j) = (0, 0);
        while i < mine.len() && j < o.0.len() {
            let (a, b) = (mine[i], o.0[j]);
            match a.0.cmp(&b.0) {
                std::cmp::Ordering::Less => {
                    out.push(a);
                    i += 1;
                }
                std::cmp::Ordering::Greater => {
                    out.push(inherit(&b));
                    j += 1;
                }
                std::cmp::Ordering::Equal => {
                    out.push(if a.1 .1 == 0 { a } else { inherit(&b) });
                    i += 1;
                    j += 1;
                }
            }
        }
        out.extend_from_slice(&mine[i..]);
        out.extend(o.0[j..].iter().map(inherit));
        self.0 = out;
    }
    fn retain(&mut self, mut keep: impl FnMut(&(Counter, u32)) -> bool) {
        self.0.retain(|e| keep(&e.1));
    }
}

/// Scoreboard for one point of the program.
#[derive(Clone, Debug, Default, PartialEq)]
struct State {
    /// Events issued per counter (the score of the latest).
    ub: [u32; 4],
    /// Events known complete per counter.
    lb: [u32; 4],
    /// An out-of-order event is outstanding on the counter.
    ooo: [bool; 4],
    /// Register (dword) → (counter, score). Score 0 means "inherited from a
    /// predecessor": wait for 0.
    pending: Scores,
    /// Registers an outstanding SMEM instruction or export still reads (the load's
    /// address and offset, the export's data): overwriting them needs the same wait (the
    /// load may be replayed, the export reads its VGPRs late; the emulator checks both).
    /// Same encoding as `pending`.
    reads: Scores,
}

impl State {
    /// Joins a predecessor's state in: its pending registers and read registers come
    /// in with score 0 (wait for 0), except where this state already waits for 0 on
    /// the register; its out-of-order flags are or-ed in.
    fn join(&mut self, o: &State) {
        self.pending.join(&o.pending);
        self.reads.join(&o.reads);
        for k in 0..4 {
            self.ooo[k] |= o.ooo[k];
        }
    }

    /// The wait needed before reading `read` and writing `written`, per counter (None =
    /// no wait).
    fn needed(&self, read: &[u16], written: &[u16]) -> [Option<u32>; 4] {
        let mut w = [None; 4];
        if self.pending.is_empty() && self.reads.is_empty() {
            return w;
        }
        let hits = read
            .iter()
            .chain(written)
            .filter_map(|&r| self.pending.get(r))
            .chain(written.iter().filter_map(|&r| self.reads.get(r)));
        for &(c, score) in hits {
            {
                let k = c as usize;
                let n = if score == 0 || self.ooo[k] {
                    0
                } else {
                    self.ub[k].saturating_sub(score)
                };
                w[k] = Some(w[k].map_or(n, |m: u32| m.min(n)));
            }
        }
        w
    }

    /// Applies a wait: counter k has at most n outstanding.
    fn wait(&mut self, k: usize, n: u32) {
        let done = self.ub[k].saturating_sub(n);
        self.lb[k] = self.lb[k].max(done);
        if n == 0 {
            self.ooo[k] = false;
        }
        let c = COUNTERS[k];
        for m in [&mut self.pending, &mut self.reads] {
            m.retain(|&(cc, s)| cc != c || (n != 0 && s != 0 && s > done));
        }
    }
}

/// The register dwords of `args` (on the stack for up to 16: most instructions).
fn regs_of(args: &[Arg]) -> smallvec::SmallVec<[u16; 16]> {
    let mut v = smallvec::SmallVec::new();
    for a in args {
        if let Arg::Reg(r) = a {
            for k in 0..r.count as u16 {
                v.push(r.base.0 + k);
            }
        }
    }
    v
}

fn max_count(gen: Gen, c: Counter) -> u32 {
    match (gen, c) {
        (_, Counter::Exp) => 7,
        (Gen::Gfx9, Counter::Lgkm) => 15,
        (_, Counter::Lgkm) => 63,
        (_, Counter::Vm) | (_, Counter::Vs) => 63,
    }
}

/// Builds the wait instructions for `w`.
pub fn wait_insts(gen: Gen, w: [Option<u32>; 4]) -> Result<Vec<MInst>, Error> {
    let mut out = Vec::new();
    // the counters not waited on stay at their maximum (no wait)
    let mut wc = simm16::Waitcnt::none(gen);
    for (k, field) in [
        (0, &mut wc.vmcnt),
        (1, &mut wc.lgkmcnt),
        (2, &mut wc.expcnt),
    ] {
        if let Some(n) = w[k] {
            *field = n.min(max_count(gen, COUNTERS[k]));
        }
    }
    if w[..3].iter().any(|n| n.is_some()) {
        let v = wc
            .encode(gen)
            .map_err(|e| Error::Verify(format!("waitcnt {wc:?}: {e}")))?;
        out.push(MInst::hw(
            Opcode::SWaitcnt,
            Format::Sopp,
            &[],
            &[Arg::Imm(v as u32)],
        ));
    }
    if let Some(n) = w[3] {
        out.push(MInst::hw(
            Opcode::SWaitcntVscnt,
            Format::Sopk,
            &[Arg::Reg(crate::isa::Reg::null())],
            &[Arg::Imm(n.min(63))],
        ));
    }
    Ok(out)
}

fn step(gen: Gen, st: &mut State, i: &MInst, out: Option<&mut Vec<MInst>>) -> Result<(), Error> {
    let Op::Hw(op, _) = i.op else { return Ok(()) };
    if op.props().contains(Props::END_PGM) {
        return Ok(());
    }
    // a wait already in the program (a barrier's) completes what it waits for
    if let (Opcode::SWaitcnt | Opcode::SWaitcntVscnt, Some(Arg::Imm(v))) =
        (op, i.ops.iter().find(|a| matches!(a, Arg::Imm(_))))
    {
        if op == Opcode::SWaitcnt {
            let w = simm16::Waitcnt::decode(gen, *v as u16);
            let max = simm16::Waitcnt::max_fields(gen);
            for (k, n, m) in [
                (0, w.vmcnt, max[0]),
                (1, w.lgkmcnt, max[2]),
                (2, w.expcnt, max[1]),
            ] {
                if n < m {
                    st.wait(k, n);
                }
            }
        } else {
            st.wait(3, *v);
        }
        return Ok(());
    }
    let used = regs_of(&i.ops);
    let defs = regs_of(&i.defs);
    let w = st.needed(&used, &defs);
    if w.iter().any(|x| x.is_some()) {
        for (k, n) in w.iter().enumerate() {
            if let Some(n) = n {
                st.wait(k, *n);
            }
        }
        if let Some(out) = out {
            out.extend(wait_insts(gen, w)?);
        }
    }
    let counted = counter_of(gen, op).map(|(c, ooo)| {
        // a returning VMEM atomic's result arrives through vmcnt
        if c == Counter::Vs && !i.defs.is_empty() {
            (Counter::Vm, ooo)
        } else {
            (c, ooo)
        }
    });
    if let Some((c, ooo)) = counted {
        let k = c as usize;
        st.ub[k] += 1;
        st.ooo[k] |= ooo;
        for &r in &defs {
            st.pending.insert(r, (c, st.ub[k]));
        }
        // an export reads its VGPRs after it issues: overwriting one waits on expcnt
        let export = c == Counter::Exp && i.defs.is_empty();
        if ooo || export {
            for &r in &used {
                st.reads.insert(r, (c, st.ub[k]));
            }
        }
    }
    Ok(())
}

/// The state at the start of a block: its predecessors' summaries joined in order.
fn entry(outs: &[Option<State>], preds: &[crate::amdgpu::mir::BlockId]) -> State {
    let mut st = State::default();
    for pr in preds {
        if let Some(o) = &outs[pr.0 as usize] {
            st.join(o);
        }
    }
    st
}

/// Inserts the waits into `p`; returns how many wait instructions were added.
pub fn insert_waitcnt(p: &mut Program) -> Result<u32, Error> {
    let gen = p.target.gen;
    let nb = p.blocks.len();
    let mut outs: Vec<Option<State>> = vec![None; nb];
    // Round-robin sweeps until one changes no block's summary. A block's result depends
    // only on its predecessors' summaries, so a block none of whose predecessors
    // changed since its last visit would give the same result again: it is skipped
    // (the sweeps visit what they visited before, minus visits that change nothing).
    // `clock` advances by two per visit: a visit reads its predecessors' summaries at
    // `clock` and writes its own at `clock + 1` (so a block that is its own predecessor
    // sees its own change). `seen_at[b]` is when b last read, `changed_at[b]` when its
    // summary last changed.
    let mut clock = 0u32;
    let mut changed_at = vec![0u32; nb];
    let mut seen_at: Vec<Option<u32>> = vec![None; nb];
    let mut changed = true;
    while changed {
        changed = false;
        for b in 0..nb {
            let preds = &p.blocks[b].linear_preds;
            if let Some(seen) = seen_at[b] {
                if preds.iter().all(|pr| changed_at[pr.0 as usize] <= seen) {
                    continue;
                }
            }
            clock += 2;
            seen_at[b] = Some(clock);
            let mut st = entry(&outs, preds);
            for i in &p.blocks[b].insts {
                step(gen, &mut st, i, None)?;
            }
            // keep only the facts a successor can use (scores reset by the join)
            let mut summary = State::default();
            summary.join(&st);
            if outs[b].as_ref() != Some(&summary) {
                outs[b] = Some(summary);
                changed_at[b] = clock + 1;
                changed = true;
            }
        }
    }
    let mut added = 0;
    for b in 0..nb {
        // the state the last visit started from: no predecessor changed since
        let mut st = entry(&outs, &p.blocks[b].linear_preds);
        let mut out = Vec::new();
        for i in std::mem::take(&mut p.blocks[b].insts) {
            let before = out.len();
            step(gen, &mut st, &i, Some(&mut out))?;
            added += (out.len() - before) as u32;
            out.push(i);
        }
        p.blocks[b].insts = out;
    }
    Ok(added)
}
