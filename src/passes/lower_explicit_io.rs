//! Lowers deref-based memory access to explicit addressing, reading every offset and
//! stride from the layout carried by the deref chain's types.
//!
//! | mode | becomes | address |
//! |---|---|---|
//! | ubo / ssbo | `load_ubo` / `load_ssbo` / `store_ssbo` / `ssbo_atomic*` | `vulkan_resource_index` + byte offset |
//! | push_const | `load_push_constant` | byte offset |
//! | shared | `load_shared` / `store_shared` / `shared_atomic*` | byte offset, `base` = the variable's place |
//! | function / private (left by mem2reg) | `load_scratch` / `store_scratch` | byte offset, `base` |
//! | global | `load_global` / `store_global` / `global_atomic*` | 64-bit address |
//! | input / output | `load_input` / `load_interpolated_input` / `store_output`, system values | slot offset, `base` = location |
//!
//! Offsets: a struct member adds its `offset`; an array index adds `index * stride`; a
//! matrix column adds `column * matrix_stride` (column-major) or `column * scalar_size`
//! (row-major, whose "column" is a vector with components a matrix stride apart); a vector
//! component adds `index * (vector stride or scalar size)`; `deref_ptr_as_array` adds
//! `index * its stride`; a cast of a 64-bit address starts a global chain. Shared and
//! scratch variables, undecorated in SPIR-V, get the natural std430-like layout
//! ([`TypeArena::natural_layout`]) and consecutive places in `Module::shared_size` /
//! `scratch_size`. A load of a strided vector becomes one load per component; booleans
//! live in memory as 32-bit words (`ine 0` after loads, `b2i` before stores). A buffer
//! variable whose type is an array without a stride is an array of blocks: its first
//! index selects the descriptor.
//!
//! Stage I/O counts in 16-byte slots: a scalar/vector up to 4×32 bits is one slot, a
//! matrix one per column, arrays and structs the sum of their elements. Built-in inputs
//! become their system-value intrinsics; built-in outputs are stored to the fixed slots
//! [`builtin_slot`]; the second source of dual-source blending (a fragment output with
//! `Index` 1, at location 0 by Vulkan's rule) to [`DUAL_SOURCE_SLOT`]. Fragment inputs interpolate through `load_barycentric_*` unless flat.
//! A per-vertex fragment input (`per_vertex`, SPIR-V `PerVertexKHR`) takes its outer array
//! index as the primitive's vertex: `load_input_vertex` (vertex, slot offset), a dynamic
//! vertex index loading all three vertices and selecting with `bcsel`.
//! A dynamic array index into stage I/O becomes the slot-offset source; a dynamic vector
//! component of an input loads the whole vector and selects with a `bcsel` chain (inputs
//! are registers, not addressable memory); a dynamic component of an output is not lowered.
//! Image and sampler derefs (mode `uniform`) are left for instruction selection.

use crate::ir::*;
use std::collections::HashMap;

/// First output slot used for built-ins (user locations are below it).
pub const BUILTIN_SLOT_BASE: u32 = 64;

/// The output slot of the fragment output with `Index` 1 (location 0): the second colour
/// source of dual-source blending, after the built-ins of [`builtin_slot`].
pub const DUAL_SOURCE_SLOT: u32 = BUILTIN_SLOT_BASE + 12;

/// The output slot of a built-in output variable.
pub fn builtin_slot(b: Builtin) -> Option<u32> {
    Some(
        BUILTIN_SLOT_BASE
            + match b {
                Builtin::Position => 0,
                Builtin::PointSize => 1,
                Builtin::ClipDistance => 2,
                Builtin::CullDistance => 4,
                Builtin::Layer => 6,
                Builtin::ViewportIndex => 7,
                Builtin::FragDepth => 8,
                Builtin::SampleMask => 9,
                Builtin::FragStencilRef => 10,
                Builtin::PrimitiveShadingRate => 11,
                _ => return None,
            },
    )
}

fn sysval(b: Builtin) -> Option<Intrinsic> {
    use Builtin as B;
    use Intrinsic as I;
    Some(match b {
        B::FragCoord => I::LoadFragCoord,
        B::FrontFacing => I::LoadFrontFace,
        B::PointCoord => I::LoadPointCoord,
        B::BaryCoord => I::LoadBaryCoord,
        B::BaryCoordNoPersp => I::LoadBaryCoordNoPersp,
        B::ShadingRate => I::LoadShadingRate,
        B::SampleId => I::LoadSampleId,
        B::SamplePosition => I::LoadSamplePos,
        B::SampleMask => I::LoadSampleMaskIn,
        B::HelperInvocation => I::LoadHelperInvocation,
        B::Layer => I::LoadLayerId,
        B::ViewportIndex => I::LoadViewportIndex,
        B::PrimitiveId => I::LoadPrimitiveId,
        B::ViewIndex => I::LoadViewIndex,
        B::VertexIndex => I::LoadVertexIndex,
        B::InstanceIndex => I::LoadInstanceIndex,
        B::BaseVertex => I::LoadBaseVertex,
        B::BaseInstance => I::LoadBaseInstance,
        B::DrawIndex => I::LoadDrawId,
        B::NumWorkgroups => I::LoadNumWorkgroups,
        B::WorkgroupId => I::LoadWorkgroupId,
        B::LocalInvocationId => I::LoadLocalInvocationId,
        B::GlobalInvocationId => I::LoadGlobalInvocationId,
        B::LocalInvocationIndex => I::LoadLocalInvocationIndex,
        B::SubgroupSize => I::LoadSubgroupSize,
        B::SubgroupId => I::LoadSubgroupId,
        B::NumSubgroups => I::LoadNumSubgroups,
        B::SubgroupLocalInvocationId => I::LoadSubgroupInvocation,
        B::SubgroupEqMask => I::LoadSubgroupEqMask,
        B::SubgroupGeMask => I::LoadSubgroupGeMask,
        B::SubgroupGtMask => I::LoadSubgroupGtMask,
        B::SubgroupLeMask => I::LoadSubgroupLeMask,
        B::SubgroupLtMask => I::LoadSubgroupLtMask,
        _ => return None,
    })
}

