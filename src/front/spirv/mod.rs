//! SPIR-V → IR.
//!
//! # Pipeline
//! 1. [`parse`]: header and instruction framing checked, operands decoded by rspirv, every
//!    instruction tagged with its word offset.
//! 2. [`module`]: capabilities and extensions checked against what gcnc supports,
//!    decorations, types (→ interned IR types with layout), constants and specialization
//!    constants (folded with the caller's [`Options::spec`]), function shapes.
//! 3. The entry point's function is translated into one IR function. Calls are inlined here
//!    (pointer arguments — `inout` parameters — simply alias the caller's derefs); `OpPhi`
//!    goes through function variables that `mem2reg` turns back into phis; structured
//!    control flow becomes the IR's if/loop tree ([`cf`]).
//! 4. The result is verified; a verifier failure is reported as `ErrorKind::Internal`.
//!
//! Every use of an id is checked against SPIR-V's dominance rule as it is translated
//! ([`dom`]): the block defining it must dominate the using block (for an `OpPhi` value,
//! the parent block it comes from). A violation is a `BadId` error at the using
//! instruction, so invalid input never reaches the IR verifier as an internal error.
//!
//! # Values
//! A SPIR-V id maps to a [`Val`]: an SSA value for scalars and vectors, a tree for
//! composites (structs, arrays, matrices as columns), a deref for pointers, images and
//! samplers (an image "value" is its deref, as in NIR). Input/output blocks with built-in
//! members are split into one IR variable per member (Mesa does the same), so every
//! built-in is a variable of its own.
//!
//! # Errors
//! Nothing here indexes with an id or a literal before checking it; wrong operands, types
//! or ids are [`Error`]s at the instruction's word offset.

mod alu_map;
mod cf;
mod dom;
mod glsl;
mod image;
mod inst;
mod module;
mod parse;
mod spec_values;
mod subgroup;

use super::{Error, ErrorKind};
use crate::ir::{
    self, Builder, Mode, Module, Stage, Type, TypeKind, ValType, Value, Var, Variable,
};
use module::{CVal, Def, SType, Spv};
use parse::Inst;
use rspirv::spirv::{self, Decoration, ExecutionModel, StorageClass};
use std::collections::BTreeMap;

pub use parse::MAGIC;
pub use spec_values::{parse_spec_arg, parse_value, spec_constants, SpecType, SpecValueError};

/// Translation options.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Entry point name (default: the only / first supported entry point).
    pub entry: Option<String>,
    /// Specialization constant values by SpecId, as raw bit patterns (low bits used).
    pub spec: BTreeMap<u32, u64>,
    /// Stage of the entry point (SPIR-V allows one name for entry points of several
    /// stages); `None`: any.
    pub stage: Option<Stage>,
}

/// Reads a SPIR-V binary given as bytes (little-endian words).
pub fn words_from_bytes(bytes: &[u8]) -> Result<Vec<u32>, Error> {
    if bytes.len() % 4 != 0 {
        return Err(Error::new(
            bytes.len() / 4,
            None,
            ErrorKind::Malformed,
            "size is not a multiple of 4 bytes",
        ));
    }
    Ok(bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect())
}

/// Translates the SPIR-V module `words` into IR for one entry point.
pub fn translate(words: &[u32], opts: &Options) -> Result<Module, Error> {
    translate_unlinked(words, opts, &std::collections::BTreeSet::new())
}

/// [`translate`] for an unlinked compile: the specialization constants whose SpecId is in
/// `late` keep no value; function bodies read them with `load_spec_constant` (the backend
/// emits a relocated literal). A late constant the translation needs now (an array length,
/// the local size, another constant built from it, a literal operand) is an
/// `ErrorKind::NeedsWholePipeline` error.
pub fn translate_unlinked(
    words: &[u32],
    opts: &Options,
    late: &std::collections::BTreeSet<u32>,
) -> Result<Module, Error> {
    let parsed = parse::parse(words)?;
    let mut types = ir::TypeArena::new();
    let mut spv = Spv::build(parsed.insts, parsed.bound, opts, &mut types)?;
    spv.mark_late(late)?;
    let ep = pick_entry(&spv, opts)?;
    let ei = &spv.insts[ep.inst];
    let stage = match ep.model {
        ExecutionModel::GLCompute => Stage::Compute,
        ExecutionModel::Vertex => Stage::Vertex,
        ExecutionModel::Fragment => Stage::Fragment,
        m => return Err(ei.err(ErrorKind::Unsupported, format!("execution model {:?}", m))),
    };
    let mut m = Module::new(stage);
    m.types = types;
    exec_modes(&spv, &ep, &mut m)?;
    let func = spv
        .funcs
        .get(&ep.func)
        .ok_or_else(|| module::bad_id(ei, ep.func, "a function"))?
        .clone();
    let f = m.add_function(&ep.name, vec![], ValType::NONE);
    m.entry = Some(f);
    {
        let b = Builder::new(&mut m, f);
        let mut fx = Fx::new(&spv, b);
        fx.entry_prologue(&ep)?;
        fx.inline_function(&func, &[], true)?;
    }
    ir::verify_module(&m).map_err(|e| {
        Error::new(
            ei.off,
            Some("EntryPoint"),
            ErrorKind::Internal,
            format!("translated IR fails verification: {}", e),
        )
    })?;
    Ok(m)
}

#[derive(Clone)]
struct EntryRef {
    inst: usize,
    model: ExecutionModel,
    func: u32,
    name: String,
    interface: Vec<u32>,
}

