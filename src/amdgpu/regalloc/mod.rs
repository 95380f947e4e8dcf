//! Register allocation: spilling to the budget, then tuple-aware interval assignment.
//!
//! Algorithm:
//! 1. `live`: positions (instruction k reads at `2k`, writes at `2k+1`, SMEM results
//!    early-clobber), liveness on the *linear* CFG, one hull interval per temp.
//! 2. `spill` (only when a first assignment without it failed: views sharing their
//!    source's registers can make a program fit whose demand exceeds the limit): while
//!    some position needs more dwords of a file than its limit, spill
//!    temps live there (SGPRs into lanes of linear VGPRs, VGPRs to per-lane scratch,
//!    followed by the scratch setup when it is new).
//! 3. Assignment: precoloured temps (hardware inputs, defined by `p_startpgm`) are placed
//!    first; the others in order of interval start. A temp takes, in this order: its
//!    source's registers when it is a view (`affinity`: a piece of a split tuple or a
//!    copy, neither a phi web) whose source still lives there — both hold one value, so
//!    they may overlap; a base an affinity asks for (a copy partner's register, its slot
//!    in the vector it is a piece of); for the first piece of a vector, a window where
//!    the whole vector fits, kept for the other pieces until the vector is built; else
//!    the lowest base, aligned for the class (s[2n:2n+1], s[4n:4n+3]), whose registers
//!    are all free at that start (`busy_until[r] < start`), preferring registers no
//!    vector keeps. Temps views share registers with are never moved by `split`.
//! 4. Demand ≤ limit does not guarantee a fit: alignment can fragment the file. When a
//!    temp finds no aligned hole, `split` tries to open one: the temps occupying an
//!    aligned window move to free registers through a parallel copy before the
//!    instruction where the temp starts (only where that is sound without new phis; see
//!    `split`). When no window can be opened, the limit of the file is lowered by the
//!    temp's size and spilling runs again on the (already spilled) program; this repeats
//!    until the assignment succeeds or nothing more can be spilled
//!    (`Error::RegisterPressure`).
//!
//! Invariant on success, checked before rewriting: no two temps whose intervals overlap
//! share a register unless both are views of one value at the same offset, every
//! register is inside the budget, and no `Arg::Temp` remains.

pub mod affinity;
pub mod live;
pub mod spill;
pub mod split;

use super::mir::{Arg, Program, RegClass, RegType, Temp};
use super::Error;
use crate::isa::{Gen, PhysReg, Reg};
use live::{intervals, Interval};

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
            sgprs: gen.info().sgprs,
            vgprs: gen.info().vgprs,
        }
    }
}

/// What allocation used.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Usage {
    /// Highest SGPR used + 1 (excluding VCC).
    pub sgprs: u32,
    pub vgprs: u32,
    /// SGPR dwords spilled (into VGPR lanes).
    pub spilled_sgprs: u32,
    /// VGPR dwords spilled (to scratch).
    pub spilled_vgprs: u32,
    /// Scratch bytes per lane (spill slots and function-local arrays).
    pub scratch_bytes: u32,
}

/// Why an assignment attempt failed.
enum Fail {
    /// No aligned hole of `dwords` registers in the file at some position.
    Fragmented {
        ty: RegType,
        dwords: u16,
    },
    Hard(Error),
}