pub fn run(m: &mut Module) -> bool {
    let mut st = State {
        places: HashMap::new(),
        pending: Vec::new(),
        writes: Writes::of(m),
    };
    let mut progress = false;
    let handles: Vec<Func> = m.functions.handles().collect();
    for fh in handles {
        progress |= lower_function(m, fh, &mut st);
    }
    if progress {
        // Derefs of lowered variables are dead now; drop them and the variables.
        super::dce::run(m);
        let mut used: Vec<Var> = Vec::new();
        for (_, f) in m.functions.iter() {
            for i in f.insts_in_order() {
                if let InstKind::Deref(Deref {
                    kind: DerefKind::Var(v),
                    ..
                }) = f.insts[i].kind
                {
                    used.push(v);
                }
            }
        }
        let Module {
            globals,
            functions,
            vars,
            ..
        } = m;
        let keep = |v: &Var| used.contains(v) || vars[*v].mode == Mode::Uniform;
        globals.retain(keep);
        for (_, f) in functions.iter_mut() {
            f.locals.retain(keep);
        }
    }
    progress
}

/// What the module writes that a storage-buffer load could observe (gathered before any
/// lowering, from the deref-based and the already explicit forms alike).
struct Writes {
    /// Some storage buffer, global memory or image is written (stores and atomics).
    /// Vulkan lets buffers and images alias each other, so any such write counts.
    any: bool,
    /// The SSBO variables written through their own derefs.
    vars: Vec<Var>,
}

impl Writes {
    fn of(m: &Module) -> Writes {
        use Intrinsic as I;
        let mut w = Writes {
            any: false,
            vars: Vec::new(),
        };
        for (_, f) in m.functions.iter() {
            for i in f.insts_in_order() {
                let InstKind::Intrinsic { op, srcs, .. } = &f.insts[i].kind else {
                    continue;
                };
                match op {
                    I::StoreDeref | I::DerefAtomic | I::DerefAtomicSwap => {
                        let Some(d) = deref(f, srcs[0]) else {
                            w.any = true;
                            continue;
                        };
                        match d.mode {
                            Mode::Ssbo => {
                                w.any = true;
                                match root_var(f, srcs[0]) {
                                    Some(v) => w.vars.push(v),
                                    // a written SSBO we cannot name: no variable is
                                    // known unwritten
                                    None => w.vars.extend(
                                        m.vars
                                            .iter()
                                            .filter(|(_, x)| x.mode == Mode::Ssbo)
                                            .map(|(h, _)| h),
                                    ),
                                }
                            }
                            Mode::Global => w.any = true,
                            _ => {}
                        }
                    }
                    I::ImageDerefStore
                    | I::ImageDerefAtomic
                    | I::ImageDerefAtomicSwap
                    | I::ImageStore
                    | I::ImageAtomic
                    | I::ImageAtomicSwap
                    | I::StoreGlobal
                    | I::GlobalAtomic
                    | I::GlobalAtomicSwap => w.any = true,
                    I::StoreSsbo | I::SsboAtomic | I::SsboAtomicSwap => {
                        // already explicit: which variable is no longer known
                        w.any = true;
                        w.vars.extend(
                            m.vars
                                .iter()
                                .filter(|(_, x)| x.mode == Mode::Ssbo)
                                .map(|(h, _)| h),
                        );
                    }
                    _ => {}
                }
            }
        }
        w
    }

    /// Whether loads of the SSBO variable `v` may carry [`ACCESS_CAN_REORDER`]: nothing
    /// in this dispatch writes its memory, and it is neither volatile nor coherent.
    fn reorderable(&self, v: Var, var: &Variable) -> bool {
        let f = var.flags;
        if f.intersects(VarFlags::VOLATILE | VarFlags::COHERENT) {
            return false;
        }
        f.contains(VarFlags::NON_WRITABLE)
            || !self.any
            || (f.contains(VarFlags::RESTRICT) && !self.vars.contains(&v))
    }
}

struct State {
    /// Byte place of each shared / scratch variable.
    places: HashMap<Var, u32>,
    /// What the module writes (for [`ACCESS_CAN_REORDER`]).
    writes: Writes,
    /// Instructions emitted by the lowering, each to go right before its anchor (placed
    /// once per function by `Function::place_before`, so that lowering stays linear).
    pending: Vec<(Inst, Inst)>,
}