fn pick_entry(spv: &Spv, opts: &Options) -> Result<EntryRef, Error> {
    let supported = |m: ExecutionModel| {
        matches!(
            m,
            ExecutionModel::GLCompute | ExecutionModel::Vertex | ExecutionModel::Fragment
        )
    };
    let stage_ok = |m: ExecutionModel| match opts.stage {
        None => true,
        Some(Stage::Compute) => m == ExecutionModel::GLCompute,
        Some(Stage::Vertex) => m == ExecutionModel::Vertex,
        Some(Stage::Fragment) => m == ExecutionModel::Fragment,
    };
    let e = match &opts.entry {
        Some(n) => spv
            .entries
            .iter()
            .find(|e| &e.name == n && stage_ok(e.model))
            .ok_or_else(|| {
                Error::new(
                    0,
                    None,
                    ErrorKind::NoEntryPoint,
                    format!("no entry point named {:?}{}", n, stage_note(opts.stage)),
                )
            })?,
        None => spv
            .entries
            .iter()
            .find(|e| supported(e.model) && stage_ok(e.model))
            .or_else(|| spv.entries.iter().find(|e| stage_ok(e.model)))
            .ok_or_else(|| {
                Error::new(
                    0,
                    None,
                    ErrorKind::NoEntryPoint,
                    format!("module has no entry point{}", stage_note(opts.stage)),
                )
            })?,
    };
    Ok(EntryRef {
        inst: e.inst,
        model: e.model,
        func: e.func,
        name: e.name.clone(),
        interface: e.interface.clone(),
    })
}

fn stage_note(s: Option<Stage>) -> String {
    s.map(|s| format!(" for the {} stage", s.name()))
        .unwrap_or_default()
}

fn exec_modes(spv: &Spv, ep: &EntryRef, m: &mut Module) -> Result<(), Error> {
    use crate::ir::ExecFlags as F;
    use spirv::ExecutionMode as E;
    let Some(modes) = spv.modes.get(&ep.func) else {
        return Ok(());
    };
    for (mode, args, k) in modes {
        let i = &spv.insts[*k];
        match mode {
            E::LocalSize => {
                if args.len() != 3 || args.iter().any(|&a| a == 0) {
                    return Err(i.err(
                        ErrorKind::BadOperands,
                        "LocalSize needs three non-zero sizes",
                    ));
                }
                m.local_size = [args[0], args[1], args[2]];
            }
            E::LocalSizeId => {
                if args.len() != 3 {
                    return Err(i.err(ErrorKind::BadOperands, "LocalSizeId needs three ids"));
                }
                for (d, &id) in args.iter().enumerate() {
                    let v = spv.const_u64(i, id)? as u32;
                    if v == 0 {
                        return Err(i.err(ErrorKind::BadOperands, "zero workgroup size"));
                    }
                    m.local_size[d] = v;
                }
            }
            E::OriginUpperLeft => m.exec_flags |= F::ORIGIN_UPPER_LEFT,
            E::OriginLowerLeft => {
                return Err(i.err(
                    ErrorKind::Unsupported,
                    "OriginLowerLeft is not allowed in Vulkan",
                ))
            }
            E::EarlyFragmentTests => m.exec_flags |= F::EARLY_FRAGMENT_TESTS,
            E::DepthReplacing => m.exec_flags |= F::DEPTH_REPLACING,
            E::DepthGreater => m.exec_flags |= F::DEPTH_GREATER,
            E::DepthLess => m.exec_flags |= F::DEPTH_LESS,
            E::DepthUnchanged => m.exec_flags |= F::DEPTH_UNCHANGED,
            E::PixelCenterInteger => m.exec_flags |= F::PIXEL_CENTER_INTEGER,
            E::DerivativeGroupQuadsNV => m.exec_flags |= F::DERIVATIVE_GROUP_QUADS,
            E::DerivativeGroupLinearNV => m.exec_flags |= F::DERIVATIVE_GROUP_LINEAR,
            E::LocalSizeHint | E::SubgroupUniformControlFlowKHR => {}
            other => {
                return Err(i.err(
                    ErrorKind::Unsupported,
                    format!("execution mode {:?}", other),
                ))
            }
        }
    }
    // The WorkgroupSize built-in constant overrides LocalSize (it may be specialized).
    for id in 0..spv.bound {
        if let Some(b) = spv.deco(id, Decoration::BuiltIn) {
            if b.first() == Some(&(spirv::BuiltIn::WorkgroupSize as u32)) {
                if let Some((CVal::C(v), _)) = spv.constant(id) {
                    for (d, c) in v.iter().take(3).enumerate() {
                        if let CVal::S(x) = c {
                            m.local_size[d] = (*x as u32).max(1);
                        }
                    }
                }
            }
        }
    }
    // checked here, where the entry point can be blamed
    if m.stage == Stage::Compute && !ir::valid_workgroup_size(m.local_size) {
        return Err(spv.insts[ep.inst].err(
            ErrorKind::Unsupported,
            format!(
                "workgroup size {:?} exceeds {} invocations",
                m.local_size,
                ir::MAX_WORKGROUP_INVOCATIONS
            ),
        ));
    }
    Ok(())
}

/// A translated SPIR-V value.
#[derive(Clone, Debug)]
pub(crate) enum Val {
    /// A scalar or vector (or a 64-bit physical pointer as data).
    V(Value),
    /// A composite: struct members, array elements or matrix columns.
    C(Vec<Val>),
    /// A pointer, image or sampler: the deref.
    Ptr(Value),
    /// A pointer to an interface block split into one variable per member.
    Split(Vec<Var>),
    /// A combined image and sampler (OpSampledImage).
    Sampled { image: Value, sampler: Value },
    /// A texel pointer (OpImageTexelPointer).
    Texel {
        image: Value,
        coord: Value,
        sample: Value,
    },
}

