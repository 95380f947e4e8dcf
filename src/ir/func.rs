//! Editing a [`Function`]: creating blocks and instructions, moving and removing them,
//! rewriting uses, and walking the CF tree in program order.
//!
//! Program order is the order the printer shows: a pre-order walk of the CF tree. For a
//! structured CFG it is a reverse post-order of the forward edges, which is what the
//! dominance computation in [`super::cfg`] relies on.

use super::*;

impl Function {
    /// A function with a single empty block.
    pub fn new(name: &str, params: Vec<ValType>, ret: ValType) -> Self {
        let mut blocks = Arena::new();
        let b = blocks.alloc(BlockData::default());
        Function {
            name: name.to_string(),
            params,
            ret,
            locals: Vec::new(),
            insts: Arena::new(),
            blocks,
            body: vec![CfNode::Block(b)],
            cfg_cache: Default::default(),
        }
    }

    /// A fresh block, not yet placed in the CF tree.
    pub fn new_block(&mut self) -> Block {
        self.blocks.alloc(BlockData::default())
    }

    #[inline]
    pub fn inst(&self, v: Value) -> &InstData {
        &self.insts[v]
    }
    #[inline]
    pub fn kind(&self, v: Value) -> &InstKind {
        &self.insts[v].kind
    }
    #[inline]
    pub fn ty(&self, v: Value) -> ValType {
        self.insts[v].ty
    }
    /// Whether `v` is still placed in a block.
    #[inline]
    pub fn is_live(&self, v: Value) -> bool {
        self.insts[v].block.is_some()
    }

    /// The constant components of `v`, if it is a constant.
    pub fn as_const(&self, v: Value) -> Option<&[u64]> {
        match &self.insts[v].kind {
            InstKind::Const(c) => Some(c),
            _ => None,
        }
    }
    /// The value of a single-component constant.
    pub fn as_scalar_const(&self, v: Value) -> Option<u64> {
        match self.as_const(v) {
            Some([c]) => Some(*c),
            _ => None,
        }
    }

    fn alloc(&mut self, kind: InstKind, ty: ValType, block: Block) -> Inst {
        self.insts.alloc(InstData {
            kind,
            ty,
            block: Some(block),
            exact: false,
        })
    }

    /// Appends an instruction at the end of `block` (before nothing: callers keep jumps last).
    pub fn append(&mut self, block: Block, kind: InstKind, ty: ValType) -> Inst {
        let i = self.alloc(kind, ty, block);
        self.blocks[block].insts.push(i);
        i
    }
    /// Inserts at `pos` in `block`'s list.
    pub fn insert_at(&mut self, block: Block, pos: usize, kind: InstKind, ty: ValType) -> Inst {
        let i = self.alloc(kind, ty, block);
        self.blocks[block].insts.insert(pos, i);
        i
    }
    /// Inserts after the phis of `block`.
    pub fn insert_after_phis(&mut self, block: Block, kind: InstKind, ty: ValType) -> Inst {
        let pos = self.first_non_phi(block);
        self.insert_at(block, pos, kind, ty)
    }
    /// Inserts at the end of `block`, but before its jump if it ends in one.
    pub fn insert_before_jump(&mut self, block: Block, kind: InstKind, ty: ValType) -> Inst {
        let insts = &self.blocks[block].insts;
        let pos = match insts.last() {
            Some(&l) if self.insts[l].kind.is_jump() => insts.len() - 1,
            _ => insts.len(),
        };
        self.insert_at(block, pos, kind, ty)
    }
    /// Inserts immediately before `before`.
    pub fn insert_before(&mut self, before: Inst, kind: InstKind, ty: ValType) -> Inst {
        let b = self.insts[before]
            .block
            .expect("insert before a removed instruction");
        let pos = self.position(before);
        self.insert_at(b, pos, kind, ty)
    }
    /// Inserts immediately after `after`.
    pub fn insert_after(&mut self, after: Inst, kind: InstKind, ty: ValType) -> Inst {
        let b = self.insts[after]
            .block
            .expect("insert after a removed instruction");
        let pos = self.position(after);
        self.insert_at(b, pos + 1, kind, ty)
    }
    /// A new instruction not yet in any block (place it with [`Function::place_before`]).
    pub fn alloc_detached(&mut self, kind: InstKind, ty: ValType) -> Inst {
        self.insts.alloc(InstData {
            kind,
            ty,
            block: None,
            exact: false,
        })
    }
    /// Places detached instructions: each `(anchor, new)` puts `new` immediately before
    /// `anchor` (several news for one anchor keep their order). One pass per affected
    /// block, instead of a position search per insertion; the pending pairs are sorted by
    /// anchor (stably) and each anchor finds its run by binary search, so nothing is sized
    /// by the instruction arena but one mark per slot.
    pub fn place_before(&mut self, pending: &[(Inst, Inst)]) {
        if pending.is_empty() {
            return;
        }
        let mut sorted = pending.to_vec();
        sorted.sort_by_key(|&(anchor, _)| anchor);
        let mut anchor = SecondaryMap::with_len(self.insts.len(), false);
        // per block: how many instructions it receives (0: not affected)
        let mut extra = SecondaryMap::with_len(self.blocks.len(), 0usize);
        let mut blocks: Vec<Block> = Vec::new();
        for &(a, _) in &sorted {
            anchor[a] = true;
            let b = self.insts[a].block.expect("anchor was removed");
            if extra[b] == 0 {
                blocks.push(b);
            }
            extra[b] += 1;
        }
        for b in blocks {
            let old = std::mem::take(&mut self.blocks[b].insts);
            let mut list = Vec::with_capacity(old.len() + extra[b]);
            for i in old {
                if anchor[i] {
                    let start = sorted.partition_point(|&(a, _)| a < i);
                    for &(_, n) in sorted[start..].iter().take_while(|&&(a, _)| a == i) {
                        self.insts[n].block = Some(b);
                        list.push(n);
                    }
                }
                list.push(i);
            }
            self.blocks[b].insts = list;
        }
    }
    /// Index of `i` in its block's list.
    pub fn position(&self, i: Inst) -> usize {
        let b = self.insts[i].block.expect("removed instruction");
        self.blocks[b]
            .insts
            .iter()
            .position(|&x| x == i)
            .expect("instruction not in its block")
    }
    pub fn first_non_phi(&self, block: Block) -> usize {
        self.blocks[block]
            .insts
            .iter()
            .position(|&i| !self.insts[i].kind.is_phi())
            .unwrap_or(self.blocks[block].insts.len())
    }
    /// The jump ending `block`, if any.
    pub fn block_jump(&self, block: Block) -> Option<(JumpKind, Inst)> {
        let &l = self.blocks[block].insts.last()?;
        match self.insts[l].kind {
            InstKind::Jump(k, _) => Some((k, l)),
            _ => None,
        }
    }

