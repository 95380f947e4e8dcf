//! The verifier: checks every invariant listed in the [`super`] module doc.
//!
//! It runs after the parser in tests and after every pass in debug builds and tests. A
//! failure is a compiler bug (or a malformed hand-written filetest), reported as a
//! [`VerifyError`] naming the function and printing the offending instruction.

use super::ops::alu_result_type;
use super::*;
use std::fmt;

/// A broken IR invariant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerifyError {
    pub func: String,
    /// The offending instruction, printed (empty for structural errors).
    pub inst: String,
    pub msg: String,
}

impl fmt::Display for VerifyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.inst.is_empty() {
            write!(f, "in fn {}: {}", self.func, self.msg)
        } else {
            write!(f, "in fn {}: `{}`: {}", self.func, self.inst, self.msg)
        }
    }
}
impl std::error::Error for VerifyError {}

/// Verifies the whole module.
pub fn verify_module(m: &Module) -> Result<(), VerifyError> {
    let merr = |msg: String| VerifyError {
        func: String::new(),
        inst: String::new(),
        msg,
    };
    for &g in &m.globals {
        if !m.vars.contains(g) || m.vars[g].mode == Mode::Function {
            return Err(merr(format!(
                "global {:?} is not a non-function variable",
                g
            )));
        }
        if !m.types.contains(m.vars[g].ty) {
            return Err(merr("variable with an unknown type".into()));
        }
    }
    if let Some(e) = m.entry {
        if !m.functions.contains(e) {
            return Err(merr("entry is not a function".into()));
        }
    }
    if m.stage == Stage::Compute && !valid_workgroup_size(m.local_size) {
        return Err(merr(format!(
            "workgroup size {:?}: each size must be >= 1 and the product <= {MAX_WORKGROUP_INVOCATIONS}",
            m.local_size
        )));
    }
    for (_, f) in m.functions.iter() {
        Verifier {
            m,
            f,
            cfg: None,
            pos: SecondaryMap::new(u32::MAX),
            seen_block: SecondaryMap::new(false),
            local: SecondaryMap::new(false),
        }
        .run()?;
    }
    Ok(())
}

struct Verifier<'a> {
    m: &'a Module,
    f: &'a Function,
    cfg: Option<std::sync::Arc<Cfg>>,
    /// Position of each live instruction within its block.
    pos: SecondaryMap<InstData, u32>,
    seen_block: SecondaryMap<BlockData, bool>,
    /// The function's locals (a deref of a function variable must name one).
    local: SecondaryMap<Variable, bool>,
}

impl<'a> Verifier<'a> {
    fn err(&self, i: Option<Inst>, msg: impl Into<String>) -> VerifyError {
        VerifyError {
            func: self.f.name.clone(),
            inst: i
                .map(|i| print::describe(self.m, self.f, i))
                .unwrap_or_default(),
            msg: msg.into(),
        }
    }

    fn run(mut self) -> Result<(), VerifyError> {
        let f = self.f;
        for &l in &f.locals {
            if !self.m.vars.contains(l) || self.m.vars[l].mode != Mode::Function {
                return Err(self.err(None, "local that is not a function variable"));
            }
            self.local[l] = true;
        }
        self.list(&f.body, 0)?;
        // Block membership.
        for b in f.blocks_in_order() {
            for (k, &i) in f.blocks[b].insts.iter().enumerate() {
                if !f.insts.contains(i) {
                    return Err(self.err(None, format!("{:?} holds an unknown instruction", b)));
                }
                if f.insts[i].block != Some(b) {
                    return Err(
                        self.err(Some(i), "instruction's block field disagrees with its list")
                    );
                }
                if self.pos[i] != u32::MAX {
                    return Err(self.err(Some(i), "instruction appears twice"));
                }
                self.pos[i] = k as u32;
            }
        }
        self.cfg = Some(Cfg::of(f));
        for b in f.blocks_in_order() {
            let insts = &f.blocks[b].insts;
            let mut phis_done = false;
            for (k, &i) in insts.iter().enumerate() {
                let d = &f.insts[i];
                if d.kind.is_phi() {
                    if phis_done {
                        return Err(self.err(Some(i), "phi after a non-phi instruction"));
                    }
                } else {
                    phis_done = true;
                }
                if d.kind.is_jump() && k + 1 != insts.len() {
                    return Err(self.err(Some(i), "jump is not the last instruction of its block"));
                }
                self.inst(b, i)?;
            }
        }
        self.if_conds(&f.body)?;
        Ok(())
    }

