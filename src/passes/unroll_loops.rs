//! Full unrolling of small loops with a constant trip count.
//!
//! Recognised shape (what structured SPIR-V `for` loops become after mem2reg):
//!
//! ```text
//! loop {
//!   header:  %i = phi pre: INIT, latch: %next   ; other phis allowed
//!            %c = CMP %i, LIMIT                 ; ilt/ige/ult/uge/ieq/ine, either order
//!   if %c { break } else { }                    ; or the arms swapped
//!   rest… latch: %next = iadd %i, STEP          ; no other break/continue
//! }
//! ```
//!
//! The trip count is found by running the exit test on constants. The body is then
//! cloned once per iteration in straight line (header instructions, then the rest,
//! with header phis bound to the previous iteration's values), followed by the header
//! once more (the iteration that exits); exit phis and later uses of header values take
//! that last copy.
//!
//! Policy, by the loop's SPIR-V `LoopControl` (the IR's [`Control`]):
//! - none: unrolled when the trip count is at most [`MAX_TRIP`] and the unrolled copies
//!   hold at most [`MAX_INSTS`] IR instructions (the loop's own instructions times the
//!   trip count plus one);
//! - `Unroll` ([`Control::Prefer`], GLSL `[[unroll]]` of GL_EXT_control_flow_attributes):
//!   unrolled whatever the default limits say, as NIR's `nir_opt_loop_unroll` does for
//!   `nir_loop_control_unroll` with a known trip count (RADV/ACO then emit straight-line
//!   code), up to the hard caps of [`FORCED_MAX_TRIP`] iterations and
//!   [`FORCED_MAX_INSTS`] instructions in the whole function after unrolling, which bound
//!   compile time, code size and register pressure (NIR has none; nested `[[unroll]]`
//!   loops of ggml's `flash_attn_mask_opt` grew to 15K machine instructions and spilled
//!   with a per-loop cap of 16K, and at 8192 for the function still needed 256 VGPRs and
//!   spilled 128 on gfx1100; at 4096: 2,690 instructions, 69 VGPRs, no spill); past them
//!   the loop stays a loop;
//! - `DontUnroll` ([`Control::Avoid`]): never unrolled.
//!
//! Invariant: the policy only decides *whether* a loop of the recognised shape is
//! unrolled; the unrolled code is the same whichever limit admitted it.

use super::cf::{self, clone_list};
use crate::ir::eval::eval_alu;
use crate::ir::*;

/// Default limit: iterations of a loop without a loop control.
pub const MAX_TRIP: u32 = 32;
/// Default limit: IR instructions after unrolling a loop without a loop control.
pub const MAX_INSTS: usize = 512;
/// Hard cap for `Unroll` loops: iterations.
pub const FORCED_MAX_TRIP: u32 = 256;
/// Hard cap for `Unroll` loops: IR instructions of the whole function after unrolling
/// (nested `Unroll` loops multiply; the first ones in program order are unrolled).
pub const FORCED_MAX_INSTS: usize = 4096;

/// The (iterations, instructions) limits a loop with control `control` is unrolled within;
/// `None` for `DontUnroll`.
pub fn limits(control: Control) -> Option<(u32, usize)> {
    match control {
        Control::None => Some((MAX_TRIP, MAX_INSTS)),
        Control::Prefer => Some((FORCED_MAX_TRIP, FORCED_MAX_INSTS)),
        Control::Avoid => None,
    }
}

pub fn run(m: &mut Module) -> bool {
    let mut progress = false;
    for (_, f) in m.functions.iter_mut() {
        let mut body = std::mem::take(&mut f.body);
        let mut rw: cf::ValueMap = SecondaryMap::new(None);
        let mut changed = false;
        visit::rewrite_lists(&mut body, &mut |list, k| {
            if matches!(list[k], CfNode::Loop { .. }) && unroll(f, list, k, &mut rw) {
                changed = true;
                k // the copies replaced the loop: look at position k again
            } else {
                k + 1
            }
        });
        f.body = body;
        if changed {
            // If conditions after an unrolled loop may name its header values.
            f.rewrite_uses(&rw);
            progress = true;
        }
    }
    progress
}

struct Shape {
    header: Block,
    rest: Vec<CfNode>,
    trip: u32,
    break_block: Block,
}

/// The `continue` that ends block `latch`, if any.
fn trailing_continue(f: &Function, latch: Block) -> Option<Inst> {
    match f.block_jump(latch) {
        Some((JumpKind::Continue, j)) => Some(j),
        _ => None,
    }
}