    /// Detaches `i` from its block. Its uses must already be gone.
    pub fn remove(&mut self, i: Inst) {
        if let Some(b) = self.insts[i].block {
            let pos = self.position(i);
            self.blocks[b].insts.remove(pos);
            self.insts[i].block = None;
        }
    }
    /// Removes every instruction for which `dead[i]` holds, one pass over each block.
    pub fn remove_all(&mut self, dead: &SecondaryMap<InstData, bool>) {
        let Function { blocks, insts, .. } = self;
        for (_, b) in blocks.iter_mut() {
            b.insts.retain(|&i| {
                if dead[i] {
                    insts[i].block = None;
                    false
                } else {
                    true
                }
            });
        }
    }

    /// Replaces every use of `old` by `new` (one walk over the function).
    pub fn replace_all_uses(&mut self, old: Value, new: Value) {
        let Function { blocks, insts, .. } = self;
        for (_, b) in blocks.iter_mut() {
            for &i in &b.insts {
                insts[i].kind.for_each_operand_mut(|v| {
                    if *v == old {
                        *v = new
                    }
                });
            }
        }
        self.replace_in_cf(|v| if v == old { new } else { v });
    }
    /// Rewrites every operand through `map` (values mapped to themselves stay).
    pub fn rewrite_uses(&mut self, map: &SecondaryMap<InstData, Option<Value>>) {
        let resolve = |mut v: Value| {
            // Follow chains (a → b → c) so batched replacements compose.
            let mut n = 0;
            while let Some(t) = map[v] {
                if t == v || n > 64 {
                    break;
                }
                v = t;
                n += 1;
            }
            v
        };
        let Function { blocks, insts, .. } = self;
        for (_, b) in blocks.iter_mut() {
            for &i in &b.insts {
                insts[i].kind.for_each_operand_mut(|v| *v = resolve(*v));
            }
        }
        self.replace_in_cf(resolve);
    }
    /// [`Function::rewrite_uses`] for instructions only (for passes that have taken the
    /// CF tree out of the function while editing it).
    pub fn rewrite_uses_in_list(&mut self, map: &SecondaryMap<InstData, Option<Value>>) {
        let Function { blocks, insts, .. } = self;
        for (_, b) in blocks.iter_mut() {
            for &i in &b.insts {
                insts[i].kind.for_each_operand_mut(|v| {
                    while let Some(t) = map[*v] {
                        if t == *v {
                            break;
                        }
                        *v = t;
                    }
                });
            }
        }
    }
    fn replace_in_cf(&mut self, f: impl Fn(Value) -> Value) {
        super::visit::for_each_cond_mut(&mut self.body, &mut |c| *c = f(*c));
    }

    /// Blocks in program order (pre-order over the CF tree).
    pub fn blocks_in_order(&self) -> Vec<Block> {
        let mut out = Vec::with_capacity(self.blocks.len());
        super::visit::for_each_block(&self.body, |b| out.push(b));
        out
    }
    /// Live instructions in program order.
    pub fn insts_in_order(&self) -> Vec<Inst> {
        let mut out = Vec::with_capacity(self.insts.len());
        for b in self.blocks_in_order() {
            out.extend_from_slice(&self.blocks[b].insts);
        }
        out
    }
    /// Number of uses of each value (phi sources and if conditions included).
    pub fn use_counts(&self) -> SecondaryMap<InstData, u32> {
        let mut uses = SecondaryMap::with_len(self.insts.len(), 0u32);
        for i in self.insts_in_order() {
            self.insts[i].kind.for_each_operand(|v| uses[v] += 1);
        }
        super::visit::for_each_if_cond(&self.body, |c| uses[c] += 1);
        uses
    }
    /// Whether any loop, call or return remains (cheap structural queries for passes).
    pub fn has_calls(&self) -> bool {
        self.insts_in_order()
            .iter()
            .any(|&i| matches!(self.insts[i].kind, InstKind::Call { .. }))
    }
}

/// First block of a CF list.
pub fn first_block(list: &[CfNode]) -> Block {
    list.first()
        .and_then(CfNode::as_block)
        .expect("CF list must start with a block")
}
/// Last block of a CF list.
pub fn last_block(list: &[CfNode]) -> Block {
    list.last()
        .and_then(CfNode::as_block)
        .expect("CF list must end with a block")
}
