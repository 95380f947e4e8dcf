//! The control-flow graph implied by the structured CF tree, and dominance.
//!
//! Edges: a block followed by an `if` goes to the first blocks of both arms; a block
//! followed by a `loop` goes to the loop header; the last block of an `if` arm goes to the
//! merge block; the last block of a loop body goes back to the header (implicit continue);
//! `break` goes to the block after the innermost loop, `continue` to its header, `return`
//! nowhere. The function's last top-level block is the exit.
//!
//! Blocks are numbered in program order, which is a reverse post-order of the forward
//! edges, so the Cooper–Harvey–Kennedy iteration converges in a couple of sweeps.
//! Unreachable blocks get no immediate dominator. Dominance queries are constant time
//! (pre/post numbers of a dominator-tree walk).

use super::func::{first_block, last_block};
use super::*;

/// CFG facts for one function, indexed by block.
#[derive(Clone, Debug)]
pub struct Cfg {
    /// Blocks in program order.
    pub order: Vec<Block>,
    /// Position of each block in `order` (u32::MAX for blocks not in the tree).
    pub rpo: SecondaryMap<BlockData, u32>,
    pub preds: SecondaryMap<BlockData, SmallVec<[Block; 2]>>,
    pub succs: SecondaryMap<BlockData, SmallVec<[Block; 2]>>,
    /// Immediate dominator (None for the entry block and unreachable blocks).
    pub idom: SecondaryMap<BlockData, Option<Block>>,
    /// Number of loops enclosing each block.
    pub loop_depth: SecondaryMap<BlockData, u32>,
    /// Whether each block can be reached from the entry.
    pub reachable: SecondaryMap<BlockData, bool>,
    /// Pre/post numbers of the dominator-tree walk (constant-time dominance queries).
    dom_pre: SecondaryMap<BlockData, u32>,
    dom_post: SecondaryMap<BlockData, u32>,
}

struct Ctx {
    /// Where falling off the end of the current list goes.
    fallthrough: Option<Block>,
    /// (header, exit) of the innermost loop.
    looph: Option<(Block, Block)>,
    depth: u32,
}

impl Cfg {
    pub fn new(f: &Function) -> Cfg {
        let order = f.blocks_in_order();
        let n = f.blocks.len();
        let mut cfg = Cfg {
            rpo: SecondaryMap::with_len(n, u32::MAX),
            preds: SecondaryMap::with_len_by(n, SmallVec::new(), SmallVec::new),
            succs: SecondaryMap::with_len_by(n, SmallVec::new(), SmallVec::new),
            idom: SecondaryMap::with_len(n, None),
            loop_depth: SecondaryMap::with_len(n, 0),
            reachable: SecondaryMap::with_len(n, false),
            dom_pre: SecondaryMap::with_len(n, u32::MAX),
            dom_post: SecondaryMap::with_len(n, 0),
            order,
        };
        for (k, &b) in cfg.order.iter().enumerate() {
            cfg.rpo[b] = k as u32;
        }
        let ctx = Ctx {
            fallthrough: None,
            looph: None,
            depth: 0,
        };
        cfg.edges(f, &f.body, &ctx);
        for &b in &cfg.order {
            for &s in cfg.succs[b].iter() {
                cfg.preds[s].push(b);
            }
        }
        cfg.dominators();
        cfg.number_dom_tree();
        cfg
    }

    fn number_dom_tree(&mut self) {
        let Some(&entry) = self.order.first() else {
            return;
        };
        let children = self.dom_children();
        let mut counter = 0u32;
        let mut stack = vec![(entry, false)];
        while let Some((b, done)) = stack.pop() {
            if done {
                self.dom_post[b] = counter;
                counter += 1;
                continue;
            }
            self.dom_pre[b] = counter;
            counter += 1;
            stack.push((b, true));
            for &c in children[b].iter().rev() {
                stack.push((c, false));
            }
        }
    }

    fn edge(&mut self, from: Block, to: Block) {
        if !self.succs[from].contains(&to) {
            self.succs[from].push(to);
        }
    }

