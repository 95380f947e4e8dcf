//! Register allocation: liveness on the linear CFG, then tuple-aware interval assignment.
//!
//! Algorithm:
//! 1. Positions: instruction k of the layout reads at `2k` and writes at `2k+1`, so a
//!    destination may take the register of a source that dies in the same instruction.
//!    SMEM destinations are early-clobber (written at `2k`), because a scalar load's
//!    result must not overlap its address while the load is outstanding.
//! 2. Liveness: backward dataflow over the *linear* CFG (what the wave executes, so an
//!    SGPR value stays allocated across both arms of a divergent if, and anything live
//!    around a back edge stays live for the whole loop). Phi webs (several definitions by
//!    parallel copies) are handled by the same dataflow.
//! 3. Each temp gets one interval `[first point, last point]` covering its defs, uses and
//!    every block boundary where it is live (a conservative hull: no holes, no splitting).
//! 4. Precoloured temps (hardware inputs, defined by `p_startpgm` at position 1) are
//!    placed first; the others in order of interval start take the lowest base register,
//!    aligned for their class (s[2n:2n+1], s[4n:4n+3]), whose registers are all free at
//!    that start. Because intervals are handled by start, "free" is just
//!    `busy_until[r] < start`.
//!
//! Not done: spilling and live-range splitting. When a class does not fit in the budget
//! the result is `Error::RegisterPressure`. Invariant on success: no two temps whose
//! intervals overlap share a register, and no `Arg::Temp` remains.

use super::mir::{Arg, Op, Program, RegType, Temp};
use super::Error;
use crate::isa::{Format, Gen, PhysReg, Reg};

/// Register budget.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    pub sgprs: u16,
    pub vgprs: u16,
}

impl Budget {
    /// Everything the generation allows a compute wave (SGPRs below the specials).
    pub fn full(gen: Gen) -> Budget {
        Budget {
            sgprs: if gen == Gen::Gfx9 { 102 } else { 106 },
            vgprs: 256,
        }
    }
}

/// What allocation used.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Usage {
    /// Highest SGPR used + 1 (excluding VCC).
    pub sgprs: u32,
    pub vgprs: u32,
}

#[derive(Clone, Copy)]
struct Interval {
    start: u32,
    end: u32,
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

fn early_clobber(op: &Op) -> bool {
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

fn intervals(p: &Program) -> Vec<Option<Interval>> {
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

/// Allocates registers and rewrites every temp to its register.
pub fn allocate(p: &mut Program, budget: Budget) -> Result<Usage, Error> {
    let iv = intervals(p);
    let mut busy_s = vec![-1i64; budget.sgprs as usize];
    let mut busy_v = vec![-1i64; budget.vgprs as usize];
    let mut assign: Vec<Option<PhysReg>> = vec![None; p.temps.len()];
    let mut usage = Usage::default();
    // precoloured first
    for (&t, &r) in &p.precolored {
        let rc = p.rc(t);
        let end = iv[t.0 as usize].map_or(1, |i| i.end) as i64;
        let (busy, base) = if r.is_vgpr() {
            (&mut busy_v, r.0 - 256)
        } else {
            (&mut busy_s, r.0)
        };
        for k in 0..rc.dwords as u16 {
            let slot = busy
                .get_mut((base + k) as usize)
                .ok_or(Error::RegisterPressure {
                    file: if r.is_vgpr() { "VGPR" } else { "SGPR" },
                    needed: (base + k + 1) as u32,
                    budget: if r.is_vgpr() {
                        budget.vgprs
                    } else {
                        budget.sgprs
                    } as u32,
                })?;
            *slot = (*slot).max(end);
        }
        assign[t.0 as usize] = Some(r);
    }
    let mut order: Vec<usize> = (0..p.temps.len())
        .filter(|&t| iv[t].is_some() && assign[t].is_none())
        .collect();
    order.sort_by_key(|&t| (iv[t].unwrap().start, t));
    for t in order {
        let Interval { start, end } = iv[t].unwrap();
        let rc = p.temps[t];
        let (busy, file, lim) = match rc.ty {
            RegType::Sgpr => (&mut busy_s, "SGPR", budget.sgprs),
            RegType::Vgpr => (&mut busy_v, "VGPR", budget.vgprs),
        };
        let n = rc.dwords as usize;
        let a = rc.align() as usize;
        let base = (0..busy.len())
            .step_by(a)
            .find(|&b| b + n <= busy.len() && busy[b..b + n].iter().all(|&u| u < start as i64))
            .ok_or(Error::RegisterPressure {
                file,
                needed: (busy.iter().filter(|&&u| u >= start as i64).count() + n) as u32,
                budget: lim as u32,
            })?;
        for u in &mut busy[base..base + n] {
            *u = end as i64;
        }
        assign[t] = Some(match rc.ty {
            RegType::Sgpr => PhysReg::sgpr(base as u16),
            RegType::Vgpr => PhysReg::vgpr(base as u16),
        });
    }
    for (t, r) in assign.iter().enumerate() {
        if let Some(r) = r {
            let top = if r.is_vgpr() { r.0 - 256 } else { r.0 } as u32 + p.temps[t].dwords as u32;
            if r.is_vgpr() {
                usage.vgprs = usage.vgprs.max(top);
            } else {
                usage.sgprs = usage.sgprs.max(top);
            }
        }
    }
    // rewrite
    let temps = p.temps.clone();
    let to_reg = |t: Temp| -> Arg {
        let r = assign[t.0 as usize].expect("temp without interval is never referenced");
        Arg::Reg(Reg {
            base: r,
            count: temps[t.0 as usize].dwords,
        })
    };
    for b in &mut p.blocks {
        for i in &mut b.insts {
            for a in i.defs.iter_mut().chain(i.ops.iter_mut()) {
                if let Arg::Temp(t) = *a {
                    *a = to_reg(t);
                }
            }
        }
    }
    Ok(usage)
}
