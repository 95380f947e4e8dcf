//! Discard becomes demote in a fragment shader that reads across quads.
//!
//! A discard (`OpKill`, `OpTerminateInvocation`) arrives from the front-end as `discard`
//! (or `terminate`) followed by `return`, and `inline` turns a `return` inside control
//! flow into a "returned" flag that guards the rest of the shader. In a shader with
//! derivatives or implicit-LOD sampling that guard would keep the lanes that discarded
//! out of everything after it, so the derivatives of their quad-mates would read stale
//! registers. Demote has the same observable effect (no store, atomic or export of the
//! lane happens afterwards: the backend's live mask keeps them exact, docs/wqm.md) but
//! keeps the lane running as a helper, which is what the quad's derivatives need.
//!
//! Rewritten: a block outside every loop that ends in `discard`/`terminate` followed by a
//! value-less `return` becomes `demote` (the `return` goes, so the block falls through).
//! Left alone: discards inside loops (a demoted lane whose exit condition never comes
//! could keep its quad looping), functions with phis (the fall-through would need a phi
//! source), and every shader without quad reads. Runs before `inline`.

use crate::ir::visit::{self, Walk};
use crate::ir::{CfNode, Function, InstKind, Intrinsic, JumpKind, Module, Stage, TexOp};

pub fn run(m: &mut Module) -> bool {
    if m.stage != Stage::Fragment || !m.functions.iter().any(|(_, f)| reads_quads(f)) {
        return false;
    }
    let mut progress = false;
    for (_, f) in m.functions.iter_mut() {
        let phis = f.blocks_in_order().iter().any(|&b| {
            f.blocks[b]
                .insts
                .iter()
                .any(|&i| matches!(f.kind(i), InstKind::Phi(_)))
        });
        if phis {
            continue;
        }
        // the blocks outside every loop
        let mut blocks = Vec::new();
        visit::walk(&f.body, &mut |n| match n {
            CfNode::Loop { .. } => Walk::SkipBodies,
            CfNode::Block(b) => {
                blocks.push(*b);
                Walk::Continue
            }
            _ => Walk::Continue,
        });
        for b in blocks {
            let insts = &f.blocks[b].insts;
            let [.., kill, ret] = insts[..] else {
                continue;
            };
            let is_kill = matches!(
                f.kind(kill),
                InstKind::Intrinsic {
                    op: Intrinsic::Discard | Intrinsic::Terminate,
                    ..
                }
            );
            if !is_kill || !matches!(f.kind(ret), InstKind::Jump(JumpKind::Return, None)) {
                continue;
            }
            if let InstKind::Intrinsic { op, .. } = &mut f.insts[kill].kind {
                *op = Intrinsic::Demote;
            }
            f.blocks[b].insts.pop();
            progress = true;
        }
    }
    progress
}

/// Whether `f` has a derivative or an implicit-LOD texture operation.
fn reads_quads(f: &Function) -> bool {
    use crate::ir::AluOp::*;
    f.blocks_in_order().iter().any(|&b| {
        f.blocks[b].insts.iter().any(|&i| match f.kind(i) {
            InstKind::Alu { op, .. } => matches!(
                op,
                Fddx | Fddy | FddxFine | FddyFine | FddxCoarse | FddyCoarse
            ),
            InstKind::Tex(t) => matches!(t.op, TexOp::Sample | TexOp::SampleBias | TexOp::QueryLod),
            _ => false,
        })
    })
}
