//! Outstanding-memory tracking per counter — the emulator's `s_waitcnt` checker.
//!
//! The emulator performs every memory operation at issue (memory and registers change at
//! once), then records it here as pending on its counters (`vmcnt`, `lgkmcnt`, `expcnt`,
//! and `vscnt` for GFX10+ stores) with the registers it will write (`dsts`) and the
//! registers the hardware may still read after issue (`srcs`). Until an `s_waitcnt`
//! proves the operation complete:
//! - reading or writing one of its `dsts` is an error (RAW / WAW);
//! - overwriting one of its `srcs` is an error when `Checks::war` is on (WAR; off by
//!   default, see `Checks::war`).
//!
//! Which operations a wait proves complete: a counter value N means "at most N still
//! outstanding". When every pending operation of the counter returns in order (VMEM
//! loads among themselves, LDS among itself), the oldest `len - N` are complete. When an
//! out-of-order kind is pending (SMEM, messages, FLAT in lgkmcnt), only N = 0 proves
//! anything — the strict reading of the ISA documents' rule that SMEM can return out of
//! order. An operation on two counters (FLAT: vmcnt and lgkmcnt) stays pending until both
//! retire it.
//!
//! Cost is bounded, whatever the program does between waits:
//! - A hardware counter saturates at its maximum (the field width of its `s_waitcnt`
//!   operand): a wave issuing one more operation stalls until one completes. With only
//!   in-order operations pending that is the oldest, so the queue retires it and never
//!   holds more than the maximum.
//! - With an out-of-order operation pending nothing short of a wait for 0 retires
//!   anything, so the operations beyond the maximum move to the counter's `overflow`,
//!   which keeps one entry per distinct (instruction text, registers): a loop adds
//!   nothing new to it, so it is bounded by the program's size, and no register is
//!   forgotten (the strict checks are unchanged).
//! - Register checks read a per-counter count of pending operations per register
//!   (`dst_refs`, `src_refs`), not the queues: O(registers checked). The queues are
//!   searched only to name the operation in an error and for the barrier's LDS check.

use crate::error::{Error, ErrorKind, Result};
use gcnc::isa::{simm16::Waitcnt, Gen};
use std::collections::{HashSet, VecDeque};

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Counter {
    Vm = 0,
    Lgkm = 1,
    Exp = 2,
    Vs = 3,
}

impl Counter {
    pub const ALL: [Counter; 4] = [Counter::Vm, Counter::Lgkm, Counter::Exp, Counter::Vs];

    pub fn name(self) -> &'static str {
        match self {
            Counter::Vm => "vmcnt",
            Counter::Lgkm => "lgkmcnt",
            Counter::Exp => "expcnt",
            Counter::Vs => "vscnt",
        }
    }

    /// The hardware counter's maximum on `gen`: the largest value its `s_waitcnt` field
    /// encodes. `vscnt` (GFX10+) is as wide as `vmcnt`.
    pub fn max(self, gen: Gen) -> usize {
        let [vm, exp, lgkm] = Waitcnt::max_fields(gen);
        (match self {
            Counter::Vm | Counter::Vs => vm,
            Counter::Exp => exp,
            Counter::Lgkm => lgkm,
        }) as usize
    }
}

/// A register range in the `PhysReg` numbering (VGPRs from 256).
pub type Range = (u16, u16);

#[derive(Clone, Debug)]
pub struct Pending {
    pub id: u64,
    pub pc: u64,
    pub text: String,
    pub dsts: Vec<Range>,
    pub srcs: Vec<Range>,
    /// Returns out of order with respect to others on the same counter.
    pub ooo: bool,
}

/// One counter's pending operations and its per-register index.
#[derive(Clone, Debug, Default)]
struct Queue {
    /// The hardware counter's maximum: `ops` never holds more.
    max: usize,
    /// Pending operations, oldest first.
    ops: VecDeque<Pending>,
    /// Operations pushed out of `ops` while an out-of-order one was pending, oldest first,
    /// one per distinct (text, dsts, srcs). Emptied only by a wait for 0.
    overflow: Vec<Pending>,
    overflow_keys: HashSet<(String, Vec<Range>, Vec<Range>)>,
    /// Per register: pending operations (in `ops` or folded into `overflow`) writing it.
    dst_refs: Vec<u32>,
    /// Per register: pending operations reading it.
    src_refs: Vec<u32>,
}