/// A global variable: one IR variable, or one per member of a split interface block.
#[derive(Clone, Debug)]
enum GVal {
    Var(Var),
    Split(Vec<Var>),
}

/// A structured construct being translated (see [`cf`]).
#[derive(Clone, Debug)]
pub(crate) enum Cons {
    Loop {
        header: u32,
        merge: u32,
        cont: u32,
        esc: Vec<u32>,
    },
    Switch {
        merge: u32,
        esc: Vec<u32>,
        /// A break to the merge was translated (the merge is reachable).
        reached: bool,
    },
    /// An inlined function. `wrapped`: translated inside a one-trip loop (returns break).
    Func {
        wrapped: bool,
        entry: bool,
        ret_var: Option<Var>,
        ret_val: Option<Val>,
        /// What the translated returns returned (see [`RetConst`]).
        ret_const: RetConst,
        esc: Vec<u32>,
    },
}

/// The returns of an inlined call translated so far: none yet, all the same scalar
/// constant (its bits), or anything else. A call whose every return gives one constant has
/// that constant as its result, so a branch or switch on it translates only the arm taken
/// (`cf`'s constant-condition pruning; `dxvk_mipgen` switches on such a call's result in
/// every pixel accessor).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RetConst {
    None,
    Const(u64),
    Varies,
}

impl RetConst {
    /// Folds in one more return of `c` (`None`: not a scalar constant).
    fn with(self, c: Option<u64>) -> RetConst {
        match (self, c) {
            (RetConst::None, Some(c)) => RetConst::Const(c),
            (RetConst::Const(a), Some(c)) if a == c => self,
            _ => RetConst::Varies,
        }
    }
}

/// The function translator: SPIR-V facts, the IR builder and the id → value map.
pub(crate) struct Fx<'a, 'm> {
    spv: &'a Spv,
    b: Builder<'m>,
    vals: Vec<Option<Val>>,
    globals: BTreeMap<u32, GVal>,
    phi_vars: BTreeMap<u32, Var>,
    cons: Vec<Cons>,
    call_stack: Vec<u32>,
    esc_var: Option<Var>,
    if_depth: u32,
    depth: u32,
    budget: usize,
    /// The SPIR-V block being translated (0 outside function bodies).
    cur_block: u32,
    /// Per id: the block that defined it (0: not defined in a block, e.g. a parameter).
    def_block: Vec<u32>,
    /// Per block id: how many times a walk stopped at it (reached a selection's merge).
    stop_hits: Vec<u32>,
    /// Dominators of the functions translated so far; `dom_index[function id]` is 1 +
    /// the index of the function's (0: not computed yet).
    doms: Vec<dom::Dominators>,
    dom_index: Vec<u32>,
    /// Per block label, once its function's dominators are computed: the function's id
    /// and the block's position for [`dom::Dominators::dominates`] (0: unreachable).
    block_fn: Vec<u32>,
    block_pos: Vec<u32>,
}

impl<'a, 'm> Fx<'a, 'm> {
    fn new(spv: &'a Spv, b: Builder<'m>) -> Self {
        let n = spv.bound as usize;
        Fx {
            spv,
            b,
            vals: vec![None; n],
            globals: BTreeMap::new(),
            phi_vars: BTreeMap::new(),
            cons: Vec::new(),
            call_stack: Vec::new(),
            esc_var: None,
            if_depth: 0,
            depth: 0,
            budget: 200_000 + 64 * spv.insts.len(),
            cur_block: 0,
            def_block: vec![0; n],
            stop_hits: vec![0; n],
            doms: Vec::new(),
            dom_index: vec![0; n],
            block_fn: vec![0; n],
            block_pos: vec![0; n],
        }
    }

    fn types(&mut self) -> &mut ir::TypeArena {
        &mut self.b.module.types
    }

    /// Creates the entry point's interface variables and initialized globals up front, so
    /// the IR lists them (and initializers run first).
    fn entry_prologue(&mut self, ep: &EntryRef) -> Result<(), Error> {
        let i = &self.spv.insts[ep.inst];
        for &id in &ep.interface {
            if !matches!(self.spv.def(id), Def::Global { .. }) {
                return Err(module::bad_id(i, id, "a global variable"));
            }
            self.ensure_global(id)?;
        }
        for id in self.spv.globals.clone() {
            if let Def::Global { inst, .. } = self.spv.def(id) {
                if self.spv.insts[*inst].ops.len() > 1 {
                    self.ensure_global(id)?;
                }
            }
        }
        Ok(())
    }

    /// The value of a global variable, creating the IR variable on first use.
    fn global(&mut self, id: u32) -> Result<Val, Error> {
        let g = self.ensure_global(id)?;
        Ok(self.materialize_global(g))
    }