impl State {
    fn place(&mut self, m: &mut Module, v: Var) -> u32 {
        if let Some(&p) = self.places.get(&v) {
            return p;
        }
        let lt = m.types.natural_layout(m.vars[v].ty);
        let size = m.types.size_of(lt);
        let align = m.types.natural_align(lt).max(4);
        let total = if m.vars[v].mode == Mode::Shared {
            &mut m.shared_size
        } else {
            &mut m.scratch_size
        };
        let p = total.div_ceil(align) * align;
        *total = p + size.div_ceil(4) * 4;
        self.places.insert(v, p);
        p
    }
}

/// Emits instructions before a fixed instruction: they are created detached and recorded
/// as `(anchor, new)` in the pass's pending list, in emission order.
struct E<'a> {
    f: &'a mut Function,
    pending: &'a mut Vec<(Inst, Inst)>,
    at: Inst,
}

impl<'a> E<'a> {
    fn new(f: &'a mut Function, pending: &'a mut Vec<(Inst, Inst)>, at: Inst) -> Self {
        debug_assert!(
            f.insts[at].block.is_some(),
            "lowering a removed instruction"
        );
        E { f, pending, at }
    }
    fn push(&mut self, kind: InstKind, ty: ValType) -> Value {
        let v = self.f.alloc_detached(kind, ty);
        self.pending.push((self.at, v));
        v
    }
    fn konst(&mut self, ty: ValType, x: u64) -> Value {
        let x = x & ty.mask();
        self.push(InstKind::Const((0..ty.comps).map(|_| x).collect()), ty)
    }
    fn alu(&mut self, op: AluOp, ty: ValType, srcs: &[Value]) -> Value {
        self.push(
            InstKind::Alu {
                op,
                srcs: srcs.iter().copied().collect(),
            },
            ty,
        )
    }
    fn intr(&mut self, op: Intrinsic, ty: ValType, srcs: &[Value], idx: &[u32]) -> Value {
        let mut i: SmallVec<[u32; 4]> = idx.iter().copied().collect();
        i.resize(op.indices().len(), 0);
        self.push(
            InstKind::Intrinsic {
                op,
                srcs: srcs.iter().copied().collect(),
                idx: i,
            },
            if op.has_dest() { ty } else { ValType::NONE },
        )
    }
    /// `off + index * scale` in the offset's bit size (index converted as signed).
    fn add_scaled(&mut self, off: Value, index: Value, scale: u64) -> Value {
        let ot = self.f.insts[off].ty;
        let it = self.f.insts[index].ty;
        let idx = if it.bits == ot.bits {
            index
        } else {
            self.alu(AluOp::I2i, ot, &[index])
        };
        let s = self.konst(ot, scale);
        let p = self.alu(AluOp::Imul, ot, &[idx, s]);
        self.alu(AluOp::Iadd, ot, &[off, p])
    }
    fn add_const(&mut self, off: Value, c: u64) -> Value {
        if c == 0 {
            return off;
        }
        let ot = self.f.insts[off].ty;
        let k = self.konst(ot, c);
        self.alu(AluOp::Iadd, ot, &[off, k])
    }
}

#[derive(Clone, Copy)]
enum Root {
    /// `reorder`: the variable's loads get [`ACCESS_CAN_REORDER`] ([`Writes::reorderable`]).
    Buffer {
        res: Value,
        mode: Mode,
        reorder: bool,
    },
    Push {
        range: u32,
    },
    Shared {
        base: u32,
    },
    Scratch {
        base: u32,
    },
    Global,
}

/// A lowered address: where, the byte offset (or 64-bit address), the laid-out type.
struct Addr {
    root: Root,
    off: Value,
    lt: Type,
}

fn deref(f: &Function, v: Value) -> Option<&Deref> {
    match &f.insts[v].kind {
        InstKind::Deref(d) => Some(d),
        _ => None,
    }
}

/// The chain from the root to `d` (root first); on the stack for chains of up to eight
/// derefs.
fn chain(f: &Function, d: Value) -> SmallVec<[Value; 8]> {
    let mut out = smallvec::smallvec![d];
    let mut cur = d;
    while let Some(dd) = deref(f, cur) {
        match dd.kind.parent() {
            Some(p) if deref(f, p).is_some() => {
                out.push(p);
                cur = p;
            }
            _ => break,
        }
    }
    out.reverse();
    out
}

/// The variable at the root of `d`'s chain (the chain's first deref, not collected).
fn root_var(f: &Function, d: Value) -> Option<Var> {
    let mut root = d;
    while let Some(p) = deref(f, root)?.kind.parent() {
        if deref(f, p).is_none() {
            break;
        }
        root = p;
    }
    match deref(f, root)?.kind {
        DerefKind::Var(v) => Some(v),
        _ => None,
    }
}

