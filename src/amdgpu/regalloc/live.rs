//! Liveness and live intervals on the linear CFG, shared by the spiller and assignment.
//!
//! Positions: instruction k of the layout (blocks in index order) reads at `2k` and
//! writes at `2k+1`, so a destination may take the register of a source that dies in
//! the same instruction. SMEM destinations are early-clobber (written at `2k`): a scalar
//! load's result must not overlap its address while the load is outstanding.
//!
//! Liveness is a backward dataflow over the *linear* CFG (what the wave executes: an
//! SGPR value stays allocated across both arms of a divergent if, anything live around a
//! back edge for the whole loop). Phi webs (several definitions by parallel copies) are
//! handled by the same dataflow. Each temp gets one conservative interval — the hull of
//! its defs, uses and the block boundaries where it is live (closed: `[start, end]`);
//! two temps interfere exactly when their intervals share a position.

use crate::amdgpu::mir::{Arg, Op, Program};
use crate::isa::Format;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Interval {
    pub start: u32,
    pub end: u32,
}

struct BitSet(Vec<u64>);

impl BitSet {
    fn new(n: usize) -> BitSet {
        BitSet(vec![0; n.div_ceil(64)])
    }
    fn set(&mut self, i: usize) {
        self.0[i / 64] |= 1 << (i % 64);
    }
    fn clear(&mut self, i: usize) {
        self.0[i / 64] &= !(1 << (i % 64));
    }
    fn union_with(&mut self, o: &BitSet) -> bool {
        let mut ch = false;
        for (a, b) in self.0.iter_mut().zip(&o.0) {
            let n = *a | *b;
            ch |= n != *a;
            *a = n;
        }
        ch
    }
    fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.0.iter().enumerate().flat_map(|(w, &bits)| {
            (0..64)
                .filter(move |b| bits >> b & 1 != 0)
                .map(move |b| w * 64 + b)
        })
    }
}

pub fn early_clobber(op: &Op) -> bool {
    matches!(op, Op::Hw(_, Format::Smem))
}

/// Live-in sets per block on the linear CFG.
fn liveness(p: &Program) -> (Vec<BitSet>, Vec<BitSet>) {
    let n = p.temps.len();
    let nb = p.blocks.len();
    let mut gen_: Vec<BitSet> = Vec::with_capacity(nb);
    let mut kill: Vec<BitSet> = Vec::with_capacity(nb);
    for b in &p.blocks {
        let mut g = BitSet::new(n);
        let mut k = BitSet::new(n);
        for i in b.insts.iter().rev() {
            for d in &i.defs {
                if let Arg::Temp(t) = d {
                    k.set(t.0 as usize);
                    g.clear(t.0 as usize);
                }
            }
            for o in &i.ops {
                if let Arg::Temp(t) = o {
                    g.set(t.0 as usize);
                }
            }
        }
        gen_.push(g);
        kill.push(k);
    }
    let mut live_in: Vec<BitSet> = (0..nb).map(|_| BitSet::new(n)).collect();
    let mut live_out: Vec<BitSet> = (0..nb).map(|_| BitSet::new(n)).collect();
    let mut changed = true;
    while changed {
        changed = false;
        for bi in (0..nb).rev() {
            let mut out = BitSet::new(n);
            for s in &p.blocks[bi].linear_succs {
                out.union_with(&live_in[s.0 as usize]);
            }
            let mut inn = BitSet::new(n);
            for (w, (o, (g, k))) in out
                .0
                .iter()
                .zip(gen_[bi].0.iter().zip(&kill[bi].0))
                .enumerate()
            {
                inn.0[w] = g | (o & !k);
            }
            changed |= live_in[bi].union_with(&inn);
            changed |= live_out[bi].union_with(&out);
        }
    }
    (live_in, live_out)
}

pub fn intervals(p: &Program) -> Vec<Option<Interval>> {
    let (live_in, live_out) = liveness(p);
    let mut iv: Vec<Option<Interval>> = vec![None; p.temps.len()];
    let mut cover = |t: usize, pos: u32| {
        let e = iv[t].get_or_insert(Interval {
            start: pos,
            end: pos,
        });
        e.start = e.start.min(pos);
        e.end = e.end.max(pos);
    };
    let mut k = 0u32;
    for (bi, b) in p.blocks.iter().enumerate() {
        let first = 2 * k;
        for t in live_in[bi].iter() {
            cover(t, first);
        }
        for i in &b.insts {
            for o in &i.ops {
                if let Arg::Temp(t) = o {
                    cover(t.0 as usize, 2 * k);
                }
            }
            let dpos = if early_clobber(&i.op) {
                2 * k
            } else {
                2 * k + 1
            };
            for d in &i.defs {
                if let Arg::Temp(t) = d {
                    cover(t.0 as usize, dpos);
                }
            }
            k += 1;
        }
        // the end of the block: after its last instruction
        let last = 2 * k;
        for t in live_out[bi].iter() {
            cover(t, last.saturating_sub(1).max(first));
        }
    }
    iv
}