fn count_in(refs: &mut Vec<u32>, ranges: &[Range]) {
    for &(b, c) in ranges {
        let end = b as usize + c as usize;
        if refs.len() < end {
            refs.resize(end, 0);
        }
        for r in &mut refs[b as usize..end] {
            *r = r.saturating_add(1);
        }
    }
}

fn count_out(refs: &mut [u32], ranges: &[Range]) {
    for &(b, c) in ranges {
        for r in &mut refs[b as usize..b as usize + c as usize] {
            *r = r.saturating_sub(1);
        }
    }
}

fn any_in(refs: &[u32], base: u16, count: u16) -> bool {
    let end = (base as usize + count as usize).min(refs.len());
    refs.get(base as usize..end)
        .is_some_and(|s| s.iter().any(|&n| n != 0))
}

impl Queue {
    /// No wait short of 0 can retire anything.
    fn out_of_order(&self) -> bool {
        !self.overflow.is_empty() || self.ops.iter().any(|p| p.ooo)
    }

    fn push(&mut self, p: Pending) {
        let stalls = self.ops.len() >= self.max;
        let ooo = self.out_of_order();
        count_in(&mut self.dst_refs, &p.dsts);
        count_in(&mut self.src_refs, &p.srcs);
        self.ops.push_back(p);
        if !stalls {
            return;
        }
        let old = self.ops.pop_front().expect("a full queue");
        if ooo {
            // Some pending operation completed, which one is unknown: keep them all.
            let key = (old.text.clone(), old.dsts.clone(), old.srcs.clone());
            if self.overflow_keys.insert(key) {
                self.overflow.push(old);
            }
        } else {
            // In order: the oldest completed before this one could issue.
            self.retire(&old);
        }
    }

    fn retire(&mut self, p: &Pending) {
        count_out(&mut self.dst_refs, &p.dsts);
        count_out(&mut self.src_refs, &p.srcs);
    }

    fn clear(&mut self) {
        self.ops.clear();
        self.overflow.clear();
        self.overflow_keys.clear();
        self.dst_refs.iter_mut().for_each(|r| *r = 0);
        self.src_refs.iter_mut().for_each(|r| *r = 0);
    }

    /// Oldest first: the folded operations, then the queue.
    fn all(&self) -> impl Iterator<Item = &Pending> {
        self.overflow.iter().chain(&self.ops)
    }
}

/// Built by [`Tracker::new`] only: every queue needs its counter's maximum.
#[derive(Clone, Debug)]
pub struct Tracker {
    queues: [Queue; 4],
    next_id: u64,
    pub war: bool,
}

fn overlaps(r: Range, base: u16, count: u16) -> bool {
    r.0 < base + count && base < r.0 + r.1
}

impl Tracker {
    pub fn new(war: bool, gen: Gen) -> Tracker {
        Tracker {
            queues: Counter::ALL.map(|c| Queue {
                max: c.max(gen),
                ..Default::default()
            }),
            next_id: 0,
            war,
        }
    }

    /// Records an operation on `counters`.
    pub fn issue(
        &mut self,
        counters: &[(Counter, bool)],
        pc: u64,
        text: String,
        dsts: Vec<Range>,
        srcs: Vec<Range>,
    ) {
        let id = self.next_id;
        self.next_id += 1;
        for &(c, ooo) in counters {
            self.queues[c as usize].push(Pending {
                id,
                pc,
                text: text.clone(),
                dsts: dsts.clone(),
                srcs: srcs.clone(),
                ooo,
            });
        }
    }

    /// The hardware counter's value: operations issued and not proven complete, at most
    /// the counter's maximum.
    pub fn outstanding(&self, c: Counter) -> usize {
        self.queues[c as usize].ops.len()
    }

    /// The operations still pending on `c`, oldest first (one per distinct instruction
    /// among those beyond the counter's maximum).
    pub fn pending(&self, c: Counter) -> impl Iterator<Item = &Pending> {
        self.queues[c as usize].all()
    }