    /// The IR variable(s) of a global, created (and initialized) on first use.
    fn ensure_global(&mut self, id: u32) -> Result<GVal, Error> {
        if let Some(v) = self.globals.get(&id) {
            return Ok(v.clone());
        }
        if !matches!(self.spv.def(id), Def::Global { .. }) {
            return Err(Error::new(
                0,
                None,
                ErrorKind::BadId,
                format!("%{} is not a global variable", id),
            ));
        }
        let Def::Global { ty, inst } = self.spv.def(id).clone() else {
            unreachable!()
        };
        let i = &self.spv.insts[inst];
        let (sc, pointee) = match self.spv.stype(i, ty)? {
            SType::Pointer { sc, pointee } => (*sc, *pointee),
            _ => return Err(i.err(ErrorKind::BadType, "variable type is not a pointer")),
        };
        match i.ops.first() {
            Some(rspirv::dr::Operand::StorageClass(s)) if *s == sc => {}
            _ => {
                return Err(i.err(
                    ErrorKind::BadOperands,
                    "storage class operand differs from the pointer type",
                ))
            }
        }
        if sc == StorageClass::Function {
            return Err(i.err(ErrorKind::BadOperands, "Function variable at module scope"));
        }
        let mode = self.ptr_mode(i, sc, pointee)?;
        let spv = self.spv;
        let pst = spv.stype(i, pointee)?.clone();
        // Interface blocks with built-in members: one variable per member.
        let split = matches!(mode, Mode::Input | Mode::Output)
            && matches!(&pst, SType::Struct { .. })
            && spv.has_deco(pointee, Decoration::Block);
        let val = if split {
            let SType::Struct { members } = pst else {
                unreachable!()
            };
            let mut vars = Vec::new();
            let mut loc = spv
                .deco(id, Decoration::Location)
                .and_then(|a| a.first().copied());
            for (k, &mt) in members.iter().enumerate() {
                let k = k as u32;
                let t = spv.ir_type(i, mt)?;
                let mut var = Variable::new(t, mode);
                let member = spv.member_names.get(&(pointee, k)).cloned();
                var.name = match (spv.names.get(&id), member) {
                    (Some(n), Some(mn)) => Some(format!("{}.{}", n, mn)),
                    (None, Some(mn)) => Some(mn),
                    (Some(n), None) => Some(format!("{}.{}", n, k)),
                    (None, None) => None,
                };
                if let Some(b) = spv
                    .member_deco(pointee, k, Decoration::BuiltIn)
                    .and_then(|a| a.first())
                {
                    var.builtin = Some(map_builtin(i, *b)?);
                    check_builtin_type(i, &self.b.module.types, &var)?;
                } else {
                    if let Some(l) = spv
                        .member_deco(pointee, k, Decoration::Location)
                        .and_then(|a| a.first())
                    {
                        loc = Some(*l);
                    }
                    var.location = loc;
                    loc = loc.map(|l| l + slots(&self.b.module.types, t));
                }
                var.flags = var_flags(spv, id) | member_flags(spv, pointee, k);
                vars.push(self.b.module.add_global(var));
            }
            GVal::Split(vars)
        } else {
            let t = spv.ir_type(i, pointee)?;
            let mut var = Variable::new(t, mode);
            var.name = spv.names.get(&id).cloned();
            let set = spv
                .deco(id, Decoration::DescriptorSet)
                .and_then(|a| a.first().copied());
            let binding = spv
                .deco(id, Decoration::Binding)
                .and_then(|a| a.first().copied());
            if set.is_some() || binding.is_some() {
                var.binding = Some((set.unwrap_or(0), binding.unwrap_or(0)));
            }
            var.location = spv
                .deco(id, Decoration::Location)
                .and_then(|a| a.first().copied());
            var.component = spv
                .deco(id, Decoration::Component)
                .and_then(|a| a.first().copied())
                .unwrap_or(0);
            var.index = spv
                .deco(id, Decoration::Index)
                .and_then(|a| a.first().copied())
                .unwrap_or(0);
            if let Some(b) = spv.deco(id, Decoration::BuiltIn).and_then(|a| a.first()) {
                var.builtin = Some(map_builtin(i, *b)?);
                check_builtin_type(i, &self.b.module.types, &var)?;
            }
            var.flags = var_flags(spv, id) | block_member_flags(spv, &pst, pointee);
            if spv.deco(id, Decoration::PerVertexKHR).is_some() {
                // the outer array index is the primitive's vertex (lower_explicit_io)
                if mode != Mode::Input || !matches!(pst, SType::Array { .. }) {
                    return Err(i.err(
                        ErrorKind::BadOperands,
                        "PerVertexKHR on a variable that is not an input array",
                    ));
                }
                var.flags |= ir::VarFlags::PER_VERTEX;
            }
            if mode == Mode::Private {
                // One invocation runs one (fully inlined) function: a Private global is a
                // local of the entry function, which mem2reg can promote (Mesa's
                // nir_lower_global_vars_to_local does the same).
                var.mode = Mode::Function;
                let f = self.b.func;
                GVal::Var(self.b.module.add_local(f, var))
            } else {
                GVal::Var(self.b.module.add_global(var))
            }
        };
        self.globals.insert(id, val.clone());
        // Initializer.
        if let Some(init) = i.ops.get(1) {
            let rspirv::dr::Operand::IdRef(init) = init else {
                return Err(i.err(ErrorKind::BadOperands, "initializer must be an id"));
            };
            let init = *init;
            let iv = self.operand_const(i, init)?;
            let out = self.materialize_global(val.clone());
            self.store_tree(i, &out, pointee, iv)?;
        }
        Ok(val)
    }

    /// A global's value at the point of use: a fresh `deref_var` (derefs are SSA values
    /// and must be dominated by their use).
    fn materialize_global(&mut self, v: GVal) -> Val {
        match v {
            GVal::Var(var) => Val::Ptr(self.b.deref_var(var)),
            GVal::Split(vars) => Val::Split(vars),
        }
    }

    fn ptr_mode(&self, i: &Inst, sc: StorageClass, pointee: u32) -> Result<Mode, Error> {
        let bb = sc == StorageClass::Uniform && self.spv.has_deco(pointee, Decoration::BufferBlock);
        module::storage_mode(sc, bb)
            .ok_or_else(|| i.err(ErrorKind::Unsupported, format!("storage class {:?}", sc)))
    }

    // ---- operands ----

