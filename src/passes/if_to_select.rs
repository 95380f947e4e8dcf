//! If-to-select (NIR's peephole select): an `if` whose arms are single blocks of at most
//! [`MAX_ARM`] side-effect-free instructions is flattened — both arms run unconditionally
//! in the block before the `if` and every merge phi becomes `bcsel cond, then, else`
//! (with the condition replicated for vector phis). `dont_flatten` ifs are kept; `flatten`
//! ifs are flattened whatever their size as long as the arms are pure. Runs innermost
//! first, so nested diamonds collapse in one run.

use super::cf;
use crate::ir::*;

/// Largest arm (in instructions) flattened without a `flatten` hint.
pub const MAX_ARM: usize = 8;

pub fn run(m: &mut Module) -> bool {
    let mut progress = false;
    for (_, f) in m.functions.iter_mut() {
        let mut body = std::mem::take(&mut f.body);
        visit::rewrite_lists(&mut body, &mut |list, k| {
            if flatten(f, list, k) {
                progress = true;
                k // the list shrank by two nodes: look at the same position again
            } else {
                k + 1
            }
        });
        f.body = body;
    }
    progress
}

fn arm_ok(f: &Function, arm: &[CfNode], limit: usize) -> Option<Block> {
    if arm.len() != 1 {
        return None;
    }
    let b = arm[0].as_block()?;
    let insts = &f.blocks[b].insts;
    if insts.len() > limit {
        return None;
    }
    insts
        .iter()
        .all(|&i| {
            let k = &f.insts[i].kind;
            k.can_reorder() && !k.is_phi()
        })
        .then_some(b)
}

fn flatten(f: &mut Function, list: &mut Vec<CfNode>, k: usize) -> bool {
    let CfNode::If {
        cond,
        then_body,
        else_body,
        control,
    } = &list[k]
    else {
        return false;
    };
    if *control == Control::Avoid {
        return false;
    }
    let limit = if *control == Control::Prefer {
        usize::MAX
    } else {
        MAX_ARM
    };
    let (Some(tb), Some(eb)) = (arm_ok(f, then_body, limit), arm_ok(f, else_body, limit)) else {
        return false;
    };
    let cond = *cond;
    let pre = list[k - 1].as_block().unwrap();
    let merge = list[k + 1].as_block().unwrap();
    // Phi sources by arm, read before the arm blocks are merged away.
    let phis: Vec<(Inst, Value, Value)> = f.blocks[merge]
        .insts
        .iter()
        .copied()
        .take_while(|&i| f.insts[i].kind.is_phi())
        .map(|p| {
            let InstKind::Phi(srcs) = &f.insts[p].kind else {
                unreachable!()
            };
            let get = |b: Block| srcs.iter().find(|s| s.0 == b).map(|s| s.1).unwrap();
            (p, get(tb), get(eb))
        })
        .collect();
    // The arms' only successor is `merge`, whose phis (the only ones naming the arms)
    // all become selects below: no phi needs renaming.
    cf::append_insts(f, pre, tb);
    cf::append_insts(f, pre, eb);
    for (p, a, b) in phis {
        let ty = f.insts[p].ty;
        let c = if ty.comps == 1 {
            cond
        } else {
            let pos = f.position(p);
            f.insert_at(
                merge,
                pos,
                InstKind::Alu {
                    op: AluOp::Vec,
                    srcs: (0..ty.comps).map(|_| cond).collect(),
                },
                ValType::new(1, ty.comps),
            )
        };
        f.insts[p].kind = InstKind::Alu {
            op: AluOp::Bcsel,
            srcs: smallvec::smallvec![c, a, b],
        };
    }
    list.remove(k);
    cf::merge_adjacent_blocks(f, list);
    true
}