    /// `s_waitcnt` on one counter with value `n`.
    pub fn wait(&mut self, c: Counter, n: usize) {
        let q = &mut self.queues[c as usize];
        if n == 0 {
            q.clear();
        } else if q.ops.len() > n && !q.out_of_order() {
            let k = q.ops.len() - n;
            for p in q.ops.drain(..k).collect::<Vec<_>>() {
                q.retire(&p);
            }
        }
        // out of order with n > 0: nothing is provably complete
    }

    fn find(&self, base: u16, count: u16, in_srcs: bool) -> Option<(Counter, &Pending)> {
        self.find_on(&Counter::ALL, base, count, in_srcs)
    }

    fn find_on(
        &self,
        counters: &[Counter],
        base: u16,
        count: u16,
        in_srcs: bool,
    ) -> Option<(Counter, &Pending)> {
        for &c in counters {
            let q = &self.queues[c as usize];
            let refs = if in_srcs { &q.src_refs } else { &q.dst_refs };
            if !any_in(refs, base, count) {
                continue;
            }
            let hit = q.all().find(|p| {
                let set = if in_srcs { &p.srcs } else { &p.dsts };
                set.iter().any(|&r| overlaps(r, base, count))
            });
            if let Some(p) = hit {
                return Some((c, p));
            }
        }
        None
    }

    /// A read of `count` registers from `base`.
    pub fn check_read(&self, base: u16, count: u16, name: impl Fn() -> String) -> Result<()> {
        if let Some((c, p)) = self.find(base, count, false) {
            return Err(Error::new(ErrorKind::MissingWait {
                reg: name(),
                counter: c.name(),
                pending: p.text.clone(),
                pending_pc: p.pc,
                overwrite: false,
            }));
        }
        Ok(())
    }