/// Allocates registers (spilling as needed) and rewrites every temp to its register.
pub fn allocate(p: &mut Program, budget: Budget) -> Result<Usage, Error> {
    let mut st = spill::State::default();
    let mut slack = [0u16; 2];
    // The first attempt assigns before spilling: the spiller's demand counts every temp
    // on its own, while assignment lets views share their source's registers, so a
    // program over the limit by that measure may still fit.
    let mut unspilled = true;
    loop {
        let limit = Budget {
            sgprs: budget.sgprs.saturating_sub(slack[0]),
            vgprs: budget.vgprs.saturating_sub(slack[1]),
        };
        if !unspilled {
            spill::spill(p, limit, &mut st)?;
        }
        // VGPR spills need the FLAT_SCRATCH setup (idempotent); it adds inputs and
        // temps, so spilling runs again over it
        let inputs = p.abi.user_sgprs.len();
        crate::amdgpu::scratch::insert_setup(p)?;
        if p.abi.user_sgprs.len() != inputs {
            continue;
        }
        let iv = intervals(p);
        match assign(p, budget, &iv) {
            Ok((mut regs, splits, mut val)) => {
                split::apply(p, &splits, &mut regs);
                val.extend((val.len()..p.temps.len()).map(|t| (t, 0)));
                let iv = intervals(p);
                check_assignment(p, &iv, &regs, &val, budget)?;
                let mut usage = rewrite(p, &regs);
                usage.spilled_sgprs = st.spilled_sgprs;
                usage.spilled_vgprs = st.spilled_vgprs;
                usage.scratch_bytes = p.scratch_bytes;
                return Ok(usage);
            }
            Err(Fail::Hard(e)) => return Err(e),
            Err(Fail::Fragmented { .. }) if unspilled => unspilled = false,
            Err(Fail::Fragmented { ty, dwords }) => {
                let k = (ty == RegType::Vgpr) as usize;
                slack[k] += dwords.max(1);
                let lim = if k == 0 { budget.sgprs } else { budget.vgprs };
                if slack[k] >= lim {
                    return Err(Error::RegisterPressure {
                        file: if k == 0 { "SGPR" } else { "VGPR" },
                        needed: lim as u32 + 1,
                        budget: lim as u32,
                        tuple: Some(dwords.max(1)),
                    });
                }
            }
        }
    }
}

/// Checks that no two temps with overlapping intervals share a register and that every
/// register is inside the budget.
fn check_assignment(
    p: &Program,
    iv: &[Option<Interval>],
    regs: &[Option<PhysReg>],
    val: &[(usize, i64)],
    budget: Budget,
) -> Result<(), Error> {
    let mut per_reg: std::collections::BTreeMap<u16, Vec<(u32, u32, usize)>> =
        std::collections::BTreeMap::new();
    for (t, r) in regs.iter().enumerate() {
        let (Some(r), Some(i)) = (r, iv[t]) else {
            continue;
        };
        let (base, lim) = if r.is_vgpr() {
            (r.0 - 256, budget.vgprs)
        } else {
            (r.0, budget.sgprs)
        };
        if base + p.temps[t].dwords as u16 > lim {
            return Err(Error::Verify(format!("%{t} assigned outside the budget")));
        }
        for k in 0..p.temps[t].dwords as u16 {
            per_reg
                .entry(r.0 + k)
                .or_default()
                .push((i.start, i.end, t));
        }
    }
    for (r, mut v) in per_reg {
        v.sort();
        // one value: the same root at the same offset of this register
        let same = |x: usize, y: usize| {
            let base = |t: usize| regs[t].unwrap().0 as i64 - val[t].1;
            val[x].0 == val[y].0 && base(x) == base(y)
        };
        let mut reach: Option<(u32, usize)> = None;
        for &(s, e, t) in &v {
            if let Some((re, rt)) = reach {
                if s <= re && !same(rt, t) {
                    return Err(Error::Verify(format!(
                        "%{rt} and %{t} overlap and share register {r}"
                    )));
                }
            }
            if reach.is_none_or(|(re, _)| e > re) {
                reach = Some((e, t));
            }
        }
    }
    Ok(())
}

