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
//!
//! [`Cfg::of`] reuses the function's last CFG while nothing it is computed from has
//! changed: the CF tree with its blocks, each block's jump and the size of the block arena
//! (its "shape", compared word for word, so a reused CFG is always the one [`Cfg::new`]
//! would build). Passes that only rewrite instructions (the scalar clean-up loop) thus
//! share one CFG.

use super::func::{first_block, last_block};
use super::*;
use std::sync::{Arc, Mutex};

/// A function's last CFG and the shape it was built from ([`Cfg::of`]). Cloning a
/// function clones the entry (the clone has the same shape).
#[derive(Default)]
pub struct CfgCache(Mutex<Option<(Vec<u32>, Arc<Cfg>)>>);

impl Clone for CfgCache {
    fn clone(&self) -> Self {
        CfgCache(Mutex::new(self.entry().clone()))
    }
}

impl std::fmt::Debug for CfgCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("CfgCache")
    }
}

impl CfgCache {
    fn entry(&self) -> std::sync::MutexGuard<'_, Option<(Vec<u32>, Arc<Cfg>)>> {
        // the entry is replaced whole, so a panic elsewhere cannot leave it half-written
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// Markers of the shape encoding (block indices stay far below them).
const SHAPE_IF: u32 = u32::MAX;
const SHAPE_ELSE: u32 = u32::MAX - 1;
const SHAPE_LOOP: u32 = u32::MAX - 2;
const SHAPE_END: u32 = u32::MAX - 3;

/// Appends the shape of `list` to `out`: a block as its index and jump, an `if` and a
/// `loop` as markers around their bodies.
fn shape(f: &Function, list: &[CfNode], out: &mut Vec<u32>) {
    for node in list {
        match node {
            CfNode::Block(b) => {
                out.push(b.index() as u32);
                out.push(match f.block_jump(*b) {
                    None => 0,
                    Some((JumpKind::Break, _)) => 1,
                    Some((JumpKind::Continue, _)) => 2,
                    Some((JumpKind::Return, _)) => 3,
                });
            }
            CfNode::If {
                then_body,
                else_body,
                ..
            } => {
                out.push(SHAPE_IF);
                shape(f, then_body, out);
                out.push(SHAPE_ELSE);
                shape(f, else_body, out);
                out.push(SHAPE_END);
            }
            CfNode::Loop { body, .. } => {
                out.push(SHAPE_LOOP);
                shape(f, body, out);
                out.push(SHAPE_END);
            }
        }
    }
}

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
    /// Children of each block in the dominator tree, in program order (built once with
    /// the tree: CSE and mem2reg walk it on every run, sharing the cached CFG).
    dom_children: SecondaryMap<BlockData, SmallVec<[Block; 4]>>,
}

struct Ctx {
    /// Where falling off the end of the current list goes.
    fallthrough: Option<Block>,
    /// (header, exit) of the innermost loop.
    looph: Option<(Block, Block)>,
    depth: u32,
}

impl Cfg {
    /// The CFG of `f`: the one built last for `f` when its shape is unchanged, else a new
    /// one (then kept for the next call).
    pub fn of(f: &Function) -> Arc<Cfg> {
        let mut key = Vec::with_capacity(2 * f.blocks.len() + 1);
        key.push(f.blocks.len() as u32);
        shape(f, &f.body, &mut key);
        let mut entry = f.cfg_cache.entry();
        if let Some((k, cfg)) = &*entry {
            if *k == key {
                return cfg.clone();
            }
        }
        let cfg = Arc::new(Cfg::new(f));
        *entry = Some((key, cfg.clone()));
        cfg
    }

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
            dom_children: SecondaryMap::new(SmallVec::new()),
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
        let children = self.children_of_idom();
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
        self.dom_children = children;
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
    pub fn dom_children(&self) -> &SecondaryMap<BlockData, SmallVec<[Block; 4]>> {
        &self.dom_children
    }

    /// [`Cfg::dom_children`] from `idom`.
    fn children_of_idom(&self) -> SecondaryMap<BlockData, SmallVec<[Block; 4]>> {
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

#[cfg(test)]
mod tests {
    use super::*;

    const LOOP: &str = "shader compute local_size=1,1,1
struct $0 { [u32, stride=4] @0 }
var @0 ssbo $0 set=0 binding=0

entry fn main() {
  block_0:
    32x1 %0 = const 0
    32x1 %1 = deref_var @0 : ssbo $0
    32x1 %2 = deref_struct %1.0 : ssbo [u32, stride=4]
    32x1 %3 = deref_array %2[%0] : ssbo u32
  loop {
    block_1:
      32x1 %5 = load_deref %3
      1x1 %7 = ieq %5, %0
    if %7 {
      block_2:
        break
    } else {
      block_3:
    }
    block_4:
      store_deref %3, %5 write_mask=0x1
  }
  block_5:
    store_deref %3, %0 write_mask=0x1
}
";

    fn same(a: &Cfg, b: &Cfg) -> bool {
        format!("{a:?}") == format!("{b:?}")
    }

    /// `Cfg::of` hands out the cached CFG while the shape is unchanged, and a fresh one
    /// (equal to `Cfg::new`'s) once a jump goes.
    #[test]
    fn cached_cfg_follows_the_shape() {
        let mut m = parse_module(LOOP).unwrap();
        let (_, f) = m.functions.iter_mut().next().unwrap();
        let first = Cfg::of(f);
        assert!(same(&first, &Cfg::new(f)));
        // an edit inside a block keeps the shape: the same CFG
        let b4 = f.blocks_in_order()[4];
        let store = f.blocks[b4].insts[0];
        f.remove(store);
        assert!(Arc::ptr_eq(&first, &Cfg::of(f)));
        // removing the break changes the edges: a new CFG, the one `new` builds
        let b2 = f.blocks_in_order()[2];
        let (_, brk) = f.block_jump(b2).unwrap();
        f.remove(brk);
        let second = Cfg::of(f);
        assert!(!Arc::ptr_eq(&first, &second));
        assert!(same(&second, &Cfg::new(f)));
        assert!(!same(&first, &second));
        // a clone of the function carries the entry, still valid for it
        let g = f.clone();
        assert!(Arc::ptr_eq(&second, &Cfg::of(&g)));
    }
}