fn addr(m: &mut Module, fh: Func, st: &mut State, at: Inst, d: Value) -> Option<Addr> {
    let steps = chain(&m.functions[fh], d);
    let first = deref(&m.functions[fh], steps[0])?.clone();
    let mut k = 1;
    let (root, off, mut lt) = match first.kind {
        DerefKind::Var(v) => {
            let var = m.vars[v].clone();
            match var.mode {
                Mode::Ubo | Mode::Ssbo => {
                    let (set, binding) = var.binding.unwrap_or((0, 0));
                    let mut lt = var.ty;
                    let f = &mut m.functions[fh];
                    let mut e = E::new(f, &mut st.pending, at);
                    // An array without a stride is an array of descriptors (blocks).
                    let is_array_of_blocks =
                        matches!(m.types.kind(var.ty), TypeKind::Array { stride: 0, .. });
                    let index = if is_array_of_blocks && steps.len() > 1 {
                        let DerefKind::Array { index, .. } = deref(e.f, steps[1])?.kind else {
                            return None;
                        };
                        k = 2;
                        lt = m.types.element(var.ty)?;
                        index
                    } else {
                        e.konst(ValType::U32, 0)
                    };
                    let res = e.intr(
                        Intrinsic::VulkanResourceIndex,
                        ValType::new(32, 2),
                        &[index],
                        &[set, binding, var.mode as u32],
                    );
                    let z = e.konst(ValType::U32, 0);
                    let reorder = var.mode == Mode::Ssbo && st.writes.reorderable(v, &var);
                    (
                        Root::Buffer {
                            res,
                            mode: var.mode,
                            reorder,
                        },
                        z,
                        lt,
                    )
                }
                Mode::PushConst => {
                    let range = m.types.size_of(var.ty);
                    let z =
                        E::new(&mut m.functions[fh], &mut st.pending, at).konst(ValType::U32, 0);
                    (Root::Push { range }, z, var.ty)
                }
                Mode::Shared | Mode::Function | Mode::Private => {
                    let base = st.place(m, v);
                    let lt = m.types.natural_layout(var.ty);
                    let z =
                        E::new(&mut m.functions[fh], &mut st.pending, at).konst(ValType::U32, 0);
                    let root = if var.mode == Mode::Shared {
                        Root::Shared { base }
                    } else {
                        Root::Scratch { base }
                    };
                    (root, z, lt)
                }
                _ => return None,
            }
        }
        DerefKind::Cast { parent, .. } if first.mode == Mode::Global => {
            let pt = m.functions[fh].insts[parent].ty;
            if pt != ValType::U64 {
                return None;
            }
            (Root::Global, parent, first.ty)
        }
        _ => return None,
    };
    let mut off = off;
    for &s in &steps[k..] {
        let dd = deref(&m.functions[fh], s)?.clone();
        let f = &mut m.functions[fh];
        let mut e = E::new(f, &mut st.pending, at);
        match dd.kind {
            DerefKind::Struct { member, .. } => {
                let TypeKind::Struct { members } = m.types.kind(lt) else {
                    return None;
                };
                let mm = *members.get(member as usize)?;
                off = e.add_const(off, mm.offset.unwrap_or(0) as u64);
                lt = mm.ty;
            }
            DerefKind::Array { index, .. } => {
                let stride = m.types.element_stride(lt)?;
                off = match e.f.as_scalar_const(index) {
                    Some(c) => {
                        let c = if e.f.insts[index].ty.bits < 64 {
                            let b = e.f.insts[index].ty.bits;
                            (((c << (64 - b)) as i64) >> (64 - b)) as u64
                        } else {
                            c
                        };
                        e.add_const(off, c.wrapping_mul(stride as u64))
                    }
                    None => e.add_scaled(off, index, stride as u64),
                };
                lt = m.types.element(lt)?;
            }
            DerefKind::PtrAsArray { index, stride, .. } => {
                off = e.add_scaled(off, index, stride as u64);
            }
            DerefKind::Cast { .. } => {
                // A cast within a chain keeps the address and takes the new layout.
                lt = dd.ty;
            }
            DerefKind::Var(_) => return None,
        }
    }
    Some(Addr { root, off, lt })
}

fn lower_function(m: &mut Module, fh: Func, st: &mut State) -> bool {
    let mut progress = false;
    let order = m.functions[fh].insts_in_order();
    let mut rw: SecondaryMap<InstData, Option<Value>> = SecondaryMap::new(None);
    let mut dead: SecondaryMap<InstData, bool> = SecondaryMap::new(false);
    for i in order {
        let (op, srcs, idx) = match &m.functions[fh].insts[i].kind {
            InstKind::Intrinsic { op, srcs, idx } => (*op, srcs.clone(), idx.clone()),
            _ => continue,
        };
        let d = match op {
            Intrinsic::LoadDeref
            | Intrinsic::StoreDeref
            | Intrinsic::DerefAtomic
            | Intrinsic::DerefAtomicSwap
            | Intrinsic::ArrayLengthDeref
            | Intrinsic::InterpDerefAtCentroid
            | Intrinsic::InterpDerefAtSample
            | Intrinsic::InterpDerefAtOffset => srcs[0],
            _ => continue,
        };
        let Some(dd) = deref(&m.functions[fh], d).cloned() else {
            continue;
        };
        let done = match dd.mode {
            Mode::Input | Mode::Output => lower_io(&mut rw, m, fh, st, i, op, &srcs, &idx),
            Mode::Uniform => false,
            _ => lower_mem(&mut rw, m, fh, st, i, op, &srcs, &idx),
        };
        if done {
            dead[i] = true;
            progress = true;
        }
    }
    let f = &mut m.functions[fh];
    f.place_before(&std::mem::take(&mut st.pending));
    if progress {
        f.rewrite_uses(&rw);
        f.remove_all(&dead);
    }
    progress
}