/// Chooses a register per temp with an interval; the moves it decided on (live-range
/// splits) are returned for `split::apply`.
fn assign(
    p: &Program,
    budget: Budget,
    iv: &[Option<Interval>],
) -> Result<(Vec<Option<PhysReg>>, Vec<split::Split>, Vec<(usize, i64)>), Fail> {
    // per file and register: (busy until, occupant temp; usize::MAX for a moved copy)
    let mut files = [
        vec![(-1i64, usize::MAX); budget.sgprs as usize],
        vec![(-1i64, usize::MAX); budget.vgprs as usize],
    ];
    let mut assign: Vec<Option<PhysReg>> = vec![None; p.temps.len()];
    let mut splits = Vec::new();
    let facts = split::Facts::new(p);
    let aff = affinity::Affinities::new(p);
    // per temp: the temp whose registers it shares and its dword offset there (itself
    // at 0 unless it is a view placed on its source)
    let mut val: Vec<(usize, i64)> = (0..p.temps.len()).map(|t| (t, 0)).collect();
    // temps that views share registers with: never moved by a split
    let mut pinned = vec![false; p.temps.len()];
    // precoloured first
    for (&t, &r) in &p.precolored {
        let rc = p.rc(t);
        let end = iv[t.0 as usize].map_or(1, |i| i.end) as i64;
        let (busy, base) = if r.is_vgpr() {
            (&mut files[1], r.0 - 256)
        } else {
            (&mut files[0], r.0)
        };
        for k in 0..rc.dwords as u16 {
            let slot =
                busy.get_mut((base + k) as usize)
                    .ok_or(Fail::Hard(Error::RegisterPressure {
                        file: if r.is_vgpr() { "VGPR" } else { "SGPR" },
                        needed: (base + k + 1) as u32,
                        budget: if r.is_vgpr() {
                            budget.vgprs
                        } else {
                            budget.sgprs
                        } as u32,
                        tuple: None,
                    }))?;
            *slot = (slot.0.max(end), t.0 as usize);
        }
        assign[t.0 as usize] = Some(r);
    }
    let mut order: Vec<usize> = (0..p.temps.len())
        .filter(|&t| iv[t].is_some() && assign[t].is_none())
        .collect();
    order.sort_by_key(|&t| (iv[t].unwrap().start, t));
    let phys = |ty: RegType, b: usize| match ty {
        RegType::Sgpr => PhysReg::sgpr(b as u16),
        RegType::Vgpr => PhysReg::vgpr(b as u16),
    };
    // per file and register: the position until which a vector whose first piece was
    // placed keeps the rest of its window for its other pieces (a preference: taken
    // only when nothing else is free)
    let mut reserved = [
        vec![-1i64; budget.sgprs as usize],
        vec![-1i64; budget.vgprs as usize],
    ];
    for t in order {
        let Interval { start, end } = iv[t].unwrap();
        let rc = p.temps[t];
        let file = (rc.ty == RegType::Vgpr) as usize;
        let busy = &mut files[file];
        let reserved = &mut reserved[file];
        let n = rc.dwords as usize;
        let a = rc.align() as usize;
        let free = |busy: &[(i64, usize)], b: usize, n: usize, at: u32| {
            b + n <= busy.len() && busy[b..b + n].iter().all(|&(u, _)| u < at as i64)
        };
        let fits = |busy: &[(i64, usize)], b: i64| {
            b >= 0 && b as usize % a == 0 && free(busy, b as usize, n, start)
        };
        let unreserved =
            |reserved: &[i64], b: usize| reserved[b..b + n].iter().all(|&u| u < start as i64);
        let base_of = |r: PhysReg| if r.is_vgpr() { r.0 - 256 } else { r.0 } as i64;
        // a base an affinity asks for: an assigned partner's, or one reached through an
        // unassigned partner
        let mut hinted = None;
        'hints: for &(o, off) in aff.of(t) {
            if let Some(r) = assign[o as usize] {
                if fits(busy, base_of(r) + off as i64) {
                    hinted = Some((base_of(r) + off as i64) as usize);
                    break;
                }
                continue;
            }
            for &(o2, off2) in aff.of(o as usize) {
                if o2 as usize == t {
                    continue;
                }
                if let Some(r) = assign[o2 as usize] {
                    let b = base_of(r) + off2 as i64 + off as i64;
                    if fits(busy, b) {
                        hinted = Some(b as usize);
                        break 'hints;
                    }
                }
            }
        }
        // the first piece of a vector: a window where the whole vector fits, the rest
        // kept for the other pieces until the vector is built
        if hinted.is_none() {
            if let Some((v, off)) = aff.vector_of[t] {
                let vc = p.temps[v as usize];
                if let (Some(vi), None) = (iv[v as usize], assign[v as usize]) {
                    let vn = vc.dwords as usize;
                    let w = (0..busy.len()).step_by(vc.align() as usize).find(|&w| {
                        let b = w + off as usize;
                        b % a == 0
                            && free(busy, w, vn, start)
                            && reserved[w..(w + vn).min(busy.len())]
                                .iter()
                                .all(|&u| u < start as i64)
                    });
                    if let Some(w) = w {
                        for r in &mut reserved[w..w + vn] {
                            *r = vi.start as i64;
                        }
                        hinted = Some(w + off as usize);
                    }
                }
            }
        }
        // a view of a live value (a piece of a split tuple, a copy) reads the same
        // registers as its source: both keep one value while they live
        if let Some((o, off)) = aff.view_of[t] {
            if let Some(r) = assign[o as usize] {
                let (root, roff) = val[o as usize];
                let b = base_of(r) + off as i64;
                let ok = b >= 0
                    && b as usize % a == 0
                    && b as usize + n <= busy.len()
                    && busy[b as usize..b as usize + n]
                        .iter()
                        .all(|&(u, x)| x == root && u >= start as i64);
                if ok {
                    let b = b as usize;
                    for u in &mut busy[b..b + n] {
                        u.0 = u.0.max(end as i64);
                    }
                    val[t] = (root, roff + off as i64);
                    pinned[root] = true;
                    assign[t] = Some(phys(rc.ty, b));
                    continue;
                }
            }
        }
        let base = match hinted
            .or_else(|| {
                (0..busy.len())
                    .step_by(a)
                    .find(|&b| free(busy, b, n, start) && unreserved(reserved, b))
            })
            .or_else(|| {
                (0..busy.len())
                    .step_by(a)
                    .find(|&b| free(busy, b, n, start))
            }) {
            Some(b) => b,
            None => {
                let Some((b, moves)) = find_split(p, iv, &facts, &pinned, busy, rc, start) else {
                    return Err(Fail::Fragmented {
                        ty: rc.ty,
                        dwords: n as u16,
                    });
                };
                let k = start / 2;
                for (x, to) in moves {
                    let xe = iv[x].unwrap().end as i64;
                    let from = assign[x].unwrap();
                    let from = if from.is_vgpr() { from.0 - 256 } else { from.0 } as usize;
                    for r in 0..p.temps[x].dwords as usize {
                        busy[from + r] = (2 * k as i64 - 1, x);
                        busy[to + r] = (xe, usize::MAX);
                    }
                    splits.push(split::Split {
                        temp: x,
                        inst: k,
                        reg: phys(rc.ty, to),
                    });
                }
                b
            }
        };
        for u in &mut busy[base..base + n] {
            *u = (end as i64, t);
        }
        assign[t] = Some(phys(rc.ty, base));
    }
    Ok((assign, splits, val))
}