    fn list(&mut self, list: &[CfNode], loop_depth: u32) -> Result<(), VerifyError> {
        if list.is_empty() {
            return Err(self.err(None, "empty CF list"));
        }
        for (k, n) in list.iter().enumerate() {
            let want_block = k % 2 == 0;
            if want_block != matches!(n, CfNode::Block(_)) {
                return Err(self.err(
                    None,
                    "CF list must alternate blocks and if/loop nodes, starting with a block",
                ));
            }
            match n {
                CfNode::Block(b) => {
                    if !self.f.blocks.contains(*b) {
                        return Err(self.err(None, "unknown block in CF tree"));
                    }
                    if self.seen_block[*b] {
                        return Err(self.err(None, format!("{:?} appears twice in the CF tree", b)));
                    }
                    self.seen_block[*b] = true;
                    if let Some((kind, j)) = self.f.block_jump(*b) {
                        if k + 1 != list.len() {
                            return Err(
                                self.err(Some(j), "a block ending in a jump must end its CF list")
                            );
                        }
                        if kind != JumpKind::Return && loop_depth == 0 {
                            return Err(self.err(Some(j), "break/continue outside a loop"));
                        }
                    }
                }
                CfNode::If {
                    cond,
                    then_body,
                    else_body,
                    ..
                } => {
                    if !self.f.insts.contains(*cond) {
                        return Err(self.err(None, "if condition is not a value"));
                    }
                    self.list(then_body, loop_depth)?;
                    self.list(else_body, loop_depth)?;
                }
                CfNode::Loop { body, .. } => self.list(body, loop_depth + 1)?,
            }
        }
        if list.len() % 2 == 0 {
            return Err(self.err(None, "CF list must end with a block"));
        }
        Ok(())
    }

    /// If conditions must be 1x1 values available at the end of the block before the if.
    fn if_conds(&self, list: &[CfNode]) -> Result<(), VerifyError> {
        for (k, n) in list.iter().enumerate() {
            match n {
                CfNode::Block(_) => {}
                CfNode::If {
                    cond,
                    then_body,
                    else_body,
                    ..
                } => {
                    let pred = list[k - 1].as_block().expect("checked alternation");
                    let t = self.avail(*cond, *cond, pred, None)?;
                    if t != ValType::B1 {
                        return Err(self.err(Some(*cond), "if condition must be 1x1"));
                    }
                    self.if_conds(then_body)?;
                    self.if_conds(else_body)?;
                }
                CfNode::Loop { body, .. } => self.if_conds(body)?,
            }
        }
        Ok(())
    }

    fn cfg(&self) -> &Cfg {
        self.cfg.as_ref().unwrap()
    }

    /// Checks that `v` is a live value available at the start of instruction `at` (in
    /// block `b`), or at the end of block `b` when `at` is None.
    fn avail(
        &self,
        user: Inst,
        v: Value,
        b: Block,
        at: Option<Inst>,
    ) -> Result<ValType, VerifyError> {
        let f = self.f;
        if !f.insts.contains(v) {
            return Err(self.err(Some(user), "operand is not an instruction"));
        }
        let d = &f.insts[v];
        let Some(db) = d.block else {
            return Err(self.err(Some(user), format!("operand {:?} was removed", v)));
        };
        if d.ty.is_none() {
            return Err(self.err(Some(user), "operand has no value"));
        }
        let cfg = self.cfg();
        if !cfg.reachable[b] {
            return Ok(d.ty);
        }
        let ok = if db == b {
            match at {
                Some(at) => self.pos[v] < self.pos[at],
                None => true,
            }
        } else {
            cfg.dominates(db, b)
        };
        if !ok {
            return Err(self.err(
                Some(user),
                format!(
                    "operand `{}` does not dominate this use",
                    print::describe(self.m, f, v)
                ),
            ));
        }
        Ok(d.ty)
    }