    /// A write of `count` registers from `base`.
    pub fn check_write(&self, base: u16, count: u16, name: impl Fn() -> String) -> Result<()> {
        // exports read their sources after issue on every generation: overwriting one
        // before `s_waitcnt expcnt` is always an error
        let hit = self.find(base, count, false).or_else(|| {
            if self.war {
                self.find(base, count, true)
            } else {
                self.find_on(&[Counter::Exp], base, count, true)
            }
        });
        if let Some((c, p)) = hit {
            return Err(Error::new(ErrorKind::MissingWait {
                reg: name(),
                counter: c.name(),
                pending: p.text.clone(),
                pending_pc: p.pc,
                overwrite: true,
            }));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t() -> Tracker {
        Tracker::new(true, Gen::Gfx10)
    }

    #[test]
    fn in_order_wait_retires_oldest() {
        let mut tr = t();
        tr.issue(
            &[(Counter::Vm, false)],
            0,
            "a".into(),
            vec![(256, 1)],
            vec![],
        );
        tr.issue(
            &[(Counter::Vm, false)],
            8,
            "b".into(),
            vec![(257, 1)],
            vec![],
        );
        assert!(tr.check_read(256, 1, || "v0".into()).is_err());
        tr.wait(Counter::Vm, 1);
        assert!(tr.check_read(256, 1, || "v0".into()).is_ok());
        assert!(tr.check_read(257, 1, || "v1".into()).is_err());
        tr.wait(Counter::Vm, 0);
        assert!(tr.check_read(257, 1, || "v1".into()).is_ok());
    }

    #[test]
    fn out_of_order_needs_zero() {
        let mut tr = t();
        tr.issue(
            &[(Counter::Lgkm, true)],
            0,
            "s_load a".into(),
            vec![(4, 2)],
            vec![(0, 2)],
        );
        tr.issue(
            &[(Counter::Lgkm, true)],
            8,
            "s_load b".into(),
            vec![(6, 2)],
            vec![(0, 2)],
        );
        tr.wait(Counter::Lgkm, 1);
        assert!(tr.check_read(4, 1, || "s4".into()).is_err());
        assert!(
            tr.check_write(0, 1, || "s0".into()).is_err(),
            "WAR on sbase"
        );
        tr.wait(Counter::Lgkm, 0);
        assert!(tr.check_read(4, 2, || "s[4:5]".into()).is_ok());
        assert!(tr.check_write(0, 1, || "s0".into()).is_ok());
    }

    #[test]
    fn two_counters_need_both() {
        let mut tr = t();
        tr.issue(
            &[(Counter::Vm, false), (Counter::Lgkm, true)],
            0,
            "flat_load".into(),
            vec![(300, 1)],
            vec![],
        );
        tr.wait(Counter::Vm, 0);
        assert!(tr.check_read(300, 1, || "v44".into()).is_err());
        tr.wait(Counter::Lgkm, 0);
        assert!(tr.check_read(300, 1, || "v44".into()).is_ok());
    }

    /// A wave issuing past a counter's maximum stalls until the oldest in-order operation
    /// completes: the queue never holds more than the maximum, the oldest are retired.
    #[test]
    fn a_saturated_in_order_counter_retires_its_oldest() {
        let mut tr = t();
        assert_eq!(Counter::Vs.max(Gen::Gfx10), 63);
        for i in 0..100u16 {
            tr.issue(
                &[(Counter::Vs, false)],
                8 * i as u64,
                format!("store {i}"),
                vec![],
                vec![(256 + i, 1)],
            );
        }
        assert_eq!(tr.outstanding(Counter::Vs), 63);
        assert_eq!(tr.pending(Counter::Vs).next().unwrap().text, "store 37");
        assert!(tr.check_write(256 + 36, 1, || "v36".into()).is_ok());
        let e = tr.check_write(256 + 37, 1, || "v37".into()).unwrap_err();
        assert!(e.to_string().contains("store 37"), "{e}");
        assert!(tr.check_write(256 + 99, 1, || "v99".into()).is_err());
        tr.wait(Counter::Vs, 1);
        assert!(tr.check_write(256 + 98, 1, || "v98".into()).is_ok());
        assert!(tr.check_write(256 + 99, 1, || "v99".into()).is_err());
    }

    /// With an out-of-order operation pending, which one completes at saturation is
    /// unknown: every register stays pending until a wait for 0, and a repeated
    /// instruction is kept once.
    #[test]
    fn a_saturated_out_of_order_counter_forgets_no_register() {
        let mut tr = t();
        tr.issue(
            &[(Counter::Lgkm, true)],
            0,
            "s_load".into(),
            vec![(4, 2)],
            vec![(0, 2)],
        );
        for i in 0..100u16 {
            tr.issue(
                &[(Counter::Lgkm, false)],
                8,
                format!("ds_read {i}"),
                vec![(256 + i, 1)],
                vec![],
            );
        }
        for _ in 0..1000 {
            tr.issue(
                &[(Counter::Lgkm, true)],
                16,
                "s_sendmsg".into(),
                vec![],
                vec![],
            );
        }
        assert_eq!(tr.outstanding(Counter::Lgkm), 63);
        assert!(tr.pending(Counter::Lgkm).count() <= 63 + 102);
        tr.wait(Counter::Lgkm, 1);
        assert!(tr.check_read(4, 1, || "s4".into()).is_err());
        for i in 0..100u16 {
            assert!(
                tr.check_read(256 + i, 1, || format!("v{i}")).is_err(),
                "v{i}"
            );
        }
        tr.wait(Counter::Lgkm, 0);
        assert_eq!(tr.pending(Counter::Lgkm).count(), 0);
        assert!(tr.check_read(4, 2, || "s[4:5]".into()).is_ok());
        assert!(tr.check_read(256, 100, || "v[0:99]".into()).is_ok());
        // in order again after the wait: a partial wait retires
        tr.issue(
            &[(Counter::Lgkm, false)],
            0,
            "ds_read a".into(),
            vec![(256, 1)],
            vec![],
        );
        tr.issue(
            &[(Counter::Lgkm, false)],
            8,
            "ds_read b".into(),
            vec![(257, 1)],
            vec![],
        );
        tr.wait(Counter::Lgkm, 1);
        assert!(tr.check_read(256, 1, || "v0".into()).is_ok());
        assert!(tr.check_read(257, 1, || "v1".into()).is_err());
    }
}
