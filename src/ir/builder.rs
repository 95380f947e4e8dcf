//! A cursor-based builder for front-ends and passes.
//!
//! The builder appends to a *current block* and keeps a path to the CF list that holds it,
//! so structured control flow is built the way SPIR-V presents it: `push_if(c)`, then-code,
//! `push_else()`, else-code, `pop_if()`; `push_loop()`, body, `pop_loop()`. Each push adds
//! the control node *and* the block after it, keeping the list alternation invariant.
//!
//! After a jump (`jump`, `ret`) the rest of the current list is unreachable. The builder
//! then swallows instructions (they go to a detached block nobody sees) and nested pushes
//! until the matching `push_else`/`pop_*` brings it back to live code, so a front-end can
//! translate dead code after `OpReturn`/`OpBranch` to a merge without special cases.
//!
//! Result types are inferred from the op tables wherever they are determined by the sources;
//! conversions and intrinsics take their result type explicitly.

use super::ops::alu_result_type;
use super::*;

#[derive(Clone, Copy, Debug)]
enum Arm {
    Then,
    Else,
    Body,
}

/// Builds code into one function of a module.
pub struct Builder<'m> {
    pub module: &'m mut Module,
    pub func: Func,
    block: Block,
    path: Vec<(usize, Arm)>,
    dead: bool,
    dead_depth: u32,
    scratch: Option<Block>,
}

impl<'m> Builder<'m> {
    /// A builder appending to the last block of `func`'s body.
    pub fn new(module: &'m mut Module, func: Func) -> Self {
        let block = func::last_block(&module.functions[func].body);
        Builder {
            module,
            func,
            block,
            path: Vec::new(),
            dead: false,
            dead_depth: 0,
            scratch: None,
        }
    }

    #[inline]
    pub fn f(&mut self) -> &mut Function {
        &mut self.module.functions[self.func]
    }
    #[inline]
    pub fn fr(&self) -> &Function {
        &self.module.functions[self.func]
    }
    #[inline]
    pub fn types(&mut self) -> &mut TypeArena {
        &mut self.module.types
    }
    /// The block instructions are appended to.
    pub fn current_block(&self) -> Block {
        self.block
    }
    /// Whether the cursor is in unreachable code (after a jump).
    pub fn is_dead(&self) -> bool {
        self.dead
    }
    /// Type of value `v`.
    pub fn ty(&self, v: Value) -> ValType {
        self.fr().ty(v)
    }

    /// Appends an instruction at the cursor.
    pub fn push(&mut self, kind: InstKind, ty: ValType) -> Value {
        let block = if self.dead {
            match self.scratch {
                Some(b) => b,
                None => {
                    let b = self.f().new_block();
                    self.scratch = Some(b);
                    b
                }
            }
        } else {
            self.block
        };
        self.f().append(block, kind, ty)
    }

    // ---- constants ----

    /// A constant of type `ty` from raw per-component bit patterns.
    pub fn const_bits(&mut self, ty: ValType, comps: &[u64]) -> Value {
        debug_assert_eq!(comps.len(), ty.comps as usize);
        let m = ty.mask();
        self.push(InstKind::Const(comps.iter().map(|&c| c & m).collect()), ty)
    }
    pub fn const_u32(&mut self, v: u32) -> Value {
        self.const_bits(ValType::U32, &[v as u64])
    }
    pub fn const_i32(&mut self, v: i32) -> Value {
        self.const_bits(ValType::U32, &[v as u32 as u64])
    }
    pub fn const_u64(&mut self, v: u64) -> Value {
        self.const_bits(ValType::U64, &[v])
    }
    pub fn const_f32(&mut self, v: f32) -> Value {
        self.const_bits(ValType::U32, &[v.to_bits() as u64])
    }
    pub fn const_f64(&mut self, v: f64) -> Value {
        self.const_bits(ValType::U64, &[v.to_bits()])
    }
    pub fn const_bool(&mut self, v: bool) -> Value {
        self.const_bits(ValType::B1, &[v as u64])
    }
    /// An integer constant of any bit size, replicated over `ty.comps` components.
    pub fn const_int(&mut self, ty: ValType, v: u64) -> Value {
        let c: SmallVec<[u64; 4]> = (0..ty.comps).map(|_| v).collect();
        self.const_bits(ty, &c)
    }
    pub fn undef(&mut self, ty: ValType) -> Value {
        self.push(InstKind::Undef, ty)
    }

    // ---- ALU ----