    fn inst(&self, b: Block, i: Inst) -> Result<(), VerifyError> {
        let f = self.f;
        let d = &f.insts[i];
        let ty = d.ty;
        if !ty.is_none() && !ty.is_valid() {
            return Err(self.err(Some(i), format!("invalid value type {}", ty)));
        }
        let e = |msg: &str| self.err(Some(i), msg.to_string());
        // Operand availability (phis checked against predecessors below).
        let mut tys: SmallVec<[ValType; 4]> = SmallVec::new();
        if !d.kind.is_phi() {
            let mut res = Ok(());
            d.kind.for_each_operand(|v| {
                if res.is_ok() {
                    match self.avail(i, v, b, Some(i)) {
                        Ok(t) => tys.push(t),
                        Err(er) => res = Err(er),
                    }
                }
            });
            res?;
        }
        match &d.kind {
            InstKind::Const(c) => {
                if c.len() != ty.comps as usize {
                    return Err(e("constant component count differs from its type"));
                }
                if c.iter().any(|&x| x & !ty.mask() != 0) {
                    return Err(e("constant has bits above its bit size"));
                }
            }
            InstKind::Undef => {
                if ty.is_none() {
                    return Err(e("undef without a type"));
                }
            }
            InstKind::Alu { op, srcs } => {
                if op.num_srcs() != 0 && srcs.len() != op.num_srcs() {
                    return Err(e("wrong number of sources"));
                }
                match alu_result_type(*op, &tys, ty.bits) {
                    Some(t) if t == ty => {}
                    Some(t) => {
                        return Err(e(&format!("result type should be {}", t)));
                    }
                    None => return Err(e("ill-typed sources")),
                }
            }
            InstKind::Swizzle { comps, .. } => {
                let st = tys[0];
                if st.bits != ty.bits
                    || comps.len() != ty.comps as usize
                    || comps.iter().any(|&c| c >= st.comps)
                {
                    return Err(e("swizzle out of range or mistyped"));
                }
            }
            InstKind::Phi(srcs) => {
                let cfg = self.cfg();
                let preds = &cfg.preds[b];
                // One source per reachable predecessor; sources from unreachable
                // predecessors may be present or not; nothing else.
                let from_non_pred = srcs.iter().any(|s| !preds.contains(&s.0));
                let dup = srcs
                    .iter()
                    .enumerate()
                    .any(|(k, s)| srcs[..k].iter().any(|t| t.0 == s.0));
                let missing = preds
                    .iter()
                    .any(|p| cfg.reachable[*p] && !srcs.iter().any(|s| s.0 == *p));
                if cfg.reachable[b] && (from_non_pred || dup || missing) {
                    return Err(e(&format!(
                        "phi sources must match the predecessors ({} of them)",
                        preds.len()
                    )));
                }
                for &(p, v) in srcs {
                    let t = self.avail(i, v, p, None)?;
                    if t != ty {
                        return Err(e("phi source type differs from the phi"));
                    }
                }
            }
            InstKind::Deref(dr) => self.deref(i, dr, &tys)?,
            InstKind::Intrinsic { op, srcs, idx } => {
                if srcs.len() != op.num_srcs() {
                    return Err(e(&format!("{} takes {} sources", op.name(), op.num_srcs())));
                }
                if idx.len() != op.indices().len() {
                    return Err(e("wrong number of indices"));
                }
                if op.has_dest() == ty.is_none() {
                    return Err(e("result presence does not match the intrinsic"));
                }
                self.intrinsic(i, *op, srcs, &tys)?;
            }
            InstKind::Tex(t) => {
                if t.src(TexSrc::Texture).is_none() {
                    return Err(e("tex without a texture source"));
                }
                if ty.is_none() {
                    return Err(e("tex without a result"));
                }
                if t.sparse && (ty.bits != 32 || ty.comps < 2) {
                    return Err(e(
                        "a sparse tex returns 32-bit texel components and a residency code",
                    ));
                }
            }
            InstKind::Call { func, args } => {
                if !self.m.functions.contains(*func) {
                    return Err(e("call of an unknown function"));
                }
                let callee = &self.m.functions[*func];
                if callee.params.len() != args.len()
                    || callee.params.iter().zip(tys.iter()).any(|(a, b)| a != b)
                {
                    return Err(e("call arguments do not match the parameters"));
                }
                if callee.ret != ty {
                    return Err(e("call result type differs from the callee's return type"));
                }
            }
            InstKind::Jump(k, v) => {
                if *k == JumpKind::Return {
                    let rt = v.map(|_| tys[0]).unwrap_or(ValType::NONE);
                    if rt != f.ret {
                        return Err(e("returned value does not match the function"));
                    }
                } else if v.is_some() {
                    return Err(e("break/continue carry no value"));
                }
            }
        }
        Ok(())
    }

