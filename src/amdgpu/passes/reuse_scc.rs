//! Drops scalar compares whose answer SCC already holds (before register allocation).
//!
//! The selector tests a uniform bool `c` with `s_cmp_lg_u32 c, 0` (branches, selects, the
//! lane mask of a uniform bool), and a lane mask `m` with `s_cmp_lg_u64 m, 0` in wave64.
//! Often SCC is already `c != 0` at that point: `c` was just made by `s_cselect_b32 c, 1, 0`
//! (which leaves SCC as it found it: the compare that produced it), or by a scalar
//! bitwise operation or shift, which sets SCC to `result != 0`. Then the compare is
//! deleted; `s_cmp_eq_u32 c, 0` right before an `s_cbranch_scc0/1` is deleted too and the
//! branch inverted. A `c` made dead this way goes in `eliminate_dead_code`.
//!
//! Design: one forward walk per block tracking which temp SCC equals (`SCC == (t != 0)`)
//! after the previous instruction; the compare must come right after the instruction that
//! made `t`, so SCC is never kept live across an instruction where register allocation
//! may place copies (their SGPR swaps write SCC). Blocks are independent (the selection
//! keeps SCC dead across block boundaries).

use crate::amdgpu::mir::{Arg, Op, Program, Temp};
use crate::isa::tables::Props;
use crate::isa::Opcode;

/// Deletes redundant scalar compares; returns how many.
pub fn reuse_scc(p: &mut Program) -> u32 {
    let gen = p.target.gen;
    let on = |ops: &[Opcode]| ops.iter().filter_map(|o| o.on(gen)).collect::<Vec<_>>();
    use Opcode::*;
    // operations that set SCC = (result != 0)
    let nonzero = on(&[
        SAndB32, SAndB64, SOrB32, SOrB64, SXorB32, SXorB64, SAndn2B32, SAndn2B64, SOrn2B32,
        SOrn2B64, SNandB32, SNandB64, SNorB32, SNorB64, SXnorB32, SXnorB64, SNotB32, SNotB64,
        SLshlB32, SLshlB64, SLshrB32, SLshrB64, SAshrI32, SAshrI64,
    ]);
    let mut removed = 0;
    for b in &mut p.blocks {
        let mut scc: Option<Temp> = None;
        let mut k = 0;
        while k < b.insts.len() {
            let i = &b.insts[k];
            let Op::Hw(o, _) = i.op else {
                // a pseudo may redefine the temp, and its lowering may write SCC
                scc = None;
                k += 1;
                continue;
            };
            let tested = match (i.ops.first(), i.ops.get(1)) {
                (Some(Arg::Temp(t)), Some(Arg::Const(0))) if scc == Some(*t) => Some(o),
                _ => None,
            };
            match tested {
                Some(SCmpLgU32 | SCmpLgU64) => {
                    b.insts.remove(k);
                    removed += 1;
                    continue;
                }
                Some(SCmpEqU32 | SCmpEqU64) => {
                    let next = b.insts.get(k + 1).and_then(|n| n.opcode());
                    let only_reader = || {
                        b.insts[k + 2..].iter().all(|n| {
                            !n.opcode()
                                .is_some_and(|o| o.props().contains(Props::READS_SCC))
                        })
                    };
                    if let Some(inv) = next.and_then(Opcode::inverse_branch) {
                        if matches!(next, Some(SCbranchScc0 | SCbranchScc1)) && only_reader() {
                            let f = match b.insts[k + 1].op {
                                Op::Hw(_, f) => f,
                                Op::Pseudo(_) => unreachable!(),
                            };
                            b.insts[k + 1].op = Op::Hw(inv, f);
                            b.insts.remove(k);
                            removed += 1;
                            continue;
                        }
                    }
                }
                _ => {}
            }
            // only the instruction right after the one that set SCC may rely on it: register
            // allocation may put copies (which can clobber SCC) before an instruction that
            // starts a temp, never between a compare and its reader
            scc = if o == SCselectB32
                && i.ops.as_slice() == [Arg::Const(1), Arg::Const(0)]
                && i.mods == Default::default()
            {
                i.defs.first().and_then(|d| d.temp())
            } else if matches!(o, SCmpLgU32 | SCmpLgU64) && i.ops.get(1) == Some(&Arg::Const(0)) {
                i.ops[0].temp()
            } else if nonzero.contains(&o) {
                i.defs.first().and_then(|d| d.temp())
            } else {
                None
            };
            k += 1;
        }
    }
    removed
}