    fn edges(&mut self, f: &Function, list: &[CfNode], ctx: &Ctx) {
        for (k, node) in list.iter().enumerate() {
            match node {
                CfNode::Block(b) => {
                    let b = *b;
                    self.loop_depth[b] = ctx.depth;
                    if let Some((kind, _)) = f.block_jump(b) {
                        match kind {
                            JumpKind::Break => {
                                if let Some((_, exit)) = ctx.looph {
                                    self.edge(b, exit)
                                }
                            }
                            JumpKind::Continue => {
                                if let Some((h, _)) = ctx.looph {
                                    self.edge(b, h)
                                }
                            }
                            JumpKind::Return => {}
                        }
                        continue;
                    }
                    match list.get(k + 1) {
                        Some(CfNode::If {
                            then_body,
                            else_body,
                            ..
                        }) => {
                            self.edge(b, first_block(then_body));
                            self.edge(b, first_block(else_body));
                        }
                        Some(CfNode::Loop { body, .. }) => self.edge(b, first_block(body)),
                        Some(CfNode::Block(n)) => self.edge(b, *n),
                        None => {
                            if let Some(t) = ctx.fallthrough {
                                self.edge(b, t)
                            }
                        }
                    }
                }
                CfNode::If {
                    then_body,
                    else_body,
                    ..
                } => {
                    let merge = list.get(k + 1).and_then(CfNode::as_block);
                    let c = Ctx {
                        fallthrough: merge,
                        looph: ctx.looph,
                        depth: ctx.depth,
                    };
                    self.edges(f, then_body, &c);
                    self.edges(f, else_body, &c);
                }
                CfNode::Loop { body, .. } => {
                    let header = first_block(body);
                    let exit = list.get(k + 1).and_then(CfNode::as_block);
                    let c = Ctx {
                        fallthrough: Some(header),
                        looph: exit.map(|e| (header, e)),
                        depth: ctx.depth + 1,
                    };
                    self.edges(f, body, &c);
                }
            }
        }
    }

    fn dominators(&mut self) {
        let Some(&entry) = self.order.first() else {
            return;
        };
        // Reachability by forward walk.
        let mut stack = vec![entry];
        self.reachable[entry] = true;
        while let Some(b) = stack.pop() {
            for &s in self.succs[b].iter() {
                if !self.reachable[s] {
                    self.reachable[s] = true;
                    stack.push(s);
                }
            }
        }
        let mut changed = true;
        while changed {
            changed = false;
            for &b in self.order.iter().skip(1) {
                if !self.reachable[b] {
                    continue;
                }
                let mut new: Option<Block> = None;
                for &p in self.preds[b].iter() {
                    if !self.reachable[p] || (p != entry && self.idom[p].is_none()) {
                        continue;
                    }
                    new = Some(match new {
                        None => p,
                        Some(n) => self.intersect(p, n, entry),
                    });
                }
                if new.is_some() && self.idom[b] != new {
                    self.idom[b] = new;
                    changed = true;
                }
            }
        }
    }

    fn intersect(&self, mut a: Block, mut b: Block, entry: Block) -> Block {
        while a != b {
            while self.rpo[a] > self.rpo[b] {
                a = if a == entry {
                    a
                } else {
                    self.idom[a].unwrap_or(entry)
                };
            }
            while self.rpo[b] > self.rpo[a] {
                b = if b == entry {
                    b
                } else {
                    self.idom[b].unwrap_or(entry)
                };
            }
        }
        a
    }

    /// Whether block `a` dominates block `b` (reflexive). Constant time; false when
    /// either block is unreachable (unless they are the same block).
    pub fn dominates(&self, a: Block, b: Block) -> bool {
        if a == b {
            return true;
        }
        let (pa, pb) = (self.dom_pre[a], self.dom_pre[b]);
        pa != u32::MAX && pb != u32::MAX && pa <= pb && self.dom_post[b] <= self.dom_post[a]
    }

    /// Children of each block in the dominator tree, in program order.
    pub fn dom_children(&self) -> SecondaryMap<BlockData, SmallVec<[Block; 4]>> {
        let mut ch: SecondaryMap<BlockData, SmallVec<[Block; 4]>> =
            SecondaryMap::with_len_by(self.idom.len(), SmallVec::new(), SmallVec::new);
        for &b in &self.order {
            if let Some(p) = self.idom[b] {
                ch[p].push(b);
            }
        }
        ch
    }
}

/// The block before a loop (its preheader) and after it, found by searching the tree.
pub fn loop_neighbours(list: &[CfNode], k: usize) -> (Block, Block) {
    (
        list[k - 1].as_block().expect("block before loop"),
        list[k + 1].as_block().expect("block after loop"),
    )
}

/// The last block of an if arm, for phi sources at the merge.
pub fn arm_end(list: &[CfNode]) -> Block {
    last_block(list)
}