    fn deref_parent(&self, i: Inst, p: Value) -> Result<&'a Deref, VerifyError> {
        match &self.f.insts[p].kind {
            InstKind::Deref(d) => Ok(d),
            _ => Err(self.err(Some(i), "deref parent is not a deref")),
        }
    }

    fn deref(&self, i: Inst, dr: &Deref, tys: &[ValType]) -> Result<(), VerifyError> {
        let e = |msg: &str| self.err(Some(i), msg.to_string());
        let types = &self.m.types;
        if !types.contains(dr.ty) {
            return Err(e("deref of an unknown type"));
        }
        if self.f.insts[i].ty != ValType::new(dr.mode.deref_bits(), 1) {
            return Err(e("deref value type must be 32x1 (64x1 for global)"));
        }
        let is_int_index = |t: ValType| t.comps == 1 && t.bits >= 8;
        match dr.kind {
            DerefKind::Var(v) => {
                if !self.m.vars.contains(v) {
                    return Err(e("unknown variable"));
                }
                let var = &self.m.vars[v];
                if var.ty != dr.ty || var.mode != dr.mode {
                    return Err(e("deref_var type/mode differs from the variable's"));
                }
                if var.mode == Mode::Function && !self.local[v] {
                    return Err(e("function variable of another function"));
                }
            }
            DerefKind::Array { parent, .. } => {
                let p = self.deref_parent(i, parent)?;
                if p.mode != dr.mode {
                    return Err(e("deref changes mode without a cast"));
                }
                if !is_int_index(tys[1]) {
                    return Err(e("array index must be a scalar integer"));
                }
                let want = match types.kind(p.ty) {
                    TypeKind::Array { elem, .. } => Some(*elem),
                    TypeKind::Matrix {
                        column,
                        row_major,
                        stride,
                        ..
                    } => {
                        if *row_major {
                            types
                                .as_vector(*column)
                                .map(|(s, n)| (s, n, *stride))
                                .and_then(|(s, n, st)| types_lookup_vec(types, s, n, st))
                        } else {
                            Some(*column)
                        }
                    }
                    TypeKind::Vector { scalar, .. } => types_lookup_scalar(types, *scalar),
                    _ => return Err(e("deref_array of a non-indexable type")),
                };
                if want != Some(dr.ty) {
                    return Err(e("deref_array result type is not the element type"));
                }
            }
            DerefKind::Struct { parent, member } => {
                let p = self.deref_parent(i, parent)?;
                if p.mode != dr.mode {
                    return Err(e("deref changes mode without a cast"));
                }
                match types.kind(p.ty) {
                    TypeKind::Struct { members } => match members.get(member as usize) {
                        Some(mm) if mm.ty == dr.ty => {}
                        Some(_) => {
                            return Err(e("deref_struct result type is not the member type"))
                        }
                        None => return Err(e("struct member out of range")),
                    },
                    _ => return Err(e("deref_struct of a non-struct")),
                }
            }
            DerefKind::PtrAsArray { parent, .. } => {
                let p = self.deref_parent(i, parent)?;
                if p.mode != dr.mode || p.ty != dr.ty {
                    return Err(e("deref_ptr_as_array must keep type and mode"));
                }
                if !is_int_index(tys[1]) {
                    return Err(e("index must be a scalar integer"));
                }
            }
            DerefKind::Cast { parent, .. } => {
                let is_deref = matches!(self.f.insts[parent].kind, InstKind::Deref(_));
                if !is_deref && tys[0] != ValType::U64 && tys[0] != ValType::U32 {
                    return Err(e(
                        "deref_cast of something that is neither a deref nor an address",
                    ));
                }
            }
        }
        Ok(())
    }

    fn intrinsic(
        &self,
        i: Inst,
        op: Intrinsic,
        srcs: &[Value],
        tys: &[ValType],
    ) -> Result<(), VerifyError> {
        let e = |msg: &str| self.err(Some(i), msg.to_string());
        let ty = self.f.insts[i].ty;
        let deref_ty = |k: usize| -> Option<Type> {
            match &self.f.insts[srcs[k]].kind {
                InstKind::Deref(d) => Some(d.ty),
                _ => None,
            }
        };
        match op {
            Intrinsic::LoadDeref | Intrinsic::StoreDeref => {
                let Some(t) = deref_ty(0) else {
                    return Err(e("first source must be a deref"));
                };
                let Some(vt) = self.m.types.value_type(t) else {
                    return Err(e("load/store of an aggregate (split it into leaves)"));
                };
                let have = if op == Intrinsic::LoadDeref {
                    ty
                } else {
                    tys[1]
                };
                if have != vt {
                    return Err(e(&format!("value type should be {}", vt)));
                }
            }
            Intrinsic::DerefAtomic
            | Intrinsic::DerefAtomicSwap
            | Intrinsic::ArrayLengthDeref
            | Intrinsic::InterpDerefAtCentroid
            | Intrinsic::InterpDerefAtSample
            | Intrinsic::InterpDerefAtOffset
            | Intrinsic::ImageDerefLoad
            | Intrinsic::ImageDerefStore
            | Intrinsic::ImageDerefAtomic
            | Intrinsic::ImageDerefAtomicSwap
            | Intrinsic::ImageDerefSize
            | Intrinsic::ImageDerefSamples => {
                if deref_ty(0).is_none() {
                    return Err(e("first source must be a deref"));
                }
            }
            Intrinsic::LoadDescriptor => {
                let desc = match &self.f.insts[i].kind {
                    InstKind::Intrinsic { idx, .. } => idx.get(2).copied(),
                    _ => None,
                };
                let want = desc
                    .and_then(|d| Descriptor::ALL.get(d as usize))
                    .map(|d| ValType::new(32, d.dwords()));
                if want != Some(ty) {
                    return Err(e("a descriptor is 32-bit × its dwords (T# 8, S#/view 4)"));
                }
            }
            _ if system_value_shape(op).is_some() => {
                let (bits, comps) = system_value_shape(op).unwrap_or((0, 0..=0));
                if ty.bits != bits || !comps.contains(&ty.comps) {
                    return Err(e(&format!(
                        "{} is {bits}-bit × {}..={} (as its SPIR-V built-in)",
                        op.name(),
                        comps.start(),
                        comps.end()
                    )));
                }
            }
            Intrinsic::DiscardIf
            | Intrinsic::DemoteIf
            | Intrinsic::VoteAll
            | Intrinsic::VoteAny
            | Intrinsic::Ballot => {
                if tys[0] != ValType::B1 {
                    return Err(e("condition must be 1x1"));
                }
            }
            _ => {}
        }
        Ok(())
    }
}

