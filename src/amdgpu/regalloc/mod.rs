//! Register allocation: spilling to the budget, then tuple-aware interval assignment.
//!
//! Algorithm:
//! 1. `live`: positions (instruction k reads at `2k`, writes at `2k+1`, SMEM results
//!    early-clobber), liveness on the *linear* CFG, one hull interval per temp.
//! 2. `spill`: while some position needs more dwords of a file than its limit, spill
//!    temps live there (SGPRs into lanes of linear VGPRs; VGPR spilling is not done).
//! 3. Assignment: precoloured temps (hardware inputs, defined by `p_startpgm`) are placed
//!    first; the others in order of interval start take the lowest base register,
//!    aligned for their class (s[2n:2n+1], s[4n:4n+3]), whose registers are all free at
//!    that start (`busy_until[r] < start`).
//! 4. Demand ≤ limit does not guarantee a fit: alignment can fragment the file. When a
//!    temp finds no aligned hole, the limit of its file is lowered by its size and
//!    spilling runs again on the (already spilled) program; this repeats until the
//!    assignment succeeds or nothing more can be spilled (`Error::RegisterPressure`).
//!    Live-range splitting (moving a live value with a parallel copy to open a hole) is
//!    not done.
//!
//! Invariant on success, checked before rewriting: no two temps whose intervals overlap
//! share a register, every register is inside the budget, and no `Arg::Temp` remains.

pub mod live;
pub mod spill;

use super::mir::{Arg, Program, RegType, Temp};
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
    /// SGPR dwords spilled (into VGPR lanes).
    pub spilled_sgprs: u32,
    /// VGPR dwords spilled (to scratch).
    pub spilled_vgprs: u32,
    /// Scratch bytes per lane used by spilling.
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
        let iv = intervals(p);
        match assign(p, budget, &iv) {
            Ok(regs) => {
                check_assignment(p, &iv, &regs, budget)?;
                let mut usage = rewrite(p, &regs);
                usage.spilled_sgprs = st.spilled_sgprs;
                usage.spilled_vgprs = st.spilled_vgprs;
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

/// Chooses a register per temp with an interval.
fn assign(
    p: &Program,
    budget: Budget,
    iv: &[Option<Interval>],
) -> Result<Vec<Option<PhysReg>>, Fail> {
    let mut busy_s = vec![-1i64; budget.sgprs as usize];
    let mut busy_v = vec![-1i64; budget.vgprs as usize];
    let mut assign: Vec<Option<PhysReg>> = vec![None; p.temps.len()];
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
                    }))?;
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
        let busy = match rc.ty {
            RegType::Sgpr => &mut busy_s,
            RegType::Vgpr => &mut busy_v,
        };
        let n = rc.dwords as usize;
        let a = rc.align() as usize;
        let base = (0..busy.len())
            .step_by(a)
            .find(|&b| b + n <= busy.len() && busy[b..b + n].iter().all(|&u| u < start as i64))
            .ok_or(Fail::Fragmented {
                ty: rc.ty,
                dwords: n as u16,
            })?;
        for u in &mut busy[base..base + n] {
            *u = end as i64;
        }
        assign[t] = Some(match rc.ty {
            RegType::Sgpr => PhysReg::sgpr(base as u16),
            RegType::Vgpr => PhysReg::vgpr(base as u16),
        });
    }
    Ok(assign)
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
