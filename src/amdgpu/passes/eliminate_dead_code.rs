//! Dead-code elimination on machine SSA (before register allocation).
//!
//! Design: use counts of every temp over the whole program, then one backward walk over
//! the blocks in reverse layout order, each block bottom-up. An instruction whose
//! definitions are all temps nobody reads is deleted when deleting it changes nothing
//! else the program observes ([`removable`]); the counts of the temps it read drop, so a
//! chain that only fed it dies in the same walk (SSA definitions come before their uses in
//! layout order, except values carried around a loop, which stay). A parallel copy loses
//! its dead pairs one by one.
//!
//! What is never deleted: instructions with a physical or non-temp definition (exec, m0,
//! vcc written by name), memory accesses other than scalar loads, atomics, branches,
//! barriers, waits, exports, `p_startpgm`, instructions that write exec, m0, VCC
//! implicitly (VOP2/VOPC forms) or a hardware register, and an SCC writer whose SCC a
//! later instruction of the block reads before the next SCC write (a carry into
//! `s_addc_u32`, a compare into `s_cselect`). SCC is dead at a block's end (the selection never keeps it live across
//! a block boundary).
//!
//! The temps whole-quad mode names (`Program::wqm`) count as read.
//!
//! Invariant: the program stays valid MIR (`mir::verify`); the pass is linear in the
//! number of operands.

use crate::amdgpu::mir::{Arg, MInst, Op, Program, Pseudo};
use crate::isa::tables::Props;
use crate::isa::Format;

/// Deletes dead instructions (and dead pairs of parallel copies); returns how many
/// definitions were dropped.
pub fn eliminate_dead_code(p: &mut Program) -> u32 {
    let mut uses = vec![0u32; p.temps.len()];
    for b in &p.blocks {
        for i in &b.insts {
            for a in &i.ops {
                if let Arg::Temp(t) = a {
                    uses[t.0 as usize] += 1;
                }
            }
        }
    }
    if let Some(w) = &p.wqm {
        for t in w.seeds.iter().chain(std::iter::once(&w.live)) {
            uses[t.0 as usize] += 1;
        }
    }
    let mut removed = 0;
    for b in p.blocks.iter_mut().rev() {
        // the selection keeps SCC dead across block boundaries
        let mut scc_live = false;
        let mut k = b.insts.len();
        while k > 0 {
            k -= 1;
            let i = &mut b.insts[k];
            let props = i.opcode().map_or(Props::empty(), |o| o.props());
            if i.is_copy() {
                let n = i.defs.len();
                let mut j = 0;
                while j < i.defs.len() {
                    if dead(&uses, &i.defs[j]) {
                        i.defs.remove(j);
                        let o = i.ops.remove(j);
                        if let Arg::Temp(t) = o {
                            uses[t.0 as usize] -= 1;
                        }
                    } else {
                        j += 1;
                    }
                }
                removed += (n - i.defs.len()) as u32;
                if i.defs.is_empty() {
                    b.insts.remove(k);
                }
                continue;
            }
            let writes_scc = props.contains(Props::WRITES_SCC);
            if !i.defs.is_empty()
                && i.defs.iter().all(|a| dead(&uses, a))
                && removable(i, props, scc_live)
            {
                for a in &i.ops {
                    if let Arg::Temp(t) = a {
                        uses[t.0 as usize] -= 1;
                    }
                }
                removed += i.defs.len() as u32;
                b.insts.remove(k);
                continue;
            }
            if writes_scc {
                scc_live = false;
            }
            if props.contains(Props::READS_SCC) {
                scc_live = true;
            }
        }
    }
    removed
}

/// Whether deleting `i` (all of whose definitions are unread temps) leaves everything
/// else the program observes unchanged.
fn removable(i: &MInst, props: Props, scc_live: bool) -> bool {
    let fmt = match i.op {
        Op::Hw(_, f) => f,
        Op::Pseudo(Pseudo::CreateVector | Pseudo::SplitVector) => return true,
        Op::Pseudo(_) => return false,
    };
    let effects = Props::VMEM
        | Props::LDS
        | Props::EXPORT
        | Props::BRANCH
        | Props::BARRIER
        | Props::END_PGM
        | Props::WAITCNT
        | Props::ATOMIC
        | Props::WRITES_EXEC
        | Props::WRITES_M0
        | Props::WRITES_HWREG
        | Props::MOVREL;
    if props.intersects(effects) {
        return false;
    }
    if props.contains(Props::WRITES_VCC) && matches!(fmt, Format::Vop2 | Format::Vopc) {
        return false;
    }
    if props.contains(Props::WRITES_SCC) && scc_live {
        return false;
    }
    i.defs.iter().all(|a| matches!(a, Arg::Temp(_)))
}

fn dead(uses: &[u32], a: &Arg) -> bool {
    matches!(a, Arg::Temp(t) if uses[t.0 as usize] == 0)
}