/// The result shape of a system-value intrinsic: its bit size and the component counts
/// a load of it may have — the SPIR-V built-in's type, or a prefix of a vector built-in
/// where selection produces components one by one (`None`: not a system value).
fn system_value_shape(op: Intrinsic) -> Option<(u8, std::ops::RangeInclusive<u8>)> {
    use Intrinsic as I;
    Some(match op {
        I::LoadLocalInvocationId
        | I::LoadWorkgroupId
        | I::LoadGlobalInvocationId
        | I::LoadNumWorkgroups => (32, 1..=3),
        I::LoadSubgroupEqMask
        | I::LoadSubgroupGeMask
        | I::LoadSubgroupGtMask
        | I::LoadSubgroupLeMask
        | I::LoadSubgroupLtMask => (32, 1..=4),
        I::LoadFragCoord => (32, 4..=4),
        I::LoadBaryCoord | I::LoadBaryCoordNoPersp => (32, 3..=3),
        I::LoadPointCoord | I::LoadSamplePos => (32, 2..=2),
        I::LoadFrontFace | I::LoadHelperInvocation => (1, 1..=1),
        I::LoadLocalInvocationIndex
        | I::LoadSubgroupInvocation
        | I::LoadSubgroupSize
        | I::LoadSubgroupId
        | I::LoadNumSubgroups
        | I::LoadVertexIndex
        | I::LoadInstanceIndex
        | I::LoadBaseVertex
        | I::LoadBaseInstance
        | I::LoadDrawId
        | I::LoadViewIndex
        | I::LoadSampleId
        | I::LoadSampleMaskIn
        | I::LoadShadingRate
        | I::LoadLayerId
        | I::LoadViewportIndex
        | I::LoadPrimitiveId => (32, 1..=1),
        _ => return None,
    })
}

fn types_lookup_scalar(types: &TypeArena, s: Scalar) -> Option<Type> {
    find_type(types, &TypeKind::Scalar(s))
}

fn types_lookup_vec(types: &TypeArena, s: Scalar, n: u8, stride: u32) -> Option<Type> {
    find_type(
        types,
        &TypeKind::Vector {
            scalar: s,
            len: n,
            stride,
        },
    )
}

fn find_type(types: &TypeArena, k: &TypeKind) -> Option<Type> {
    types.lookup(k)
}