    /// The value of operand id `id` used by instruction `i`.
    fn val(&mut self, i: &Inst, id: u32) -> Result<Val, Error> {
        if let Some(v) = self.vals.get(id as usize).and_then(|v| v.clone()) {
            self.check_dominance(i, id)?;
            return Ok(v);
        }
        match self.spv.def(id) {
            Def::Const { .. } => self.operand_const(i, id),
            Def::Global { .. } => self.global(id),
            _ => Err(module::bad_id(i, id, "a defined value here")),
        }
    }

    fn operand_const(&mut self, i: &Inst, id: u32) -> Result<Val, Error> {
        if let Some(&sid) = self.spv.late.get(&id) {
            let ty = self.spv.id_types.get(id as usize).copied().unwrap_or(0);
            let vt = self
                .spv
                .val_type(ty)
                .ok_or_else(|| module::bad_id(i, id, "a scalar specialization constant"))?;
            return Ok(Val::V(self.b.intrinsic(
                ir::Intrinsic::LoadSpecConstant,
                vt,
                &[],
                &[sid],
            )));
        }
        let (c, ty) = self
            .spv
            .constant(id)
            .ok_or_else(|| module::bad_id(i, id, "a constant"))?;
        let c = c.clone();
        self.materialize_const(i, &c, ty)
    }

    /// Emits IR constants for constant tree `c` of SPIR-V type `ty`.
    fn materialize_const(&mut self, i: &Inst, c: &CVal, ty: u32) -> Result<Val, Error> {
        if let Some(vt) = self.spv.val_type(ty) {
            let comps: Vec<Option<u64>> = match c {
                CVal::S(v) => vec![Some(*v)],
                CVal::Undef => vec![None; vt.comps as usize],
                CVal::C(v) => v
                    .iter()
                    .map(|x| if let CVal::S(s) = x { Some(*s) } else { None })
                    .collect(),
            };
            if comps.len() != vt.comps as usize {
                return Err(i.err(ErrorKind::BadType, "constant does not match its type"));
            }
            if comps.iter().all(|c| c.is_none()) {
                return Ok(Val::V(self.b.undef(vt)));
            }
            let bits: Vec<u64> = comps.iter().map(|c| c.unwrap_or(0)).collect();
            return Ok(Val::V(self.b.const_bits(vt, &bits)));
        }
        let st = self.spv.stype(i, ty)?.clone();
        let kids: Vec<u32> = match &st {
            SType::Matrix { col, n } => vec![*col; *n as usize],
            SType::Array { elem, len } => vec![*elem; *len as usize],
            SType::Struct { members } => members.clone(),
            _ => return Err(i.err(ErrorKind::BadType, "constant of a non-data type")),
        };
        let parts: Vec<CVal> = match c {
            CVal::C(v) => v.clone(),
            _ => vec![CVal::Undef; kids.len()],
        };
        if parts.len() != kids.len() {
            return Err(i.err(ErrorKind::BadType, "constant does not match its type"));
        }
        let mut out = Vec::new();
        for (p, t) in parts.iter().zip(kids) {
            out.push(self.materialize_const(i, p, t)?);
        }
        Ok(Val::C(out))
    }

    /// Operand `k` of `i` as a scalar/vector SSA value.
    fn value(&mut self, i: &Inst, k: usize) -> Result<Value, Error> {
        let id = i.id_op(k)?;
        match self.val(i, id)? {
            Val::V(v) => Ok(v),
            Val::Ptr(d) => Ok(d),
            _ => Err(i.err(
                ErrorKind::BadType,
                format!("operand %{} is not a scalar or vector", id),
            )),
        }
    }

    /// SPIR-V type of an id (from its definition).
    fn type_of(&self, i: &Inst, id: u32) -> Result<u32, Error> {
        match self.spv.def(id) {
            Def::Const { ty, .. } | Def::Global { ty, .. } => Ok(*ty),
            Def::Local => match self.spv.id_types.get(id as usize) {
                Some(&t) if t != 0 => Ok(t),
                _ => Err(module::bad_id(i, id, "a typed value")),
            },
            _ => Err(module::bad_id(i, id, "a value")),
        }
    }

    fn set(&mut self, i: &Inst, v: Val) -> Result<(), Error> {
        let id = i.result_id()?;
        self.vals[id as usize] = Some(v);
        self.def_block[id as usize] = self.cur_block;
        Ok(())
    }

    /// SPIR-V's dominance rule for a use of `id` by `i` in the current block: its
    /// defining block (if it has one) must be a block of the same function and dominate
    /// the current block.
    fn check_dominance(&mut self, i: &Inst, id: u32) -> Result<(), Error> {
        let def = self.def_block.get(id as usize).copied().unwrap_or(0);
        let at = self.cur_block;
        let Some(&fid) = self.call_stack.last() else {
            return Ok(());
        };
        if def == 0 || at == 0 {
            return Ok(());
        }
        let k = match self.dom_index.get(fid as usize) {
            Some(&k) if k != 0 => k as usize - 1,
            _ => {
                let Some(f) = self.spv.funcs.get(&fid) else {
                    return Ok(());
                };
                for &b in f.blocks.keys() {
                    self.block_fn[b as usize] = fid;
                }
                let d = dom::Dominators::of(f, &self.spv.insts, &mut self.block_pos);
                self.doms.push(d);
                self.dom_index[fid as usize] = self.doms.len() as u32;
                self.doms.len() - 1
            }
        };
        if self.block_fn.get(def as usize) != Some(&fid) {
            return Err(i.err(
                ErrorKind::BadId,
                format!("%{id} is defined in another function (block %{def})"),
            ));
        }
        // (a block of another function counts as unreachable, as a label missing from
        // this function's order would)
        let pos = |b: u32| match self.block_fn.get(b as usize) {
            Some(&f) if f == fid => self.block_pos[b as usize],
            _ => 0,
        };
        if self.doms[k].dominates(pos(def), pos(at)) {
            Ok(())
        } else {
            Err(i.err(
                ErrorKind::BadId,
                format!("%{id}, defined in block %{def}, does not dominate its use in block %{at}"),
            ))
        }
    }

