//! Register allocation: spilling to the budget, then tuple-aware interval assignment.
//!
//! Algorithm:
//! 1. `live`: positions (instruction k reads at `2k`, writes at `2k+1`, SMEM results
//!    early-clobber), liveness on the *linear* CFG, one hull interval per temp.
//! 2. `spill`: while some position needs more dwords of a file than its limit, spill
//!    temps live there (SGPRs into lanes of linear VGPRs, VGPRs to per-lane scratch,
//!    followed by the scratch setup when it is new).
//! 3. Assignment: precoloured temps (hardware inputs, defined by `p_startpgm`) are placed
//!    first; the others in order of interval start take the lowest base register,
//!    aligned for their class (s[2n:2n+1], s[4n:4n+3]), whose registers are all free at
//!    that start (`busy_until[r] < start`).
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
//! share a register, every register is inside the budget, and no `Arg::Temp` remains.

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
    loop {
        let limit = Budget {
            sgprs: budget.sgprs.saturating_sub(slack[0]),
            vgprs: budget.vgprs.saturating_sub(slack[1]),
        };
        spill::spill(p, limit, &mut st)?;
        // VGPR spills need the FLAT_SCRATCH setup (idempotent); it adds inputs and
        // temps, so spilling runs again over it
        let inputs = p.abi.user_sgprs.len();
        crate::amdgpu::scratch::insert_setup(p)?;
        if p.abi.user_sgprs.len() != inputs {
            continue;
        }
        let iv = intervals(p);
        match assign(p, budget, &iv) {
            Ok((mut regs, splits)) => {
                split::apply(p, &splits, &mut regs);
                let iv = intervals(p);
                check_assignment(p, &iv, &regs, budget)?;
                let mut usage = rewrite(p, &regs);
                usage.spilled_sgprs = st.spilled_sgprs;
                usage.spilled_vgprs = st.spilled_vgprs;
                usage.scratch_bytes = p.scratch_bytes;
                return Ok(usage);
            }
            Err(Fail::Hard(e)) => return Err(e),
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
        for w in v.windows(2) {
            if w[1].0 <= w[0].1 {
                return Err(Error::Verify(format!(
                    "%{} and %{} overlap and share register {r}",
                    w[0].2, w[1].2
                )));
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
) -> Result<(Vec<Option<PhysReg>>, Vec<split::Split>), Fail> {
    // per file and register: (busy until, occupant temp; usize::MAX for a moved copy)
    let mut files = [
        vec![(-1i64, usize::MAX); budget.sgprs as usize],
        vec![(-1i64, usize::MAX); budget.vgprs as usize],
    ];
    let mut assign: Vec<Option<PhysReg>> = vec![None; p.temps.len()];
    let mut splits = Vec::new();
    let facts = split::Facts::new(p);
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
    for t in order {
        let Interval { start, end } = iv[t].unwrap();
        let rc = p.temps[t];
        let busy = &mut files[(rc.ty == RegType::Vgpr) as usize];
        let n = rc.dwords as usize;
        let a = rc.align() as usize;
        let free = |busy: &[(i64, usize)], b: usize, n: usize, at: u32| {
            b + n <= busy.len() && busy[b..b + n].iter().all(|&(u, _)| u < at as i64)
        };
        let base = match (0..busy.len())
            .step_by(a)
            .find(|&b| free(busy, b, n, start))
        {
            Some(b) => b,
            None => {
                let Some((b, moves)) = find_split(p, iv, &facts, busy, rc, start) else {
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
    Ok((assign, splits))
}

/// An aligned window for `rc` at `start` that becomes free by moving the movable temps
/// occupying it to registers free from the copy on: (window base, [(temp, new base)]).
/// Picks the window that moves the fewest dwords, then the lowest.
fn find_split(
    p: &Program,
    iv: &[Option<Interval>],
    facts: &split::Facts,
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
            if x == usize::MAX || !facts.can_move(x, iv[x].unwrap(), rc.ty, k) {
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