/// How many `continue`s of this loop level `list` holds (inner loops' own not counted).
fn continues(f: &Function, list: &[CfNode]) -> usize {
    let mut n = 0;
    visit::walk(list, &mut |node| match node {
        CfNode::Block(b) => {
            n += usize::from(matches!(f.block_jump(*b), Some((JumpKind::Continue, _))));
            visit::Walk::Continue
        }
        CfNode::Loop { .. } => visit::Walk::SkipBodies,
        _ => visit::Walk::Continue,
    });
    n
}

/// IR instructions in the blocks of `f` (its CF tree is taken out while loops unroll).
fn function_insts(f: &Function) -> usize {
    f.blocks.iter().map(|(_, b)| b.insts.len()).sum()
}

fn count_insts(f: &Function, list: &[CfNode]) -> usize {
    let mut n = 0;
    visit::for_each_block(list, |b| n += f.blocks[b].insts.len());
    n
}

fn analyze(f: &Function, list: &[CfNode], k: usize) -> Option<Shape> {
    let CfNode::Loop { body, control } = &list[k] else {
        return None;
    };
    let (max_trip, max_insts) = limits(*control)?;
    if body.len() < 3 {
        return None;
    }
    let pre = list[k - 1].as_block()?;
    let header = body[0].as_block()?;
    let CfNode::If {
        cond,
        then_body,
        else_body,
        ..
    } = &body[1]
    else {
        return None;
    };
    let rest = body[2..].to_vec();
    let latch = func::last_block(body);
    let is_break = |arm: &[CfNode]| {
        arm.len() == 1
            && arm[0].as_block().is_some_and(|b| {
                f.blocks[b].insts.len() == 1
                    && matches!(f.block_jump(b), Some((JumpKind::Break, _)))
            })
    };
    let is_empty = |arm: &[CfNode]| {
        arm.len() == 1
            && arm[0]
                .as_block()
                .is_some_and(|b| f.blocks[b].insts.is_empty())
    };
    let (break_on, break_block) = if is_break(then_body) && is_empty(else_body) {
        (true, then_body[0].as_block()?)
    } else if is_break(else_body) && is_empty(then_body) {
        (false, else_body[0].as_block()?)
    } else {
        return None;
    };
    // No jump in the rest but a `continue` ending the latch (the front end ends a body
    // whose continue construct is a block of its own with one): a no-op there.
    if cf::has_jump(f, &rest, JumpKind::Break)
        || cf::has_jump(f, &rest, JumpKind::Return)
        || continues(f, &rest) > usize::from(trailing_continue(f, latch).is_some())
    {
        return None;
    }
    let r0 = rest[0].as_block()?;
    if f.blocks[r0]
        .insts
        .first()
        .is_some_and(|&i| f.insts[i].kind.is_phi())
    {
        return None;
    }
    // The exit test: CMP of a header phi against a constant.
    let (op, a, b) = match &f.insts[*cond].kind {
        InstKind::Alu { op, srcs } if srcs.len() == 2 => (*op, srcs[0], srcs[1]),
        _ => return None,
    };
    if !matches!(
        op,
        AluOp::Ilt | AluOp::Ige | AluOp::Ult | AluOp::Uge | AluOp::Ieq | AluOp::Ine
    ) || f.insts[*cond].block != Some(header)
    {
        return None;
    }
    let (phi, phi_first) = if f.as_scalar_const(b).is_some() {
        (a, true)
    } else if f.as_scalar_const(a).is_some() {
        (b, false)
    } else {
        return None;
    };
    let limit = f.as_scalar_const(if phi_first { b } else { a })?;
    let InstKind::Phi(srcs) = &f.insts[phi].kind else {
        return None;
    };
    if f.insts[phi].block != Some(header) || srcs.len() != 2 {
        return None;
    }
    let init = f.as_scalar_const(srcs.iter().find(|s| s.0 == pre)?.1)?;
    let next = srcs.iter().find(|s| s.0 == latch)?.1;
    let step = match &f.insts[next].kind {
        InstKind::Alu {
            op: AluOp::Iadd,
            srcs: s,
        } if s[0] == phi => f.as_scalar_const(s[1])?,
        InstKind::Alu {
            op: AluOp::Iadd,
            srcs: s,
        } if s[1] == phi => f.as_scalar_const(s[0])?,
        _ => return None,
    };
    let ty = f.insts[phi].ty;
    let mut i = init;
    let mut trip = None;
    for n in 0..=max_trip {
        let (x, y) = if phi_first { (i, limit) } else { (limit, i) };
        let r = eval_alu(op, ValType::B1, &[(ty, &[x]), (ty, &[y])]).ok()?;
        if (r[0] != 0) == break_on {
            trip = Some(n);
            break;
        }
        i = i.wrapping_add(step) & ty.mask();
    }
    let trip = trip?;
    let own = count_insts(f, body);
    let size = own * (trip as usize + 1);
    // the default limit bounds the loop's copies; the hard cap the function they land in
    let total = if *control == Control::Prefer {
        size + function_insts(f) - own
    } else {
        size
    };
    if total > max_insts {
        return None;
    }
    Some(Shape {
        header,
        rest,
        trip,
        break_block,
    })
}