    fn ir_type(&self, i: &Inst, ty: u32) -> Result<Type, Error> {
        self.spv.ir_type(i, ty)
    }

    // ---- pointers, loads and stores ----

    /// The deref for pointer operand `id` and its pointee SPIR-V type.
    fn ptr(&mut self, i: &Inst, id: u32) -> Result<(Val, u32), Error> {
        let ty = self.type_of(i, id)?;
        let (sc, pointee) = match self.spv.stype(i, ty)? {
            SType::Pointer { sc, pointee } => (*sc, *pointee),
            _ => return Err(i.err(ErrorKind::BadType, format!("%{} is not a pointer", id))),
        };
        let v = self.val(i, id)?;
        let v = match v {
            Val::V(raw) if sc == StorageClass::PhysicalStorageBuffer => {
                let t = self.ir_type(i, pointee)?;
                let stride = self
                    .spv
                    .deco(ty, Decoration::ArrayStride)
                    .and_then(|a| a.first().copied())
                    .unwrap_or(0);
                Val::Ptr(self.b.deref_cast(raw, t, Mode::Global, stride, 0))
            }
            v @ (Val::Ptr(_) | Val::Split(_) | Val::Texel { .. }) => v,
            _ => {
                return Err(i.err(
                    ErrorKind::BadType,
                    format!("%{} is not a pointer value", id),
                ))
            }
        };
        Ok((v, pointee))
    }

    /// Loads a value of SPIR-V type `ty` through `p`, leaf by leaf.
    fn load_tree(&mut self, i: &Inst, p: &Val, ty: u32, access: u32) -> Result<Val, Error> {
        let d = match p {
            Val::Ptr(d) => *d,
            Val::Split(vars) => {
                let SType::Struct { members } = self.spv.stype(i, ty)?.clone() else {
                    return Err(i.err(ErrorKind::BadType, "split block of a non-struct"));
                };
                let mut out = Vec::new();
                for (v, mt) in vars.clone().into_iter().zip(members) {
                    let d = self.b.deref_var(v);
                    out.push(self.load_tree(i, &Val::Ptr(d), mt, access)?);
                }
                return Ok(Val::C(out));
            }
            _ => return Err(i.err(ErrorKind::BadType, "load through a non-pointer")),
        };
        let st = self.spv.stype(i, ty)?.clone();
        Ok(match st {
            SType::Bool
            | SType::Int { .. }
            | SType::Float { .. }
            | SType::Vector { .. }
            | SType::Pointer { .. } => Val::V(self.d_load(i, d, access)?),
            SType::Image(_) | SType::Sampler | SType::SampledImage { .. } => Val::Ptr(d),
            SType::Matrix { col, n } => {
                let mut out = Vec::new();
                for c in 0..n {
                    let idx = self.b.const_u32(c as u32);
                    let e = self.d_array(i, d, idx)?;
                    out.push(self.load_tree(i, &Val::Ptr(e), col, access)?);
                }
                Val::C(out)
            }
            SType::Array { elem, len } => {
                if len > 4096 {
                    return Err(i.err(
                        ErrorKind::Unsupported,
                        "load of an array of more than 4096 elements",
                    ));
                }
                let mut out = Vec::new();
                for c in 0..len {
                    let idx = self.b.const_u32(c);
                    let e = self.d_array(i, d, idx)?;
                    out.push(self.load_tree(i, &Val::Ptr(e), elem, access)?);
                }
                Val::C(out)
            }
            SType::Struct { members } => {
                let mut out = Vec::new();
                for (k, mt) in members.into_iter().enumerate() {
                    let e = self.d_struct(i, d, k as u32)?;
                    out.push(self.load_tree(i, &Val::Ptr(e), mt, access)?);
                }
                Val::C(out)
            }
            _ => return Err(i.err(ErrorKind::BadType, "load of a runtime array or void")),
        })
    }

    /// Stores `v` (of SPIR-V type `ty`) through `p`, leaf by leaf.
    fn store_tree(&mut self, i: &Inst, p: &Val, ty: u32, v: Val) -> Result<(), Error> {
        self.store_tree_access(i, p, ty, v, 0)
    }