fn lower_mem(
    rw: &mut SecondaryMap<InstData, Option<Value>>,
    m: &mut Module,
    fh: Func,
    st: &mut State,
    i: Inst,
    op: Intrinsic,
    srcs: &[Value],
    idx: &[u32],
) -> bool {
    let Some(a) = addr(m, fh, st, i, srcs[0]) else {
        return false;
    };
    let ty = m.functions[fh].insts[i].ty;
    let types = &m.types;
    let leaf = types.as_vector(a.lt);
    let vstride = match types.kind(a.lt) {
        TypeKind::Vector { stride, .. } => *stride,
        _ => 0,
    };
    let f = &mut m.functions[fh];
    let mut e = E::new(f, &mut st.pending, i);
    let access = |op: Intrinsic| -> u32 {
        match op {
            Intrinsic::LoadDeref => idx[0],
            Intrinsic::StoreDeref | Intrinsic::DerefAtomic => idx[1],
            Intrinsic::DerefAtomicSwap => idx[0],
            _ => 0,
        }
    };
    let acc = access(op);
    // Memory scalar: bools are 32-bit words.
    let (mem_bits, is_bool) = match leaf {
        Some((s, _)) if s.kind == ScalarKind::Bool => (32u8, true),
        Some((s, _)) => (s.bits, false),
        None => (ty.bits.max(8), false),
    };
    let elem_bytes = (mem_bits / 8) as u32;
    let load_at = |e: &mut E, off: Value, vt: ValType| -> Value {
        let align = elem_bytes;
        match a.root {
            Root::Buffer { res, mode, reorder } => {
                if mode == Mode::Ubo {
                    e.intr(Intrinsic::LoadUbo, vt, &[res, off], &[align])
                } else {
                    let acc = if reorder && acc & ACCESS_VOLATILE == 0 {
                        acc | ACCESS_CAN_REORDER
                    } else {
                        acc
                    };
                    e.intr(Intrinsic::LoadSsbo, vt, &[res, off], &[acc, align])
                }
            }
            Root::Push { range } => e.intr(Intrinsic::LoadPushConstant, vt, &[off], &[0, range]),
            Root::Shared { base } => e.intr(Intrinsic::LoadShared, vt, &[off], &[base, align]),
            Root::Scratch { base } => e.intr(Intrinsic::LoadScratch, vt, &[off], &[base, align]),
            Root::Global => e.intr(Intrinsic::LoadGlobal, vt, &[off], &[acc, align]),
        }
    };
    let store_at = |e: &mut E, off: Value, v: Value, mask: u32| -> bool {
        let align = elem_bytes;
        match a.root {
            Root::Buffer {
                res,
                mode: Mode::Ssbo,
                ..
            } => {
                e.intr(
                    Intrinsic::StoreSsbo,
                    ValType::NONE,
                    &[v, res, off],
                    &[mask, acc, align],
                );
            }
            Root::Shared { base } => {
                e.intr(
                    Intrinsic::StoreShared,
                    ValType::NONE,
                    &[v, off],
                    &[base, mask, align],
                );
            }
            Root::Scratch { base } => {
                e.intr(
                    Intrinsic::StoreScratch,
                    ValType::NONE,
                    &[v, off],
                    &[base, mask, align],
                );
            }
            Root::Global => {
                e.intr(
                    Intrinsic::StoreGlobal,
                    ValType::NONE,
                    &[v, off],
                    &[mask, acc, align],
                );
            }
            _ => return false,
        }
        true
    };
    match op {
        Intrinsic::LoadDeref => {
            let comps = ty.comps;
            let mt = ValType::new(mem_bits, comps);
            let raw = if vstride != 0 && comps > 1 {
                let mut parts: SmallVec<[Value; 4]> = SmallVec::new();
                for k in 0..comps {
                    let o = e.add_const(a.off, k as u64 * vstride as u64);
                    parts.push(load_at(&mut e, o, mt.with_comps(1)));
                }
                e.alu(AluOp::Vec, mt, &parts)
            } else {
                load_at(&mut e, a.off, mt)
            };
            let val = if is_bool {
                let z = e.konst(mt, 0);
                e.alu(AluOp::Ine, ty, &[raw, z])
            } else {
                raw
            };
            rw[i] = Some(val);
            true
        }
        Intrinsic::StoreDeref => {
            let v = srcs[1];
            let vt = e.f.insts[v].ty;
            let v = if is_bool {
                e.alu(AluOp::B2i, ValType::new(32, vt.comps), &[v])
            } else {
                v
            };
            let mask = idx[0];
            if vstride != 0 && vt.comps > 1 {
                for k in 0..vt.comps {
                    if mask & (1 << k) == 0 {
                        continue;
                    }
                    let o = e.add_const(a.off, k as u64 * vstride as u64);
                    let c = e.push(
                        InstKind::Swizzle {
                            src: v,
                            comps: smallvec::smallvec![k],
                        },
                        ValType::new(mem_bits, 1),
                    );
                    if !store_at(&mut e, o, c, 1) {
                        return false;
                    }
                }
                true
            } else {
                store_at(&mut e, a.off, v, mask)
            }
        }
        Intrinsic::DerefAtomic | Intrinsic::DerefAtomicSwap => {
            let swap = op == Intrinsic::DerefAtomicSwap;
            let data: SmallVec<[Value; 2]> = srcs[1..].iter().copied().collect();
            let aop = if swap { 0 } else { idx[0] };
            let r = match a.root {
                Root::Buffer {
                    res,
                    mode: Mode::Ssbo,
                    ..
                } => {
                    let mut s: SmallVec<[Value; 4]> = smallvec::smallvec![res, a.off];
                    s.extend(data);
                    if swap {
                        e.intr(Intrinsic::SsboAtomicSwap, ty, &s, &[])
                    } else {
                        e.intr(Intrinsic::SsboAtomic, ty, &s, &[aop])
                    }
                }
                Root::Shared { base } => {
                    let mut s: SmallVec<[Value; 4]> = smallvec::smallvec![a.off];
                    s.extend(data);
                    if swap {
                        e.intr(Intrinsic::SharedAtomicSwap, ty, &s, &[base])
                    } else {
                        e.intr(Intrinsic::SharedAtomic, ty, &s, &[aop, base])
                    }
                }
                Root::Global => {
                    let mut s: SmallVec<[Value; 4]> = smallvec::smallvec![a.off];
                    s.extend(data);
                    if swap {
                        e.intr(Intrinsic::GlobalAtomicSwap, ty, &s, &[])
                    } else {
                        e.intr(Intrinsic::GlobalAtomic, ty, &s, &[aop])
                    }
                }
                _ => return false,
            };
            rw[i] = Some(r);
            true
        }
        Intrinsic::ArrayLengthDeref => {
            let Root::Buffer { res, .. } = a.root else {
                return false;
            };
            let Some(stride) = m.types.element_stride(a.lt) else {
                return false;
            };
            let f = &mut m.functions[fh];
            let mut e = E::new(f, &mut st.pending, i);
            let size = e.intr(Intrinsic::GetSsboSize, ValType::U32, &[res], &[]);
            let rest = e.alu(AluOp::Isub, ValType::U32, &[size, a.off]);
            let s = e.konst(ValType::U32, stride.max(1) as u64);
            let n = e.alu(AluOp::Udiv, ValType::U32, &[rest, s]);
            rw[i] = Some(n);
            true
        }
        _ => false,
    }
}

