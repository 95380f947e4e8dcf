//! Control-flow editing helpers shared by the structural passes (inline, unroll,
//! if-to-select, dce): renaming phi predecessors, merging adjacent blocks, and cloning a CF
//! list with value/block/variable remapping.

use crate::ir::*;

/// In every phi, replaces predecessor `old` by `new`.
pub fn rename_pred(f: &mut Function, old: Block, new: Block) {
    let Function { blocks, insts, .. } = f;
    for (_, b) in blocks.iter() {
        for &i in &b.insts {
            match &mut insts[i].kind {
                InstKind::Phi(srcs) => {
                    for s in srcs.iter_mut() {
                        if s.0 == old {
                            s.0 = new;
                        }
                    }
                }
                _ => break,
            }
        }
    }
}

/// Moves every instruction of `from` (which must have no phis) to the end of `into`, and
/// makes phis that named `from` as a predecessor name `into`. `from` is left empty; the
/// caller removes it from the CF tree.
pub fn merge_blocks(f: &mut Function, into: Block, from: Block) {
    append_insts(f, into, from);
    rename_pred(f, from, into);
}

/// Moves every instruction of `from` (which must have no phis) to the end of `into`,
/// renaming no phi: for a caller that rewrites every phi naming `from` itself (the rename
/// scans every block of the arena, which made a pass merging many blocks quadratic).
pub fn append_insts(f: &mut Function, into: Block, from: Block) {
    let moved = std::mem::take(&mut f.blocks[from].insts);
    for &i in &moved {
        debug_assert!(!f.insts[i].kind.is_phi());
        f.insts[i].block = Some(into);
    }
    f.blocks[into].insts.extend(moved);
}

/// Restores list alternation after nodes were removed: merges runs of adjacent blocks.
///
/// Two adjacent blocks `a`, `b` of one list form a straight line: `b`'s only predecessor
/// is `a` and, unless `a` ends in a jump, `a`'s only successor is `b`. So `a`'s
/// instructions move to the front of `b` and `b` keeps its handle: the phis that name `b`
/// as a predecessor stay right and no phi names `a`, so nothing is renamed (a rename
/// scans every block of the arena, which made long merge sequences quadratic). A block
/// that ends in a jump is merged the other way, with the rename.
pub fn merge_adjacent_blocks(f: &mut Function, list: &mut Vec<CfNode>) {
    let mut k = 0;
    while k + 1 < list.len() {
        if let (CfNode::Block(a), CfNode::Block(b)) = (&list[k], &list[k + 1]) {
            let (a, b) = (*a, *b);
            if f.block_jump(a).is_some() {
                merge_blocks(f, a, b);
                list.remove(k + 1);
            } else {
                absorb_into_next(f, a, b);
                list.remove(k);
            }
        } else {
            k += 1;
        }
    }
}

/// Moves every instruction of `from` to the front of `into`, its only successor (which
/// must have no phis). `from` is left empty; the caller removes it from the CF tree.
fn absorb_into_next(f: &mut Function, from: Block, into: Block) {
    let mut moved = std::mem::take(&mut f.blocks[from].insts);
    for &i in &moved {
        f.insts[i].block = Some(into);
    }
    for &i in &f.blocks[into].insts {
        debug_assert!(!f.insts[i].kind.is_phi());
    }
    moved.append(&mut f.blocks[into].insts);
    f.blocks[into].insts = moved;
}

/// Value map keyed by source-function handles.
pub type ValueMap = SecondaryMap<InstData, Option<Value>>;
/// Block map keyed by source-function handles.
pub type BlockMap = SecondaryMap<BlockData, Option<Block>>;

/// Clones `list` of `src` into `dst` (which may be a snapshot of the same function).
/// Values and blocks of the list get fresh copies recorded in `vmap`/`bmap`; operands
/// defined outside the list go through `vmap` when mapped there, else stay as they are
/// (valid when `src` is a snapshot of `dst`). Variables go through `var_map`.
pub fn clone_list(
    src: &Function,
    dst: &mut Function,
    list: &[CfNode],
    vmap: &mut ValueMap,
    bmap: &mut BlockMap,
    var_map: &dyn Fn(Var) -> Var,
) -> Vec<CfNode> {
    let mut blocks = Vec::new();
    visit::for_each_block(list, |b| blocks.push(b));
    for &b in &blocks {
        bmap[b] = Some(dst.new_block());
    }
    // Allocate every copy first so forward references (loop phis) resolve.
    let mut copies = Vec::new();
    for &b in &blocks {
        let nb = bmap[b].unwrap();
        for &i in &src.blocks[b].insts {
            let d = &src.insts[i];
            let n = dst.append(nb, d.kind.clone(), d.ty);
            dst.insts[n].exact = d.exact;
            vmap[i] = Some(n);
            copies.push(n);
        }
    }
    for n in copies {
        let mut kind = std::mem::replace(&mut dst.insts[n].kind, InstKind::Undef);
        kind.for_each_operand_mut(|v| {
            if let Some(m) = vmap[*v] {
                *v = m
            }
        });
        match &mut kind {
            InstKind::Phi(srcs) => {
                for s in srcs.iter_mut() {
                    if let Some(nb) = bmap[s.0] {
                        s.0 = nb;
                    }
                }
            }
            InstKind::Deref(Deref {
                kind: DerefKind::Var(v),
                ..
            }) => *v = var_map(*v),
            _ => {}
        }
        dst.insts[n].kind = kind;
    }
    rebuild(list, vmap, bmap)
}

fn rebuild(list: &[CfNode], vmap: &ValueMap, bmap: &BlockMap) -> Vec<CfNode> {
    list.iter()
        .map(|n| match n {
            CfNode::Block(b) => CfNode::Block(bmap[*b].unwrap()),
            CfNode::If {
                cond,
                then_body,
                else_body,
                control,
            } => CfNode::If {
                cond: vmap[*cond].unwrap_or(*cond),
                then_body: rebuild(then_body, vmap, bmap),
                else_body: rebuild(else_body, vmap, bmap),
                control: *control,
            },
            CfNode::Loop { body, control } => CfNode::Loop {
                body: rebuild(body, vmap, bmap),
                control: *control,
            },
        })
        .collect()
}

/// Whether `list` contains a jump of `kind` that targets the loop `list` belongs to
/// (i.e. not inside a nested loop). `Return` is found at any depth.
pub fn has_jump(f: &Function, list: &[CfNode], kind: JumpKind) -> bool {
    !visit::walk(list, &mut |n| match n {
        CfNode::Block(b) if matches!(f.block_jump(*b), Some((k, _)) if k == kind) => {
            visit::Walk::Stop
        }
        CfNode::Loop { .. } if kind != JumpKind::Return => visit::Walk::SkipBodies,
        _ => visit::Walk::Continue,
    })
}
