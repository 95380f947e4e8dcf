//! Register allocation: spilling to the budget, then tuple-aware linear scan over live
//! ranges with holes.
//!
//! Algorithm:
//! 1. `live`: positions (instruction k reads at `2k`, writes at `2k+1`, SMEM results
//!    early-clobber), liveness (SGPRs on the linear CFG, VGPRs on the lanes' CFG; see
//!    `live`), and each temp's live range as sorted segments with lifetime holes.
//! 2. `spill` (only when a first assignment without it failed: views sharing their
//!    source's registers can make a program fit whose demand exceeds the limit): while
//!    some position needs more dwords of a file than its limit, spill
//!    temps live there (SGPRs into lanes of linear VGPRs, VGPRs to per-lane scratch,
//!    followed by the scratch setup when it is new). Demand is counted on the segments.
//! 3. Assignment, a linear scan with lifetime holes (Wimmer/Franz): precoloured temps
//!    (hardware inputs, defined by `p_startpgm`) are placed first; the others in order of
//!    range start. Each register keeps the temps holding it whose ranges reach the scan
//!    position; a register is free for a temp when none of their segments meets the
//!    temp's (a holder in a hole leaves its register to a temp that fits in the hole —
//!    the "inactive" set). A temp takes, in this order: its
//!    source's registers when it is a view (`affinity`: a piece of a split tuple or a
//!    copy, neither a phi web) whose source still lives there — both hold one value, so
//!    they may overlap; a base an affinity asks for (a copy partner's register, its slot
//!    in the vector it is a piece of); for the first piece of a vector, a window where
//!    the whole vector fits, kept for the other pieces until the vector is built; else
//!    the lowest free base, aligned for the class (s[2n:2n+1], s[4n:4n+3]),
//!    preferring registers no vector keeps. Temps views share registers with are never
//!    moved by `split`. The scan position only moves forward, so the free test keeps a
//!    cursor per holder into its segments and, per register, the run of positions a
//!    holder was last found live in, with a bit set of the registers whose run covers
//!    the scan position (cleared in order of the runs' ends): the lowest-free search skips
//!    those registers by their bits, rejects a short temp in a long one's hole by a cursor
//!    step, and searches segment by segment only a holder live again inside the
//!    candidate's extent (`File::lowest_free`, `File::free_at_scan`). Same answers as
//!    testing every holder's segments, so the same registers.
//! 4. Demand ≤ limit does not guarantee a fit: alignment can fragment the file. When a
//!    temp finds no aligned hole, `split` tries to open one: the temps occupying an
//!    aligned window move to free registers through a parallel copy before the
//!    instruction where the temp starts (only where that is sound without new phis; see
//!    `split`). When no window can be opened, the limit of the file is lowered by the
//!    temp's size and spilling runs again on the (already spilled) program; this repeats
//!    until the assignment succeeds or nothing more can be spilled
//!    (`Error::RegisterPressure`).
//!
//! Invariant on success, checked before rewriting when the verifiers run (debug builds,
//! tests, `GCNC_VERIFY=1`): no two temps whose live ranges share
//! a position share a register unless both are views of one value at the same offset,
//! every register is inside the budget, and no `Arg::Temp` remains. The live ranges
//! themselves are checked there too, against the block-set dataflow
//! (`live::check_ranges`).

pub mod affinity;
pub mod live;
pub mod spill;
pub mod split;

use super::mir::{Arg, Program, RegType, Temp};
use super::Error;
use crate::isa::{Gen, PhysReg, Reg};
use crate::settings::{Settings, Timer};
use live::ranges;
use live::Ranges;

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

/// Allocates registers (spilling as needed) and rewrites every temp to its register,
/// checking the assignment in debug builds (see [`allocate_in`]).
pub fn allocate(p: &mut Program, budget: Budget) -> Result<Usage, Error> {
    allocate_in(p, budget, &Settings::default(), &mut Timer::default())
}

