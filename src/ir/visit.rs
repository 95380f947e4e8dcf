//! Visitors over the structured control-flow tree, so passes and analyses do not each
//! spell out the recursion through `if` arms and loop bodies.
//!
//! Order is program order everywhere: a node before the nodes nested in it, the `then` arm
//! before the `else` arm. The visitors are:
//! * [`walk`]: every node, with the visitor choosing to descend, skip a node's bodies, or
//!   stop; [`any_node`], [`for_each_block`] and [`for_each_if_cond`] are its common uses.
//! * [`for_each_cond_mut`]: every `if` condition, mutably.
//! * [`rewrite_lists`]: structural rewrites of the lists themselves, inner lists first at
//!   each position, the rewriter choosing where to continue.
//! * [`list_holding_mut`]: the list (and position) that holds a given block.
//!
//! Converted to these: `Function::{blocks_in_order, use_counts, replace_in_cf}`,
//! `passes::cf::{has_jump, clone_list}` (`has_jump` also answers "contains a return" for
//! divergence and isel, replacing their own walks), `passes::dce::{dead_insts,
//! kill_list, simplify_list}`, `passes::if_to_select::walk`,
//! `passes::unroll_loops::{walk, count_insts}`, `passes::inline::{splice_at,
//! remove_block_node}`.
//!
//! Walks that carry context down the tree or build a new tree stay hand-written, because a
//! visitor would only hide their state: `ir::interp` (executes control flow), `ir::print`
//! (indentation and braces), `ir::cfg::Cfg` edges (loop and merge targets), `ir::verify`
//! (loop depth; an `if` condition checked against the block before it), `ir::parse` and
//! `ir::builder` (construct the tree), `passes::cf::rebuild` (maps a tree to a new one),
//! `passes::inline` return lowering (loop nesting, guards inserted after nodes),
//! `passes::divergence` (divergent-loop and divergent-`if` context), and instruction
//! selection's walk (`amdgpu::isel`, emits code with loop and exec-mask state).

use super::{Block, CfNode, Value};

/// What to do after visiting a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Walk {
    /// Go on into the node's bodies, then to its successors.
    Continue,
    /// Do not enter this node's bodies; go on with its successors.
    SkipBodies,
    /// End the walk.
    Stop,
}

/// Visits every node of `list` and of the lists nested in it, in program order. Returns
/// `false` when the visitor stopped the walk.
pub fn walk(list: &[CfNode], visit: &mut impl FnMut(&CfNode) -> Walk) -> bool {
    for n in list {
        match visit(n) {
            Walk::Stop => return false,
            Walk::SkipBodies => continue,
            Walk::Continue => {}
        }
        let inner = match n {
            CfNode::Block(_) => true,
            CfNode::If {
                then_body,
                else_body,
                ..
            } => walk(then_body, visit) && walk(else_body, visit),
            CfNode::Loop { body, .. } => walk(body, visit),
        };
        if !inner {
            return false;
        }
    }
    true
}

/// Whether some node at any depth satisfies `pred`.
pub fn any_node(list: &[CfNode], mut pred: impl FnMut(&CfNode) -> bool) -> bool {
    !walk(list, &mut |n| {
        if pred(n) {
            Walk::Stop
        } else {
            Walk::Continue
        }
    })
}

/// Every block, in program order.
pub fn for_each_block(list: &[CfNode], mut visit: impl FnMut(Block)) {
    walk(list, &mut |n| {
        if let CfNode::Block(b) = n {
            visit(*b);
        }
        Walk::Continue
    });
}

/// Every `if` condition, in program order.
pub fn for_each_if_cond(list: &[CfNode], mut visit: impl FnMut(Value)) {
    walk(list, &mut |n| {
        if let CfNode::If { cond, .. } = n {
            visit(*cond);
        }
        Walk::Continue
    });
}

/// Every `if` condition, mutably, in program order.
pub fn for_each_cond_mut(list: &mut [CfNode], visit: &mut impl FnMut(&mut Value)) {
    for n in list {
        match n {
            CfNode::Block(_) => {}
            CfNode::If {
                cond,
                then_body,
                else_body,
                ..
            } => {
                visit(cond);
                for_each_cond_mut(then_body, visit);
                for_each_cond_mut(else_body, visit);
            }
            CfNode::Loop { body, .. } => for_each_cond_mut(body, visit),
        }
    }
}

