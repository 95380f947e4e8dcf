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

use crate::error::{Error, ErrorKind, Result};

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Counter {
    Vm = 0,
    Lgkm = 1,
    Exp = 2,
    Vs = 3,
}

impl Counter {
    pub fn name(self) -> &'static str {
        match self {
            Counter::Vm => "vmcnt",
            Counter::Lgkm => "lgkmcnt",
            Counter::Exp => "expcnt",
            Counter::Vs => "vscnt",
        }
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

#[derive(Clone, Debug, Default)]
pub struct Tracker {
    queues: [Vec<Pending>; 4],
    next_id: u64,
    pub war: bool,
}

fn overlaps(r: Range, base: u16, count: u16) -> bool {
    r.0 < base + count && base < r.0 + r.1
}

impl Tracker {
    pub fn new(war: bool) -> Tracker {
        Tracker {
            war,
            ..Default::default()
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

    pub fn outstanding(&self, c: Counter) -> usize {
        self.queues[c as usize].len()
    }

    /// The operations still pending on `c`, oldest first.
    pub fn pending(&self, c: Counter) -> &[Pending] {
        &self.queues[c as usize]
    }

    /// `s_waitcnt` on one counter with value `n`.
    pub fn wait(&mut self, c: Counter, n: usize) {
        let q = &mut self.queues[c as usize];
        if q.len() <= n {
            return;
        }
        if n == 0 {
            q.clear();
        } else if !q.iter().any(|p| p.ooo) {
            let k = q.len() - n;
            q.drain(..k);
        }
        // out of order with n > 0: nothing is provably complete
        self.gc();
    }

    /// Drop nothing; kept for symmetry (an op on two counters stays until both retire it).
    fn gc(&mut self) {}

    fn find(&self, base: u16, count: u16, in_srcs: bool) -> Option<(Counter, &Pending)> {
        for (ci, q) in self.queues.iter().enumerate() {
            for p in q {
                let set = if in_srcs { &p.srcs } else { &p.dsts };
                if set.iter().any(|&r| overlaps(r, base, count)) {
                    let c = [Counter::Vm, Counter::Lgkm, Counter::Exp, Counter::Vs][ci];
                    return Some((c, p));
                }
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
        let hit = self.find(base, count, false).or_else(|| {
            if self.war {
                self.find(base, count, true)
            } else {
                None
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
        Tracker::new(true)
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
}