/// [`allocate`] with the compile's settings: the interference check of the result runs
/// when the verifiers do (`Settings::verify_each`: debug builds and tests, or on
/// request), and `timer` records the allocator's own stages (`ra_liveness`, `ra_spill`
/// with the scratch setup, `ra_assign` with the splits' copies, `ra_verify`,
/// `ra_rewrite`; repeated once per spill round), so their sum is the allocator's time.
pub fn allocate_in(
    p: &mut Program,
    budget: Budget,
    settings: &Settings,
    timer: &mut Timer,
) -> Result<Usage, Error> {
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
        // VGPR spills need the FLAT_SCRATCH setup (idempotent); it adds inputs and
        // temps, so spilling runs again over it
        let new_inputs = timer.stage("ra_spill", || -> Result<bool, Error> {
            if !unspilled {
                spill::spill(p, limit, &mut st)?;
            }
            let inputs = p.abi.user_sgprs.len();
            crate::amdgpu::scratch::insert_setup(p)?;
            Ok(p.abi.user_sgprs.len() != inputs)
        })?;
        if new_inputs {
            continue;
        }
        let lr = timer.stage("ra_liveness", || ranges(p));
        match timer.stage("ra_assign", || assign(p, budget, &lr)) {
            Ok((mut regs, splits, mut val)) => {
                // the splits' copies change the ranges; without any, they stand
                let lr = if splits.is_empty() {
                    lr
                } else {
                    timer.stage("ra_assign", || split::apply(p, &splits, &mut regs));
                    val.extend((val.len()..p.temps.len()).map(|t| (t, 0)));
                    timer.stage("ra_liveness", || ranges(p))
                };
                if settings.verify_each() {
                    timer.stage("ra_verify", || {
                        live::check_ranges(p, &lr).map_err(Error::Verify)?;
                        check_assignment(p, &lr, &regs, &val, budget)
                    })?;
                }
                let mut usage = timer.stage("ra_rewrite", || rewrite(p, &regs));
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

/// Checks that no two temps whose live ranges share a position share a register, and
/// that every register is inside the budget.
fn check_assignment(
    p: &Program,
    lr: &Ranges,
    regs: &[Option<PhysReg>],
    val: &[(usize, i64)],
    budget: Budget,
) -> Result<(), Error> {
    let mut per_reg: std::collections::BTreeMap<u16, Vec<(u32, u32, usize)>> =
        std::collections::BTreeMap::new();
    for (t, r) in regs.iter().enumerate() {
        let Some(r) = r else {
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
            let v = per_reg.entry(r.0 + k).or_default();
            v.extend(lr.of(t).iter().map(|&(s, e)| (s, e, t)));
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

/// A temp holding a register: its segments clipped to `[from, to]` (a temp moved by a
/// split holds its old register up to the copy and its new one from there on).
#[derive(Clone, Copy, Debug)]
struct Occ {
    t: u32,
    from: u32,
    to: u32,
    /// Last position held (pruned once the scan passes it).
    end: u32,
    /// May a split move it (false for the new home of a moved temp).
    movable: bool,
    /// Index of its first segment that may still reach the scan position (see
    /// [`File::free_at_scan`]); only moves forward.
    cur: u32,
}

impl Occ {
    /// The first run of positions at or after `pos` where the holder is live inside
    /// `[from, to]`: `(first, last)`, `first == pos` when it is live at `pos`. `pos`
    /// must not decrease between calls on one holder (the cursor skips the segments
    /// ending before it).
    fn next_live(&mut self, lr: &Ranges, pos: u32) -> Option<(u32, u32)> {
        let q = pos.max(self.from);
        let segs = segs_of(lr, self.t as usize);
        let mut c = self.cur as usize;
        while segs.get(c).is_some_and(|&(_, e)| e < q) {
            c += 1;
        }
        self.cur = c as u32;
        let &(s, e) = segs.get(c)?;
        let s = s.max(q);
        (s <= self.to).then(|| (s, e.min(self.to)))
    }
}

/// Per register of one file: the temps holding it whose ranges reach the scan position.
/// A register is free for a candidate when no holder's (clipped) segments share a
/// position with the candidate's: a holder in a lifetime hole leaves it to a temp that
/// fits in the hole (Wimmer/Franz's "inactive" intervals).
struct File {
    occ: Vec<Vec<Occ>>,
    /// Per register: positions `[first, last]` at which a holder is known to be live (a
    /// cache of [`File::free_at_scan`]'s rejections, empty when `first > last`). Holders
    /// only come, so it stays true until a split ends a holder early
    /// ([`File::end_early`]).
    busy: Vec<(u32, u32)>,
    /// Bit r: `busy[r]` covers the scan position (bits of runs that ended are cleared
    /// by [`File::advance`], in the order of `expiry`).
    busy_bits: Vec<u64>,
    /// The busy runs recorded, by last position: (last, register).
    expiry: std::collections::BinaryHeap<std::cmp::Reverse<(u32, u32)>>,
}

/// An empty `File::busy` run.
const NOT_BUSY: (u32, u32) = (1, 0);

/// Segments of a temp without any (a precoloured input nobody references): its
/// register is held at the program start.
const UNUSED: &[(u32, u32)] = &[(0, 1)];

fn segs_of(lr: &Ranges, t: usize) -> &[(u32, u32)] {
    match lr.of(t) {
        [] => UNUSED,
        s => s,
    }
}

impl File {
    fn new(n: usize) -> File {
        File {
            occ: vec![Vec::new(); n],
            busy: vec![NOT_BUSY; n],
            busy_bits: vec![0; n.div_ceil(64)],
            expiry: std::collections::BinaryHeap::new(),
        }
    }

    fn len(&self) -> usize {
        self.occ.len()
    }

    fn hold(
        &mut self,
        lr: &Ranges,
        t: usize,
        regs: std::ops::Range<usize>,
        from: u32,
        movable: bool,
    ) {
        let end = segs_of(lr, t).last().map_or(0, |l| l.1);
        for r in regs {
            self.occ[r].push(Occ {
                t: t as u32,
                from,
                to: u32::MAX,
                end,
                movable,
                cur: 0,
            });
        }
    }

    /// Drops the holders that end before `pos` (the scan only moves forward).
    fn prune(&mut self, r: usize, pos: u32) {
        self.occ[r].retain(|o| o.end >= pos);
    }

    /// Do registers `b..b+n` hold nothing that meets `segs` from `from` on? Holders for
    /// which `same(holder)` (the candidate's own value) do not count.
    fn free(
        &mut self,
        lr: &Ranges,
        segs: &[(u32, u32)],
        from: u32,
        b: usize,
        n: usize,
        same: impl Fn(&Occ, usize) -> bool,
    ) -> bool {
        if b + n > self.len() {
            return false;
        }
        let start = segs.first().map_or(0, |s| s.0).max(from);
        (b..b + n).all(|r| {
            self.prune(r, start);
            self.occ[r].iter().all(|o| {
                same(o, r)
                    || !live::overlap_in(segs, segs_of(lr, o.t as usize), from.max(o.from), o.to)
            })
        })
    }

    /// [`File::free`] for a candidate that starts at the scan position (`segs[0].0`,
    /// never lower than at any earlier call) counting every holder: the same answer,
    /// faster. A register whose cached busy run covers the position is rejected at once;
    /// otherwise each holder's cursor gives its next live run from the position: live
    /// there rejects the register (and is cached), starting after the candidate's last
    /// position cannot meet it, and only a holder live again inside the candidate's
    /// extent is searched segment by segment. So a register costs a comparison while it
    /// stays held, and a short temp in a long one's hole a cursor step.
    fn free_at_scan(&mut self, lr: &Ranges, segs: &[(u32, u32)], b: usize, n: usize) -> bool {
        if b + n > self.len() {
            return false;
        }
        let start = segs.first().map_or(0, |s| s.0);
        let last = segs.last().map_or(0, |s| s.1);
        (b..b + n).all(|r| {
            let (bs, be) = self.busy[r];
            if bs <= start && start <= be {
                return false;
            }
            self.prune(r, start);
            for o in &mut self.occ[r] {
                match o.next_live(lr, start) {
                    None => {}
                    Some((s, e)) if s == start => {
                        self.busy[r] = (s, e);
                        self.busy_bits[r / 64] |= 1 << (r % 64);
                        self.expiry.push(std::cmp::Reverse((e, r as u32)));
                        return false;
                    }
                    Some((s, _)) if s > last => {}
                    Some(_) => {
                        if live::overlap_in(segs, segs_of(lr, o.t as usize), o.from, o.to) {
                            return false;
                        }
                    }
                }
            }
            true
        })
    }

    /// Holder `t` of registers `regs` holds them only up to position `to` (a split
    /// moves it away there).
    fn end_early(&mut self, t: usize, regs: std::ops::Range<usize>, to: u32) {
        for r in regs {
            for h in self.occ[r].iter_mut().filter(|h| h.t as usize == t) {
                h.to = to;
                h.end = h.end.min(to);
            }
            self.busy[r] = NOT_BUSY;
            self.busy_bits[r / 64] &= !(1 << (r % 64));
        }
    }

    /// Moves the scan position to `pos` (never back): the busy runs ending before it
    /// leave `busy_bits`.
    fn advance(&mut self, pos: u32) {
        while let Some(&std::cmp::Reverse((e, r))) = self.expiry.peek() {
            if e >= pos {
                break;
            }
            self.expiry.pop();
            let r = r as usize;
            // a later run of the register may have replaced this one
            if self.busy[r].1 < pos {
                self.busy_bits[r / 64] &= !(1 << (r % 64));
            }
        }
    }

    /// Is any of registers `b..b + n` known busy at the scan position (`busy_bits`)?
    fn known_busy(&self, b: usize, n: usize) -> bool {
        (b..b + n).any(|r| self.busy_bits[r / 64] >> (r % 64) & 1 != 0)
    }

    /// The lowest base from `b` on, a multiple of `a`, whose `n` registers are all
    /// inside the file and not known busy: where a search for a free base goes on.
    fn next_unknown(&self, mut b: usize, n: usize, a: usize) -> Option<usize> {
        while b + n <= self.len() {
            if !self.known_busy(b, n) {
                return Some(b);
            }
            b += a;
        }
        None
    }

    /// The lowest base, a multiple of `a`, where `n` registers are free for `segs`
    /// (starting at the scan position) and `ok` accepts: the first base of
    /// `(0..).step_by(a)` for which `ok` and [`File::free_at_scan`] hold, skipping the
    /// bases known busy without asking either.
    fn lowest_free(
        &mut self,
        lr: &Ranges,
        segs: &[(u32, u32)],
        n: usize,
        a: usize,
        ok: impl Fn(usize) -> bool,
    ) -> Option<usize> {
        let mut b = 0;
        while let Some(c) = self.next_unknown(b, n, a) {
            if ok(c) && self.free_at_scan(lr, segs, c, n) {
                return Some(c);
            }
            b = c + a;
        }
        None
    }
}

/// Chooses a register per temp with a live range; the moves it decided on (live-range
/// splits) are returned for `split::apply`.
#[allow(clippy::type_complexity)]
fn assign(
    p: &Program,
    budget: Budget,
    lr: &Ranges,
) -> Result<(Vec<Option<PhysReg>>, Vec<split::Split>, Vec<(usize, i64)>), Fail> {
    let mut files = [
        File::new(budget.sgprs as usize),
        File::new(budget.vgprs as usize),
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
        let (file, base) = if r.is_vgpr() {
            (&mut files[1], r.0 - 256)
        } else {
            (&mut files[0], r.0)
        };
        let top = base as usize + rc.dwords as usize;
        if top > file.len() {
            return Err(Fail::Hard(Error::RegisterPressure {
                file: if r.is_vgpr() { "VGPR" } else { "SGPR" },
                needed: top as u32,
                budget: file.len() as u32,
                tuple: None,
            }));
        }
        file.hold(lr, t.0 as usize, base as usize..top, 0, true);
        assign[t.0 as usize] = Some(r);
    }
    let mut order: Vec<(u32, usize)> = (0..p.temps.len())
        .filter(|&t| assign[t].is_none())
        .filter_map(|t| Some((lr.hull(t)?.start, t)))
        .collect();
    order.sort_unstable();
    let phys = |ty: RegType, b: usize| match ty {
        RegType::Sgpr => PhysReg::sgpr(b as u16),
        RegType::Vgpr => PhysReg::vgpr(b as u16),
    };
    let base_of = |r: PhysReg| if r.is_vgpr() { r.0 - 256 } else { r.0 } as i64;
    // per file and register: the position until which a vector whose first piece was
    // placed keeps the rest of its window for its other pieces (a preference: taken
    // only when nothing else is free)
    let mut reserved = [
        vec![-1i64; budget.sgprs as usize],
        vec![-1i64; budget.vgprs as usize],
    ];
    for (start, t) in order {
        let segs = lr.of(t);
        let rc = p.temps[t];
        let fi = (rc.ty == RegType::Vgpr) as usize;
        let file = &mut files[fi];
        file.advance(start);
        let reserved = &mut reserved[fi];
        let n = rc.dwords as usize;
        let a = rc.align() as usize;
        let fits = |file: &mut File, b: i64| {
            b >= 0 && b as usize % a == 0 && file.free_at_scan(lr, segs, b as usize, n)
        };
        // a base an affinity asks for: an assigned partner's, or one reached through an
        // unassigned partner
        let mut hinted = None;
        'hints: for &(o, off) in aff.of(t) {
            if let Some(r) = assign[o as usize] {
                if fits(file, base_of(r) + off as i64) {
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
                    if fits(file, b) {
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
                if let (Some(vi), None) = (lr.hull(v as usize), assign[v as usize]) {
                    let vn = vc.dwords as usize;
                    let w = (0..file.len()).step_by(vc.align() as usize).find(|&w| {
                        let b = w + off as usize;
                        b % a == 0
                            && w + vn <= file.len()
                            && !file.known_busy(w, vn)
                            && reserved[w..w + vn].iter().all(|&u| u < start as i64)
                            && file.free_at_scan(lr, &[(start, start)], w, vn)
                            && file.free_at_scan(lr, segs, b, n)
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
                // the holder of register `reg` keeps this view's value there
                let same = |h: &Occ, _: usize| {
                    let x = h.t as usize;
                    h.from == 0
                        && h.to == u32::MAX
                        && val[x].0 == root
                        && assign[x]
                            .is_some_and(|xr| base_of(xr) - val[x].1 == b - (roff + off as i64))
                };
                let ok = b >= 0
                    && b as usize % a == 0
                    && b as usize + n <= file.len()
                    && (b as usize..b as usize + n).all(|reg| {
                        file.occ[reg].iter().any(|h| {
                            same(h, reg)
                                && live::overlap_in(
                                    &[(start.saturating_sub(1), start)],
                                    segs_of(lr, h.t as usize),
                                    h.from,
                                    h.to,
                                )
                        })
                    })
                    && file.free(lr, segs, 0, b as usize, n, same);
                if ok {
                    let b = b as usize;
                    file.hold(lr, t, b..b + n, 0, true);
                    val[t] = (root, roff + off as i64);
                    pinned[root] = true;
                    assign[t] = Some(phys(rc.ty, b));
                    continue;
                }
            }
        }
        let unreserved =
            |reserved: &[i64], b: usize| reserved[b..b + n].iter().all(|&u| u < start as i64);
        let mut base = hinted;
        if base.is_none() {
            base = file.lowest_free(lr, segs, n, a, |b| unreserved(reserved, b));
        }
        if base.is_none() {
            base = file.lowest_free(lr, segs, n, a, |_| true);
        }
        let base = match base {
            Some(b) => b,
            None => {
                let Some((b, moves)) = find_split(p, lr, &facts, &pinned, file, t, start) else {
                    return Err(Fail::Fragmented {
                        ty: rc.ty,
                        dwords: n as u16,
                    });
                };
                let k = start / 2;
                for (x, to) in moves {
                    let from = base_of(assign[x].unwrap()) as usize;
                    let xn = p.temps[x].dwords as usize;
                    file.end_early(x, from..from + xn, 2 * k - 1);
                    file.hold(lr, x, to..to + xn, 2 * k, false);
                    splits.push(split::Split {
                        temp: x,
                        inst: k,
                        reg: phys(rc.ty, to),
                    });
                }
                b
            }
        };
        file.hold(lr, t, base..base + n, 0, true);
        assign[t] = Some(phys(rc.ty, base));
    }
    Ok((assign, splits, val))
}

/// An aligned window for temp `t` at `start` that becomes free by moving the movable
/// temps holding it to registers free from the copy on: (window base, [(temp, new
/// base)]). Picks the window that moves the fewest dwords, then the lowest.
fn find_split(
    p: &Program,
    lr: &Ranges,
    facts: &split::Facts,
    pinned: &[bool],
    file: &mut File,
    t: usize,
    start: u32,
) -> Option<(usize, Vec<(usize, usize)>)> {
    let rc = p.temps[t];
    let segs = lr.of(t);
    let n = rc.dwords as usize;
    let k = start / 2;
    let mut best: Option<(usize, usize, Vec<(usize, usize)>)> = None;
    'window: for b in (0..file.len()).step_by(rc.align() as usize) {
        if b + n > file.len() {
            break;
        }
        let mut occupants: Vec<usize> = Vec::new();
        for r in b..b + n {
            file.prune(r, start);
            for h in &file.occ[r] {
                let x = h.t as usize;
                if !live::overlap_in(segs, segs_of(lr, x), h.from, h.to) {
                    continue;
                }
                let Some(xi) = lr.hull(x) else {
                    continue 'window;
                };
                if !h.movable || pinned[x] || !facts.can_move(x, xi, rc.ty, k) {
                    continue 'window;
                }
                if !occupants.contains(&x) {
                    occupants.push(x);
                }
            }
        }
        // new homes: free from the copy (which sits before instruction k) on, outside
        // the window, not taken by another occupant
        let mut taken: Vec<(usize, usize)> = vec![(b, b + n)];
        let mut moves = Vec::new();
        let mut dwords = 0;
        for &x in &occupants {
            let xc = p.temps[x];
            let xn = xc.dwords as usize;
            let xs = lr.of(x);
            let Some(to) = (0..file.len()).step_by(xc.align() as usize).find(|&r| {
                taken.iter().all(|&(s, e)| r + xn <= s || r >= e)
                    && file.free(lr, xs, 2 * k, r, xn, |_, _| false)
            }) else {
                continue 'window;
            };
            taken.push((to, to + xn));
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