/// Rewrites lists bottom-up: at each position `k` of a list, first the lists nested in
/// node `k` (recursively), then `at(list, k)`, which may change the list and returns the
/// position to look at next (`k + 1` to move on, `k` to look at a replaced node again).
pub fn rewrite_lists(
    list: &mut Vec<CfNode>,
    at: &mut impl FnMut(&mut Vec<CfNode>, usize) -> usize,
) {
    let mut k = 0;
    while k < list.len() {
        match &mut list[k] {
            CfNode::Block(_) => {}
            CfNode::If {
                then_body,
                else_body,
                ..
            } => {
                rewrite_lists(then_body, at);
                rewrite_lists(else_body, at);
            }
            CfNode::Loop { body, .. } => rewrite_lists(body, at),
        }
        k = at(list, k);
    }
}

/// The list that holds `Block(b)` and its position there.
pub fn list_holding_mut(list: &mut Vec<CfNode>, b: Block) -> Option<(&mut Vec<CfNode>, usize)> {
    if let Some(k) = list.iter().position(|n| n.as_block() == Some(b)) {
        return Some((list, k));
    }
    let holds = |l: &[CfNode]| any_node(l, |n| n.as_block() == Some(b));
    for n in list.iter_mut() {
        match n {
            CfNode::Block(_) => {}
            CfNode::If {
                then_body,
                else_body,
                ..
            } => {
                if holds(then_body) {
                    return list_holding_mut(then_body, b);
                }
                if holds(else_body) {
                    return list_holding_mut(else_body, b);
                }
            }
            CfNode::Loop { body, .. } => {
                if holds(body) {
                    return list_holding_mut(body, b);
                }
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{parse_module, Function};

    fn function() -> Function {
        let m = parse_module(
            "shader compute local_size=1,1,1\n\
             entry fn main() {\n  block_0:\n    1x1 %0 = const true\n  if %0 {\n    block_1:\n  } else {\n    block_2:\n  }\n  block_3:\n  loop {\n    block_4:\n    if %0 {\n      block_5:\n        break\n    } else {\n      block_6:\n    }\n    block_7:\n  }\n  block_8:\n}\n",
        )
        .unwrap();
        let f = m.functions.iter().next().unwrap().1.clone();
        f
    }

    #[test]
    fn blocks_and_conditions_come_in_program_order() {
        let f = function();
        let mut blocks = Vec::new();
        for_each_block(&f.body, |b| blocks.push(b));
        // The parser numbers blocks in text order, which is program order.
        assert_eq!(blocks.len(), 9);
        assert!(blocks.windows(2).all(|w| w[0].index() < w[1].index()));
        let mut conds = 0;
        for_each_if_cond(&f.body, |_| conds += 1);
        assert_eq!(conds, 2);
    }

    #[test]
    fn skipping_bodies_and_stopping() {
        let f = function();
        let mut outside_loops = 0;
        walk(&f.body, &mut |n| match n {
            CfNode::Loop { .. } => Walk::SkipBodies,
            CfNode::Block(_) => {
                outside_loops += 1;
                Walk::Continue
            }
            _ => Walk::Continue,
        });
        assert_eq!(outside_loops, 5); // blocks 0, 1, 2, 3, 8
        let mut seen = 0;
        let finished = walk(&f.body, &mut |_| {
            seen += 1;
            if seen == 3 {
                Walk::Stop
            } else {
                Walk::Continue
            }
        });
        assert!(!finished);
        assert_eq!(seen, 3);
    }

    #[test]
    fn the_list_holding_a_nested_block() {
        let mut f = function();
        let order = f.blocks_in_order();
        let (list, k) = list_holding_mut(&mut f.body, order[5]).unwrap();
        assert_eq!((list.len(), k), (1, 0)); // block_5, alone in the then arm
        let (list, k) = list_holding_mut(&mut f.body, order[8]).unwrap();
        assert_eq!(list[k].as_block(), Some(order[8]));
    }
}