    /// An ALU instruction whose result type follows from its sources.
    /// Panics on ill-typed sources (a translator bug); see [`Builder::try_alu`] for
    /// sources that come from untrusted input.
    pub fn alu(&mut self, op: AluOp, srcs: &[Value]) -> Value {
        match self.try_alu(op, srcs) {
            Some(v) => v,
            None => {
                let tys: SmallVec<[ValType; 4]> = srcs.iter().map(|&s| self.ty(s)).collect();
                panic!("ill-typed {} of {:?}", op.name(), tys)
            }
        }
    }
    /// [`Builder::alu`], or `None` (and nothing built) when the sources are ill-typed.
    pub fn try_alu(&mut self, op: AluOp, srcs: &[Value]) -> Option<Value> {
        if op.shape() == Shape::Conv {
            return None;
        }
        let tys: SmallVec<[ValType; 4]> = srcs.iter().map(|&s| self.ty(s)).collect();
        let ty = alu_result_type(op, &tys, 0).filter(|t| !t.is_none() && t.is_valid())?;
        Some(self.push(
            InstKind::Alu {
                op,
                srcs: srcs.iter().copied().collect(),
            },
            ty,
        ))
    }
    /// `bcsel` that broadcasts a scalar condition over vector operands.
    pub fn select(&mut self, cond: Value, a: Value, b: Value) -> Value {
        let n = self.ty(a).comps;
        let c = if self.ty(cond).comps == 1 && n > 1 {
            let cs: SmallVec<[Value; 4]> = (0..n).map(|_| cond).collect();
            self.alu(AluOp::Vec, &cs)
        } else {
            cond
        };
        self.alu3(AluOp::Bcsel, c, a, b)
    }
    /// SPIR-V OpVectorShuffle: component `k < |a|` picks from `a`, else from `b`.
    pub fn shuffle(&mut self, a: Value, b: Value, comps: &[u32]) -> Value {
        let na = self.ty(a).comps as u32;
        let parts: SmallVec<[Value; 4]> = comps
            .iter()
            .map(|&c| {
                if c < na {
                    self.channel(a, c as u8)
                } else {
                    self.channel(b, (c - na) as u8)
                }
            })
            .collect();
        self.vec(&parts)
    }
    /// A `barrier` intrinsic (scopes and semantics as SPIR-V encodes them).
    pub fn barrier(&mut self, exec_scope: u32, mem_scope: u32, semantics: u32, modes: u32) {
        self.intrinsic(
            Intrinsic::Barrier,
            ValType::NONE,
            &[],
            &[exec_scope, mem_scope, semantics, modes],
        );
    }
    /// A conversion to `bits` bits per component.
    pub fn conv(&mut self, op: AluOp, bits: u8, src: Value) -> Value {
        debug_assert_eq!(op.shape(), Shape::Conv);
        let ty = self.ty(src);
        self.push(
            InstKind::Alu {
                op,
                srcs: smallvec::smallvec![src],
            },
            ValType::new(bits, ty.comps),
        )
    }
    pub fn alu1(&mut self, op: AluOp, a: Value) -> Value {
        self.alu(op, &[a])
    }
    pub fn alu2(&mut self, op: AluOp, a: Value, b: Value) -> Value {
        self.alu(op, &[a, b])
    }
    pub fn alu3(&mut self, op: AluOp, a: Value, b: Value, c: Value) -> Value {
        self.alu(op, &[a, b, c])
    }
    /// Builds a vector from scalars (returns the scalar itself for one source).
    pub fn vec(&mut self, comps: &[Value]) -> Value {
        if comps.len() == 1 {
            return comps[0];
        }
        self.alu(AluOp::Vec, comps)
    }
    /// Picks components of `src`.
    pub fn swizzle(&mut self, src: Value, comps: &[u8]) -> Value {
        let ty = self.ty(src).with_comps(comps.len() as u8);
        self.push(
            InstKind::Swizzle {
                src,
                comps: comps.iter().copied().collect(),
            },
            ty,
        )
    }
    /// Component `c` of `src` (`src` itself when it is a scalar and `c == 0`).
    pub fn channel(&mut self, src: Value, c: u8) -> Value {
        if self.ty(src).comps == 1 && c == 0 {
            return src;
        }
        self.swizzle(src, &[c])
    }

    // ---- phis ----

    /// An empty phi at the head of the current block; add one source per predecessor.
    pub fn phi(&mut self, ty: ValType) -> Value {
        if self.dead {
            return self.push(InstKind::Phi(SmallVec::new()), ty);
        }
        let b = self.block;
        let f = self.f();
        let pos = f.first_non_phi(b);
        f.insert_at(b, pos, InstKind::Phi(SmallVec::new()), ty)
    }
    pub fn add_phi_src(&mut self, phi: Value, pred: Block, v: Value) {
        if let InstKind::Phi(srcs) = &mut self.f().insts[phi].kind {
            srcs.push((pred, v));
        }
    }