/// An aligned window for `rc` at `start` that becomes free by moving the movable temps
/// occupying it to registers free from the copy on: (window base, [(temp, new base)]).
/// Picks the window that moves the fewest dwords, then the lowest.
fn find_split(
    p: &Program,
    iv: &[Option<Interval>],
    facts: &split::Facts,
    pinned: &[bool],
    busy: &[(i64, usize)],
    rc: RegClass,
    start: u32,
) -> Option<(usize, Vec<(usize, usize)>)> {
    let n = rc.dwords as usize;
    let k = start / 2;
    let mut best: Option<(usize, usize, Vec<(usize, usize)>)> = None;
    'window: for b in (0..busy.len()).step_by(rc.align() as usize) {
        if b + n > busy.len() {
            break;
        }
        let mut occupants: Vec<usize> = Vec::new();
        for &(u, x) in &busy[b..b + n] {
            if u < start as i64 {
                continue;
            }
            if x == usize::MAX || pinned[x] || !facts.can_move(x, iv[x].unwrap(), rc.ty, k) {
                continue 'window;
            }
            if !occupants.contains(&x) {
                occupants.push(x);
            }
        }
        // new homes: free before the copy (which sits before instruction k), outside the
        // window, not taken by another occupant
        let mut taken: Vec<bool> = (0..busy.len())
            .map(|r| busy[r].0 >= 2 * k as i64 || (b..b + n).contains(&r))
            .collect();
        let mut moves = Vec::new();
        let mut dwords = 0;
        for &x in &occupants {
            let xc = p.temps[x];
            let xn = xc.dwords as usize;
            let Some(to) = (0..busy.len())
                .step_by(xc.align() as usize)
                .find(|&r| r + xn <= busy.len() && taken[r..r + xn].iter().all(|&t| !t))
            else {
                continue 'window;
            };
            taken[to..to + xn].iter_mut().for_each(|t| *t = true);
            moves.push((x, to));
            dwords += xn;
        }
        if best.as_ref().is_none_or(|(d, _, _)| dwords < *d) {
            best = Some((dwords, b, moves));
        }
    }
    best.map(|(_, b, m)| (b, m))
}

/// Rewrites every temp to its register; returns the registers used.
fn rewrite(p: &mut Program, assign: &[Option<PhysReg>]) -> Usage {
    let mut usage = Usage::default();
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
    usage
}