    pub(crate) fn store_tree_access(
        &mut self,
        i: &Inst,
        p: &Val,
        ty: u32,
        v: Val,
        access: u32,
    ) -> Result<(), Error> {
        let d = match p {
            Val::Ptr(d) => *d,
            Val::Split(vars) => {
                let (SType::Struct { members }, Val::C(parts)) =
                    (self.spv.stype(i, ty)?.clone(), v)
                else {
                    return Err(i.err(ErrorKind::BadType, "store of a non-struct to a block"));
                };
                for ((var, mt), part) in vars.clone().into_iter().zip(members).zip(parts) {
                    let d = self.b.deref_var(var);
                    self.store_tree_access(i, &Val::Ptr(d), mt, part, access)?;
                }
                return Ok(());
            }
            _ => return Err(i.err(ErrorKind::BadType, "store through a non-pointer")),
        };
        let (_, mode) = self.deref_ty(i, d)?;
        if matches!(
            mode,
            Mode::Input | Mode::Ubo | Mode::PushConst | Mode::Uniform
        ) {
            return Err(i.err(
                ErrorKind::BadOperands,
                format!("store to read-only {} memory", mode.name()),
            ));
        }
        let st = self.spv.stype(i, ty)?.clone();
        match (st, v) {
            (
                SType::Bool
                | SType::Int { .. }
                | SType::Float { .. }
                | SType::Vector { .. }
                | SType::Pointer { .. },
                Val::V(x) | Val::Ptr(x),
            ) => {
                let (dt, _) = self.deref_ty(i, d)?;
                let want = self.b.module.types.value_type(dt);
                if want != Some(self.b.ty(x)) {
                    return Err(i.err(
                        ErrorKind::BadType,
                        "stored value does not match the pointee type",
                    ));
                }
                let n = self.b.ty(x).comps as u32;
                self.b.store_masked(d, x, (1u32 << n) - 1, access);
            }
            (SType::Matrix { col, n }, Val::C(parts)) if parts.len() == n as usize => {
                for (c, part) in parts.into_iter().enumerate() {
                    let idx = self.b.const_u32(c as u32);
                    let e = self.d_array(i, d, idx)?;
                    self.store_tree_access(i, &Val::Ptr(e), col, part, access)?;
                }
            }
            (SType::Array { elem, len }, Val::C(parts)) if parts.len() == len as usize => {
                for (c, part) in parts.into_iter().enumerate() {
                    let idx = self.b.const_u32(c as u32);
                    let e = self.d_array(i, d, idx)?;
                    self.store_tree_access(i, &Val::Ptr(e), elem, part, access)?;
                }
            }
            (SType::Struct { members }, Val::C(parts)) if parts.len() == members.len() => {
                for (k, (mt, part)) in members.into_iter().zip(parts).enumerate() {
                    let e = self.d_struct(i, d, k as u32)?;
                    self.store_tree_access(i, &Val::Ptr(e), mt, part, access)?;
                }
            }
            _ => {
                return Err(i.err(
                    ErrorKind::BadType,
                    "stored value does not match the pointee type",
                ))
            }
        }
        Ok(())
    }

    /// Type and mode behind deref `d` (an error if `d` is not a deref).
    fn deref_ty(&self, i: &Inst, d: Value) -> Result<(Type, Mode), Error> {
        match self.b.fr().kind(d) {
            ir::InstKind::Deref(dr) => Ok((dr.ty, dr.mode)),
            _ => Err(i.err(ErrorKind::BadType, "operand is not a pointer")),
        }
    }

    /// `deref_array`, checked: `d` is an indexable deref and `idx` a scalar integer.
    fn d_array(&mut self, i: &Inst, d: Value, idx: Value) -> Result<Value, Error> {
        let (t, _) = self.deref_ty(i, d)?;
        let it = self.b.ty(idx);
        if it.comps != 1 || it.bits < 8 || self.b.module.types.element(t).is_none() {
            return Err(i.err(
                ErrorKind::BadType,
                "indexing a non-indexable type or with a non-integer",
            ));
        }
        Ok(self.b.deref_array(d, idx))
    }

    /// `deref_struct`, checked.
    fn d_struct(&mut self, i: &Inst, d: Value, m: u32) -> Result<Value, Error> {
        let (t, _) = self.deref_ty(i, d)?;
        match self.b.module.types.kind(t) {
            TypeKind::Struct { members } if (m as usize) < members.len() => {
                Ok(self.b.deref_struct(d, m))
            }
            _ => Err(i.err(ErrorKind::BadType, "member of a non-struct or out of range")),
        }
    }

    /// A leaf load, checked.
    fn d_load(&mut self, i: &Inst, d: Value, access: u32) -> Result<Value, Error> {
        let (t, _) = self.deref_ty(i, d)?;
        if self.b.module.types.value_type(t).is_none() {
            return Err(i.err(ErrorKind::BadType, "load of an aggregate or opaque type"));
        }
        Ok(self.b.load_access(d, access))
    }

    /// `vec` of scalars, checked (same bit size, a legal component count).
    fn vec_checked(&mut self, i: &Inst, comps: &[Value]) -> Result<Value, Error> {
        let Some(&first) = comps.first() else {
            return Err(i.err(ErrorKind::BadOperands, "empty vector"));
        };
        let t = self.b.ty(first);
        let ok = comps.iter().all(|&c| self.b.ty(c) == t.with_comps(1))
            && t.comps == 1
            && ValType::new(t.bits, comps.len() as u8).is_valid();
        if !ok {
            return Err(i.err(ErrorKind::BadType, "vector components of different types"));
        }
        Ok(self.b.vec(comps))
    }

    /// A function-local variable of SPIR-V type `ty`.
    fn local_var(&mut self, i: &Inst, ty: u32, name: Option<String>) -> Result<Var, Error> {
        let t = self.ir_type(i, ty)?;
        if matches!(
            self.b.module.types.kind(t),
            TypeKind::Image(_) | TypeKind::Sampler | TypeKind::SampledImage(_)
        ) {
            return Err(i.err(
                ErrorKind::Unsupported,
                "function variables of image/sampler type",
            ));
        }
        Ok(self.b.local(t, name.as_deref()))
    }
}

/// Location slots a type occupies (vec4-sized; 64-bit vec3/vec4 take two).
fn slots(types: &ir::TypeArena, t: Type) -> u32 {
    match types.kind(t) {
        TypeKind::Scalar(_) => 1,
        TypeKind::Vector { scalar, len, .. } => {
            if scalar.bits == 64 && *len > 2 {
                2
            } else {
                1
            }
        }
        TypeKind::Matrix {
            column, columns, ..
        } => slots(types, *column) * *columns as u32,
        TypeKind::Array { elem, len, .. } => slots(types, *elem) * len.unwrap_or(1),
        TypeKind::Struct { members } => members.iter().map(|m| slots(types, m.ty)).sum(),
        _ => 1,
    }
}