    // ---- derefs and memory ----

    fn deref_of(&self, v: Value) -> &Deref {
        match self.fr().kind(v) {
            InstKind::Deref(d) => d,
            k => panic!("not a deref: {:?}", k),
        }
    }
    /// Type and mode a deref value points at.
    pub fn deref_info(&self, v: Value) -> (Type, Mode) {
        let d = self.deref_of(v);
        (d.ty, d.mode)
    }
    fn push_deref(&mut self, kind: DerefKind, ty: Type, mode: Mode) -> Value {
        self.push(
            InstKind::Deref(Deref { kind, ty, mode }),
            ValType::new(mode.deref_bits(), 1),
        )
    }
    pub fn deref_var(&mut self, var: Var) -> Value {
        let v = &self.module.vars[var];
        let (ty, mode) = (v.ty, v.mode);
        self.push_deref(DerefKind::Var(var), ty, mode)
    }
    /// Element `index` of an array / column of a matrix / component of a vector.
    pub fn deref_array(&mut self, parent: Value, index: Value) -> Value {
        let (pty, mode) = self.deref_info(parent);
        let ty = self
            .module
            .types
            .element(pty)
            .expect("deref_array of a non-indexable type");
        self.push_deref(DerefKind::Array { parent, index }, ty, mode)
    }
    pub fn deref_struct(&mut self, parent: Value, member: u32) -> Value {
        let (pty, mode) = self.deref_info(parent);
        let ty = match self.module.types.kind(pty) {
            TypeKind::Struct { members } => members[member as usize].ty,
            k => panic!("deref_struct of {:?}", k),
        };
        self.push_deref(DerefKind::Struct { parent, member }, ty, mode)
    }
    pub fn deref_ptr_as_array(&mut self, parent: Value, index: Value, stride: u32) -> Value {
        let (ty, mode) = self.deref_info(parent);
        self.push_deref(
            DerefKind::PtrAsArray {
                parent,
                index,
                stride,
            },
            ty,
            mode,
        )
    }
    /// Reinterprets `parent` (a deref or a 64-bit address) as pointing at `ty` in `mode`.
    pub fn deref_cast(
        &mut self,
        parent: Value,
        ty: Type,
        mode: Mode,
        stride: u32,
        align: u32,
    ) -> Value {
        self.push_deref(
            DerefKind::Cast {
                parent,
                stride,
                align,
            },
            ty,
            mode,
        )
    }
    /// Loads the scalar/vector/pointer a deref points at.
    pub fn load(&mut self, deref: Value) -> Value {
        self.load_access(deref, 0)
    }
    pub fn load_access(&mut self, deref: Value, access: u32) -> Value {
        let (ty, _) = self.deref_info(deref);
        let vt = self
            .module
            .types
            .value_type(ty)
            .expect("load of an aggregate: split it into leaf loads");
        self.intrinsic(Intrinsic::LoadDeref, vt, &[deref], &[access])
    }
    /// Stores `value` through `deref` (all components).
    pub fn store(&mut self, deref: Value, value: Value) {
        let n = self.ty(value).comps as u32;
        let mask = if n >= 32 { u32::MAX } else { (1 << n) - 1 };
        self.intrinsic(
            Intrinsic::StoreDeref,
            ValType::NONE,
            &[deref, value],
            &[mask, 0],
        );
    }
    /// Stores the components of `value` selected by `mask`.
    pub fn store_masked(&mut self, deref: Value, value: Value, mask: u32, access: u32) {
        self.intrinsic(
            Intrinsic::StoreDeref,
            ValType::NONE,
            &[deref, value],
            &[mask, access],
        );
    }