/// Slots taken by a type in stage I/O.
fn slots(types: &TypeArena, t: Type) -> u32 {
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
        } => *columns as u32 * slots(types, *column),
        TypeKind::Array { elem, len, .. } => len.unwrap_or(1) * slots(types, *elem),
        TypeKind::Struct { members } => members.iter().map(|m| slots(types, m.ty)).sum(),
        _ => 1,
    }
}

fn lower_io(
    rw: &mut SecondaryMap<InstData, Option<Value>>,
    m: &mut Module,
    fh: Func,
    st: &mut State,
    i: Inst,
    op: Intrinsic,
    srcs: &[Value],
    idx: &[u32],
) -> bool {
    let f = &m.functions[fh];
    let steps = chain(f, srcs[0]);
    let Some(v) = root_var(f, srcs[0]) else {
        return false;
    };
    let var = m.vars[v].clone();
    let ty = f.insts[i].ty;
    // Walk: slot offset (constant part + dynamic value), component, current type.
    let mut const_slots = 0u32;
    let mut dyn_slots: Option<Value> = None;
    let mut comp: u32 = var.component;
    let mut lt = var.ty;
    let mut const_indices: SmallVec<[u32; 4]> = SmallVec::new();
    // A dynamically indexed vector component: (index, vector length, vector type).
    let mut dyn_comp: Option<(Value, u32, Type)> = None;
    // A per-vertex fragment input: its outer index is the primitive's vertex, not a slot.
    let mut walk = &steps[1..];
    let mut vertex: Option<Value> = None;
    if var.flags.contains(VarFlags::PER_VERTEX) && var.mode == Mode::Input {
        let Some((&s0, rest)) = walk.split_first() else {
            return false;
        };
        let DerefKind::Array { index, .. } = deref(&m.functions[fh], s0).unwrap().kind else {
            return false;
        };
        let Some(elem) = m.types.element(lt) else {
            return false;
        };
        vertex = Some(index);
        lt = elem;
        walk = rest;
    }
    for &s in walk {
        let dd = deref(&m.functions[fh], s).unwrap().clone();
        match dd.kind {
            DerefKind::Struct { member, .. } => {
                let TypeKind::Struct { members } = m.types.kind(lt).clone() else {
                    return false;
                };
                const_slots += members[..member as usize]
                    .iter()
                    .map(|mm| slots(&m.types, mm.ty))
                    .sum::<u32>();
                lt = members[member as usize].ty;
            }
            DerefKind::Array { index, .. } => {
                let c = m.functions[fh].as_scalar_const(index);
                if let TypeKind::Vector { len, .. } = m.types.kind(lt) {
                    let Some(c) = c else {
                        // A dynamic component: load the whole vector, select below.
                        if dyn_comp.is_some() || var.builtin.is_some() {
                            return false;
                        }
                        dyn_comp = Some((index, *len as u32, lt));
                        const_indices.push(u32::MAX);
                        lt = m.types.element(lt).unwrap();
                        continue;
                    };
                    comp += c as u32;
                    const_indices.push(c as u32);
                    lt = m.types.element(lt).unwrap();
                    continue;
                }
                let Some(elem) = m.types.element(lt) else {
                    return false;
                };
                let es = slots(&m.types, elem);
                match c {
                    Some(c) => {
                        const_slots += c as u32 * es;
                        const_indices.push(c as u32);
                    }
                    None => {
                        let f = &mut m.functions[fh];
                        let mut e = E::new(f, &mut st.pending, i);
                        let base = match dyn_slots {
                            Some(d) => d,
                            None => e.konst(ValType::U32, 0),
                        };
                        dyn_slots = Some(e.add_scaled(base, index, es as u64));
                        const_indices.push(u32::MAX);
                    }
                }
                lt = elem;
            }
            _ => return false,
        }
    }
    let f = &mut m.functions[fh];
    let mut e = E::new(f, &mut st.pending, i);
    let offset = match dyn_slots {
        Some(d) => e.add_const(d, const_slots as u64),
        None => e.konst(ValType::U32, const_slots as u64),
    };
    if let Some(b) = var.builtin {
        if var.mode == Mode::Input {
            if op != Intrinsic::LoadDeref {
                return false;
            }
            let Some(sv) = sysval(b) else {
                if b == Builtin::WorkgroupSize {
                    let [x, y, z] = m.local_size;
                    let c = e.push(
                        InstKind::Const(smallvec::smallvec![x as u64, y as u64, z as u64]),
                        ValType::new(32, 3),
                    );
                    let r = pick(&mut e, c, &const_indices, &m.types, var.ty, ty);
                    return match r {
                        Some(r) => {
                            rw[i] = Some(r);
                            true
                        }
                        None => false,
                    };
                }
                return false;
            };
            let Some(full_ty) = m.types.value_type(leaf_of(&m.types, var.ty)) else {
                return false;
            };
            let full = e.intr(sv, full_ty, &[], &[]);
            let Some(r) = pick(&mut e, full, &const_indices, &m.types, var.ty, ty) else {
                return false;
            };
            rw[i] = Some(r);
            return true;
        }
        // Built-in output.
        if op != Intrinsic::StoreDeref {
            return false;
        }
        let Some(slot) = builtin_slot(b) else {
            return false;
        };
        // Arrays of scalars (clip distances, sample mask): 4 per slot.
        let (slot, comp) = match (m.types.kind(var.ty), const_indices.first()) {
            (TypeKind::Array { .. }, Some(&c)) if c != u32::MAX => (slot + c / 4, c % 4),
            (TypeKind::Array { .. }, Some(_)) => return false,
            _ => (slot, comp),
        };
        let z = e.konst(ValType::U32, 0);
        e.intr(
            Intrinsic::StoreOutput,
            ValType::NONE,
            &[srcs[1], z],
            &[slot, comp, idx[0]],
        );
        return true;
    }
    let Some(mut loc) = var.location else {
        return false;
    };
    if var.index != 0 {
        // Dual-source blending: Index 1 exists only on fragment output location 0
        // (Vulkan's Index rule); anything else stays unlowered and is refused.
        if var.index != 1 || loc != 0 || var.mode != Mode::Output || m.stage != Stage::Fragment {
            return false;
        }
        loc = DUAL_SOURCE_SLOT;
    }
    // Stage I/O lives in per-slot registers, so a dynamic vector component cannot be
    // an address: a load reads the whole vector and selects the component with a bcsel
    // chain on the index (as NIR does for indirect I/O). A store would need one
    // conditional store per component and is not lowered.
    let load_ty = match dyn_comp {
        None => ty,
        Some((_, len, vt)) => {
            if var.mode != Mode::Input || op == Intrinsic::StoreDeref || ty.comps != 1 {
                return false;
            }
            match m.types.value_type(vt) {
                Some(vty) if vty.bits == ty.bits && vty.comps as u32 == len => vty,
                _ => return false,
            }
        }
    };
    match (var.mode, op) {
        (Mode::Output, Intrinsic::StoreDeref) => {
            e.intr(
                Intrinsic::StoreOutput,
                ValType::NONE,
                &[srcs[1], offset],
                &[loc, comp, idx[0]],
            );
            true
        }
        (Mode::Input, Intrinsic::LoadDeref) if vertex.is_some() => {
            let vtx = vertex.expect("checked");
            let load = |e: &mut E, v: Value| {
                e.intr(
                    Intrinsic::LoadInputVertex,
                    load_ty,
                    &[v, offset],
                    &[loc, comp],
                )
            };
            // a dynamic vertex index loads all three and selects (the hardware reads a
            // vertex named in the instruction)
            let mut r = if e.f.as_scalar_const(vtx).is_some() {
                load(&mut e, vtx)
            } else {
                let it = e.f.insts[vtx].ty;
                let mut r = {
                    let k = e.konst(it, 2);
                    load(&mut e, k)
                };
                for v in (0..2).rev() {
                    let k = e.konst(it, v);
                    let x = load(&mut e, k);
                    let mut eq = e.alu(AluOp::Ieq, ValType::B1, &[vtx, k]);
                    if load_ty.comps > 1 {
                        // bcsel selects per component: one condition for each
                        let n = load_ty.comps as usize;
                        eq = e.alu(AluOp::Vec, ValType::new(1, load_ty.comps), &vec![eq; n]);
                    }
                    r = e.alu(AluOp::Bcsel, load_ty, &[eq, x, r]);
                }
                r
            };
            if let Some((index, len, _)) = dyn_comp {
                r = select_component(&mut e, r, index, len, ty);
            }
            rw[i] = Some(r);
            true
        }
        (Mode::Input, _) if vertex.is_some() => false,
        (Mode::Input, _) => {
            let interp = if var.flags.contains(VarFlags::NOPERSPECTIVE) {
                Interp::NoPerspective
            } else {
                Interp::Smooth
            };
            let flat = var.flags.contains(VarFlags::FLAT)
                || m.stage != Stage::Fragment
                || matches!(
                    m.types.as_vector(lt),
                    Some((s, _)) if s.kind != ScalarKind::Float
                );
            let bary = match op {
                Intrinsic::LoadDeref if flat => None,
                Intrinsic::LoadDeref => {
                    let b = if var.flags.contains(VarFlags::SAMPLE) {
                        Intrinsic::LoadBarycentricSample
                    } else if var.flags.contains(VarFlags::CENTROID) {
                        Intrinsic::LoadBarycentricCentroid
                    } else {
                        Intrinsic::LoadBarycentricPixel
                    };
                    Some(e.intr(b, ValType::new(32, 2), &[], &[interp as u32]))
                }
                Intrinsic::InterpDerefAtCentroid => Some(e.intr(
                    Intrinsic::LoadBarycentricCentroid,
                    ValType::new(32, 2),
                    &[],
                    &[interp as u32],
                )),
                Intrinsic::InterpDerefAtSample => Some(e.intr(
                    Intrinsic::LoadBarycentricAtSample,
                    ValType::new(32, 2),
                    &[srcs[1]],
                    &[interp as u32],
                )),
                Intrinsic::InterpDerefAtOffset => Some(e.intr(
                    Intrinsic::LoadBarycentricAtOffset,
                    ValType::new(32, 2),
                    &[srcs[1]],
                    &[interp as u32],
                )),
                _ => return false,
            };
            let mut r = match bary {
                None => e.intr(Intrinsic::LoadInput, load_ty, &[offset], &[loc, comp]),
                Some(b) => e.intr(
                    Intrinsic::LoadInterpolatedInput,
                    load_ty,
                    &[b, offset],
                    &[loc, comp],
                ),
            };
            if let Some((index, len, _)) = dyn_comp {
                r = select_component(&mut e, r, index, len, ty);
            }
            rw[i] = Some(r);
            true
        }
        _ => false,
    }
}