fn var_flags(spv: &Spv, id: u32) -> ir::VarFlags {
    flags_of(spv.decos.get(&id).map(|v| v.as_slice()).unwrap_or(&[]))
}

fn member_flags(spv: &Spv, st: u32, m: u32) -> ir::VarFlags {
    flags_of(
        spv.member_decos
            .get(&(st, m))
            .map(|v| v.as_slice())
            .unwrap_or(&[]),
    )
}

/// Flags a block's member decorations give the whole variable (glslang decorates the
/// members of a `readonly buffer`): NonWritable/NonReadable when *every* member has it,
/// Coherent/Volatile/Restrict when *any* member has it — both the safe direction.
fn block_member_flags(spv: &Spv, st: &SType, id: u32) -> ir::VarFlags {
    use ir::VarFlags as F;
    let SType::Struct { members } = st else {
        return F::empty();
    };
    if members.is_empty() {
        return F::empty();
    }
    let each: Vec<F> = (0..members.len() as u32)
        .map(|m| member_flags(spv, id, m))
        .collect();
    let all = each
        .iter()
        .fold(F::NON_WRITABLE | F::NON_READABLE, |a, &f| a & f);
    let any =
        each.iter().fold(F::empty(), |a, &f| a | f) & (F::COHERENT | F::VOLATILE | F::RESTRICT);
    all | any
}

fn flags_of(d: &[(Decoration, Vec<u32>)]) -> ir::VarFlags {
    use ir::VarFlags as F;
    let mut f = F::empty();
    for (x, _) in d {
        f |= match x {
            Decoration::Flat => F::FLAT,
            Decoration::NoPerspective => F::NOPERSPECTIVE,
            Decoration::Centroid => F::CENTROID,
            Decoration::Sample => F::SAMPLE,
            Decoration::NonWritable => F::NON_WRITABLE,
            Decoration::NonReadable => F::NON_READABLE,
            Decoration::Coherent => F::COHERENT,
            Decoration::Volatile => F::VOLATILE,
            Decoration::Restrict => F::RESTRICT,
            Decoration::Invariant => F::INVARIANT,
            Decoration::Patch => F::PATCH,
            _ => F::empty(),
        };
    }
    f
}

/// Clip and cull distances are arrays of at most eight floats (Vulkan's minimum limits,
/// what AMD hardware exports): a longer array is invalid input, refused here rather
/// than copied element by element through the middle end.
fn check_builtin_type(i: &Inst, types: &ir::TypeArena, var: &Variable) -> Result<(), Error> {
    use ir::Builtin as B;
    if let Some(b @ (B::ClipDistance | B::CullDistance)) = var.builtin {
        let n = types.length(var.ty).unwrap_or(0);
        if n > 8 {
            return Err(i.err(
                ErrorKind::BadType,
                format!("{} has {n} elements; at most 8 are allowed", b.name()),
            ));
        }
    }
    Ok(())
}

fn map_builtin(i: &Inst, b: u32) -> Result<ir::Builtin, Error> {
    use ir::Builtin as B;
    use spirv::BuiltIn as S;
    let s = S::from_u32(b)
        .ok_or_else(|| i.err(ErrorKind::BadOperands, format!("unknown built-in {}", b)))?;
    Ok(match s {
        S::Position => B::Position,
        S::PointSize => B::PointSize,
        S::ClipDistance => B::ClipDistance,
        S::CullDistance => B::CullDistance,
        S::VertexIndex => B::VertexIndex,
        S::InstanceIndex => B::InstanceIndex,
        S::BaseVertex => B::BaseVertex,
        S::BaseInstance => B::BaseInstance,
        S::DrawIndex => B::DrawIndex,
        S::FragCoord => B::FragCoord,
        S::FrontFacing => B::FrontFacing,
        S::PointCoord => B::PointCoord,
        S::BaryCoordKHR => B::BaryCoord,
        S::BaryCoordNoPerspKHR => B::BaryCoordNoPersp,
        S::ShadingRateKHR => B::ShadingRate,
        S::PrimitiveShadingRateKHR => B::PrimitiveShadingRate,
        S::SampleId => B::SampleId,
        S::SamplePosition => B::SamplePosition,
        S::SampleMask => B::SampleMask,
        S::FragDepth => B::FragDepth,
        S::FragStencilRefEXT => B::FragStencilRef,
        S::HelperInvocation => B::HelperInvocation,
        S::Layer => B::Layer,
        S::ViewportIndex => B::ViewportIndex,
        S::PrimitiveId => B::PrimitiveId,
        S::ViewIndex => B::ViewIndex,
        S::NumWorkgroups => B::NumWorkgroups,
        S::WorkgroupId => B::WorkgroupId,
        S::LocalInvocationId => B::LocalInvocationId,
        S::GlobalInvocationId => B::GlobalInvocationId,
        S::LocalInvocationIndex => B::LocalInvocationIndex,
        S::WorkgroupSize => B::WorkgroupSize,
        S::SubgroupSize => B::SubgroupSize,
        S::SubgroupId => B::SubgroupId,
        S::NumSubgroups => B::NumSubgroups,
        S::SubgroupLocalInvocationId => B::SubgroupLocalInvocationId,
        S::SubgroupEqMask => B::SubgroupEqMask,
        S::SubgroupGeMask => B::SubgroupGeMask,
        S::SubgroupGtMask => B::SubgroupGtMask,
        S::SubgroupLeMask => B::SubgroupLeMask,
        S::SubgroupLtMask => B::SubgroupLtMask,
        s => return Err(i.err(ErrorKind::Unsupported, format!("built-in {:?}", s))),
    })
}