    /// Any intrinsic. `ty` is the result type (ignored when the intrinsic has no result);
    /// `idx` gives the constant indices in the order of [`Intrinsic::indices`] (missing
    /// trailing indices are zero).
    pub fn intrinsic(&mut self, op: Intrinsic, ty: ValType, srcs: &[Value], idx: &[u32]) -> Value {
        let mut i: SmallVec<[u32; 4]> = idx.iter().copied().collect();
        i.resize(op.indices().len(), 0);
        let ty = if op.has_dest() { ty } else { ValType::NONE };
        self.push(
            InstKind::Intrinsic {
                op,
                srcs: srcs.iter().copied().collect(),
                idx: i,
            },
            ty,
        )
    }
    pub fn tex(&mut self, tex: Tex, ty: ValType) -> Value {
        self.push(InstKind::Tex(Box::new(tex)), ty)
    }
    /// Calls `func` with `args`; returns the call (its value is the return value, if any).
    pub fn call(&mut self, func: Func, args: &[Value]) -> Value {
        let ty = self.module.functions[func].ret;
        self.push(
            InstKind::Call {
                func,
                args: args.iter().copied().collect(),
            },
            ty,
        )
    }
    /// Adds a function-local variable to the function being built.
    pub fn local(&mut self, ty: Type, name: Option<&str>) -> Var {
        let mut v = Variable::new(ty, Mode::Function);
        v.name = name.map(str::to_string);
        self.module.add_local(self.func, v)
    }

    // ---- structured control flow ----

    fn list_mut(&mut self) -> &mut Vec<CfNode> {
        let path = self.path.clone();
        let mut list = &mut self.module.functions[self.func].body;
        for (k, arm) in path {
            list = match (&mut list[k], arm) {
                (CfNode::If { then_body, .. }, Arm::Then) => then_body,
                (CfNode::If { else_body, .. }, Arm::Else) => else_body,
                (CfNode::Loop { body, .. }, Arm::Body) => body,
                _ => unreachable!("builder path out of sync"),
            };
        }
        list
    }

    /// Opens `if cond`; the cursor moves to the then-arm.
    pub fn push_if(&mut self, cond: Value) {
        self.push_if_control(cond, Control::None)
    }
    pub fn push_if_control(&mut self, cond: Value, control: Control) {
        if self.dead {
            self.dead_depth += 1;
            return;
        }
        let f = self.f();
        let (t, e, m) = (f.new_block(), f.new_block(), f.new_block());
        let list = self.list_mut();
        let k = list.len();
        list.push(CfNode::If {
            cond,
            then_body: vec![CfNode::Block(t)],
            else_body: vec![CfNode::Block(e)],
            control,
        });
        list.push(CfNode::Block(m));
        self.path.push((k, Arm::Then));
        self.block = t;
    }
    /// Moves the cursor to the else-arm of the innermost open if.
    pub fn push_else(&mut self) {
        if self.dead {
            if self.dead_depth > 0 {
                return;
            }
            self.dead = false;
        }
        let (k, arm) = self.path.pop().expect("push_else outside an if");
        debug_assert!(matches!(arm, Arm::Then));
        self.path.push((k, Arm::Else));
        let b = func::last_block(self.list_mut());
        self.block = b;
    }
    /// Closes the innermost if; the cursor moves to its merge block.
    pub fn pop_if(&mut self) -> Block {
        self.pop_node()
    }
    /// Opens a loop; the cursor moves to its header block.
    pub fn push_loop(&mut self) -> Block {
        self.push_loop_control(Control::None)
    }
    pub fn push_loop_control(&mut self, control: Control) -> Block {
        if self.dead {
            self.dead_depth += 1;
            return self.block;
        }
        let f = self.f();
        let (h, after) = (f.new_block(), f.new_block());
        let list = self.list_mut();
        let k = list.len();
        list.push(CfNode::Loop {
            body: vec![CfNode::Block(h)],
            control,
        });
        list.push(CfNode::Block(after));
        self.path.push((k, Arm::Body));
        self.block = h;
        h
    }
    /// Closes the innermost loop; the cursor moves to the block after it.
    pub fn pop_loop(&mut self) -> Block {
        self.pop_node()
    }
    fn pop_node(&mut self) -> Block {
        if self.dead {
            if self.dead_depth > 0 {
                self.dead_depth -= 1;
                return self.block;
            }
            self.dead = false;
        }
        let (k, _) = self.path.pop().expect("pop without push");
        let list = self.list_mut();
        let b = list[k + 1].as_block().expect("block after control node");
        self.block = b;
        b
    }
    /// Ends the current block with `break` or `continue` (use [`Builder::ret`] to return).
    pub fn jump(&mut self, kind: JumpKind) {
        if self.dead {
            return;
        }
        self.push(InstKind::Jump(kind, None), ValType::NONE);
        self.dead = true;
        self.dead_depth = 0;
    }
    /// `return` (with a value for non-void functions).
    pub fn ret(&mut self, v: Option<Value>) {
        if self.dead {
            return;
        }
        self.push(InstKind::Jump(JumpKind::Return, v), ValType::NONE);
        self.dead = true;
        self.dead_depth = 0;
    }
}
