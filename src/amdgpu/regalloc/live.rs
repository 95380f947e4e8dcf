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
//! handled by the same dataflow. The sets cover only the temps some block reads before
//! defining them (the rest never cross a block boundary), as dense bit vectors in one
//! flat allocation per set kind; the fixpoint is iterated without allocating. Each temp gets one conservative interval — the hull of
//! its defs, uses and the block boundaries where it is live (closed: `[start, end]`);
//! two temps interfere exactly when their intervals share a position.

use crate::amdgpu::mir::{Arg, Op, Program};
use crate::isa::Format;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Interval {
    pub start: u32,
    pub end: u32,
}

/// Per-block live sets over the *global* temps only: those read in some block before
/// that block defines them (upward-exposed). Every temp of a live-in or live-out set is
/// one of them, and most temps are block-local, so the sets stay small on large
/// shaders. Block `b`'s set is `words` u64s at `b * words` of a flat vector.
struct Liveness {
    /// Dense index → temp.
    global: Vec<u32>,
    words: usize,
    live_in: Vec<u64>,
    live_out: Vec<u64>,
}

impl Liveness {
    /// Calls `f` with every temp set in block `bi`'s set of `sets`.
    fn for_each(&self, sets: &[u64], bi: usize, mut f: impl FnMut(usize)) {
        let base = bi * self.words;
        for (w, &bits) in sets[base..base + self.words].iter().enumerate() {
            let mut b = bits;
            while b != 0 {
                f(self.global[w * 64 + b.trailing_zeros() as usize] as usize);
                b &= b - 1;
            }
        }
    }
}

pub fn early_clobber(op: &Op) -> bool {
    matches!(op, Op::Hw(_, Format::Smem))
}

/// Live-in and live-out sets per block on the linear CFG (a backward dataflow to the
/// least fixpoint, blocks visited last to first).
fn liveness(p: &Program) -> Liveness {
    const NONE: u32 = u32::MAX;
    let n = p.temps.len();
    let nb = p.blocks.len();
    // The global temps: an operand read before its block defines it.
    let mut def_in = vec![NONE; n];
    let mut dense = vec![NONE; n];
    let mut global: Vec<u32> = Vec::new();
    for (bi, b) in p.blocks.iter().enumerate() {
        for i in &b.insts {
            for o in &i.ops {
                if let Arg::Temp(t) = *o {
                    let t = t.0 as usize;
                    if def_in[t] != bi as u32 && dense[t] == NONE {
                        dense[t] = global.len() as u32;
                        global.push(t as u32);
                    }
                }
            }
            for d in &i.defs {
                if let Arg::Temp(t) = *d {
                    def_in[t.0 as usize] = bi as u32;
                }
            }
        }
    }
    let words = global.len().div_ceil(64);
    let set = |v: &mut [u64], bi: usize, g: u32| v[bi * words + g as usize / 64] |= 1 << (g % 64);
    let clear =
        |v: &mut [u64], bi: usize, g: u32| v[bi * words + g as usize / 64] &= !(1 << (g % 64));
    let mut gen_ = vec![0u64; nb * words];
    let mut kill = vec![0u64; nb * words];
    for (bi, b) in p.blocks.iter().enumerate() {
        for i in b.insts.iter().rev() {
            for d in &i.defs {
                if let Arg::Temp(t) = *d {
                    let g = dense[t.0 as usize];
                    if g != NONE {
                        set(&mut kill, bi, g);
                        clear(&mut gen_, bi, g);
                    }
                }
            }
            for o in &i.ops {
                if let Arg::Temp(t) = *o {
                    let g = dense[t.0 as usize];
                    if g != NONE {
                        set(&mut gen_, bi, g);
                    }
                }
            }
        }
    }
    let mut live_in = vec![0u64; nb * words];
    let mut live_out = vec![0u64; nb * words];
    let mut out = vec![0u64; words];
    let mut changed = true;
    while changed {
        changed = false;
        for bi in (0..nb).rev() {
            out.fill(0);
            for s in &p.blocks[bi].linear_succs {
                let si = s.0 as usize * words;
                for (o, i) in out.iter_mut().zip(&live_in[si..si + words]) {
                    *o |= *i;
                }
            }
            let r = bi * words..(bi + 1) * words;
            for (w, &o) in out.iter().enumerate() {
                let inn = gen_[r.start + w] | (o & !kill[r.start + w]);
                changed |= inn != live_in[r.start + w];
                live_in[r.start + w] = inn;
            }
            live_out[r].copy_from_slice(&out);
        }
    }
    Liveness {
        global,
        words,
        live_in,
        live_out,
    }
}

pub fn intervals(p: &Program) -> Vec<Option<Interval>> {
    let live = liveness(p);
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
        live.for_each(&live.live_in, bi, |t| cover(t, first));
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
        live.for_each(&live.live_out, bi, |t| {
            cover(t, last.saturating_sub(1).max(first))
        });
    }
    iv
}