fn unroll(f: &mut Function, list: &mut Vec<CfNode>, k: usize, acc: &mut cf::ValueMap) -> bool {
    let Some(s) = analyze(f, list, k) else {
        return false;
    };
    let pre = list[k - 1].as_block().unwrap();
    let after = list[k + 1].as_block().unwrap();
    let CfNode::Loop { body, .. } = &list[k] else {
        unreachable!()
    };
    let body = body.clone();
    let latch = func::last_block(&body);
    // the latch's trailing `continue` goes: the copies run in straight line
    if let Some(j) = trailing_continue(f, latch) {
        f.remove(j);
    }
    let snap = f.clone();
    let header_insts: Vec<Inst> = f.blocks[s.header].insts.clone();
    let phis: Vec<Inst> = header_insts
        .iter()
        .copied()
        .filter(|&i| f.insts[i].kind.is_phi())
        .collect();
    let src_of = |f: &Function, p: Inst, b: Block| match &f.insts[p].kind {
        InstKind::Phi(srcs) => srcs.iter().find(|x| x.0 == b).map(|x| x.1),
        _ => None,
    };
    let mut vmap: cf::ValueMap = SecondaryMap::new(None);
    let mut bmap: cf::BlockMap = SecondaryMap::new(None);
    for &p in &phis {
        vmap[p] = src_of(f, p, pre);
    }
    let mut middle: Vec<CfNode> = Vec::new();
    let mut tail = pre;
    let mapped = |vmap: &cf::ValueMap, v: Value| vmap[v].unwrap_or(v);
    let clone_header = |f: &mut Function, vmap: &mut cf::ValueMap, tail: Block| {
        for &h in &header_insts {
            if f.insts[h].kind.is_phi() {
                continue;
            }
            let mut kind = f.insts[h].kind.clone();
            kind.for_each_operand_mut(|v| *v = vmap[*v].unwrap_or(*v));
            let ty = f.insts[h].ty;
            let n = f.append(tail, kind, ty);
            f.insts[n].exact = f.insts[h].exact;
            vmap[h] = Some(n);
        }
    };
    for _ in 0..s.trip {
        clone_header(f, &mut vmap, tail);
        let new = clone_list(&snap, f, &s.rest, &mut vmap, &mut bmap, &|v| v);
        let first = func::first_block(&new);
        let last = func::last_block(&new);
        cf::merge_blocks(f, tail, first);
        if new.len() > 1 {
            middle.extend(new[1..].iter().cloned());
            tail = last;
        }
        // Next iteration's phis: this iteration's latch values.
        let next: Vec<Option<Value>> = phis
            .iter()
            .map(|&p| src_of(&snap, p, latch).map(|v| mapped(&vmap, v)))
            .collect();
        for (&p, n) in phis.iter().zip(next) {
            vmap[p] = n;
        }
    }
    clone_header(f, &mut vmap, tail);
    // Exit phis (their only predecessor was the break block) and later uses of header
    // values take the last copies.
    let mut rw: cf::ValueMap = SecondaryMap::new(None);
    let exit_phis: Vec<Inst> = f.blocks[after]
        .insts
        .iter()
        .copied()
        .take_while(|&i| f.insts[i].kind.is_phi())
        .collect();
    for p in exit_phis {
        let v = src_of(f, p, s.break_block);
        if let Some(v) = v {
            rw[p] = Some(mapped(&vmap, v));
        }
        f.remove(p);
    }
    for &h in &header_insts {
        if let Some(n) = vmap[h] {
            rw[h] = Some(n);
        }
    }
    super::dce::kill_list(f, &body);
    cf::merge_blocks(f, tail, after);
    list.splice(k..k + 2, middle);
    cf::merge_adjacent_blocks(f, list);
    f.rewrite_uses_in_list(&rw);
    for (i, _) in f.insts.iter() {
        if let Some(v) = rw[i] {
            acc[i] = Some(v);
        }
    }
    true
}