/// Component `index` of the `len`-component vector `full`: the last component, then
/// `bcsel(index == c, full.c, …)` for each lower `c` (an out-of-range index, undefined
/// in SPIR-V, reads the last component).
fn select_component(e: &mut E, full: Value, index: Value, len: u32, ty: ValType) -> Value {
    let swz = |e: &mut E, c: u32| {
        e.push(
            InstKind::Swizzle {
                src: full,
                comps: smallvec::smallvec![c as u8],
            },
            ty,
        )
    };
    let it = e.f.insts[index].ty;
    let mut r = swz(e, len - 1);
    for c in (0..len - 1).rev() {
        let x = swz(e, c);
        let k = e.konst(it, c as u64);
        let eq = e.alu(AluOp::Ieq, ValType::B1, &[index, k]);
        r = e.alu(AluOp::Bcsel, ty, &[eq, x, r]);
    }
    r
}

/// The scalar/vector leaf of a built-in's type (through one array level).
fn leaf_of(types: &TypeArena, t: Type) -> Type {
    match types.kind(t) {
        TypeKind::Array { elem, .. } => *elem,
        _ => t,
    }
}

/// Selects what a built-in input chain reads from the full system value.
fn pick(
    e: &mut E,
    full: Value,
    indices: &[u32],
    types: &TypeArena,
    var_ty: Type,
    want: ValType,
) -> Option<Value> {
    let is_array = matches!(types.kind(var_ty), TypeKind::Array { .. });
    let mut ix = indices.iter();
    if is_array {
        // Arrays of one (sample mask): element 0 only.
        if *ix.next()? != 0 {
            return None;
        }
    }
    match ix.next() {
        None => (e.f.insts[full].ty == want).then_some(full),
        Some(&c) if c != u32::MAX => Some(e.push(
            InstKind::Swizzle {
                src: full,
                comps: smallvec::smallvec![c as u8],
            },
            want,
        )),
        _ => None,
    }
}

/// The first deref-based memory access the pass could not lower (an unsupported shape:
/// reading back an output, a dynamic component of an output vector, a cast of a 32-bit
/// address, …), as an error naming the instruction. Image and sampler accesses are
/// expected to remain and are not reported.
pub fn unlowered(m: &Module) -> Option<VerifyError> {
    for (_, f) in m.functions.iter() {
        for i in f.insts_in_order() {
            let InstKind::Intrinsic { op, srcs, .. } = &f.insts[i].kind else {
                continue;
            };
            let memory_op = matches!(
                op,
                Intrinsic::LoadDeref
                    | Intrinsic::StoreDeref
                    | Intrinsic::DerefAtomic
                    | Intrinsic::DerefAtomicSwap
                    | Intrinsic::ArrayLengthDeref
                    | Intrinsic::InterpDerefAtCentroid
                    | Intrinsic::InterpDerefAtSample
                    | Intrinsic::InterpDerefAtOffset
            );
            if !memory_op {
                continue;
            }
            if let Some(d) = deref(f, srcs[0]) {
                if d.mode != Mode::Uniform {
                    return Some(VerifyError {
                        func: f.name.clone(),
                        inst: crate::ir::print::describe(m, f, i),
                        msg: format!(
                            "{} memory access left unlowered (unsupported shape)",
                            d.mode.name()
                        ),
                    });
                }
            }
        }
    }
    None
}
