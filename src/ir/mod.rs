//! The gcnc IR: NIR-like SSA over a structured control-flow tree, with memory accessed
//! through derefs that carry explicit layout.
//!
//! # Shape
//! A [`Module`] owns the interned [`TypeArena`], every [`Variable`] (globals and function
//! locals share one arena so a deref names its variable by one handle) and the
//! [`Function`]s. A function owns two arenas — instructions and blocks — and a CF tree
//! `body: Vec<CfNode>`. A CF list alternates blocks and control nodes, starting and ending
//! with a block: `block (if|loop block)*`. The block after an `if` is its merge block; the
//! block before a `loop` is its preheader and the first block of the loop body is its header.
//!
//! # Values
//! An instruction is its own SSA value (`Value = Handle<InstData>`), NIR style: at most one
//! result, with a [`ValType`] of bit size ∈ {1, 8, 16, 32, 64} and component count ∈
//! {1..4, 8, 16}; instructions without a result have [`ValType::NONE`]. Values are typeless
//! bit patterns; the op decides how they are read.
//!
//! # Invariants (checked by [`verify::verify_module`])
//! * CF lists alternate as above; a block ending in a jump (`break`/`continue`/`return`) is
//!   the last node of its list; `break`/`continue` only inside a loop.
//! * Phis come first in their block and have exactly one source per reachable CFG
//!   predecessor (a source for an unreachable predecessor is optional), and no others.
//! * Every use is dominated by its definition (a phi source by the end of its predecessor).
//! * Every live instruction's `block` is the block whose list holds it.
//! * Operand types obey the op tables in [`ops`]; derefs chain type-correctly and keep
//!   their parent's mode.
//!
//! Removing an instruction detaches it from its block (its arena slot stays, `block` becomes
//! `None`); handles are never reused, so side tables indexed by handle stay valid.

pub mod builder;
pub mod cfg;
pub mod eval;
pub mod f16;
pub mod func;
pub mod handle;
pub mod interp;
pub mod ops;
pub mod parse;
pub mod print;
pub mod types;
pub mod verify;
pub mod visit;

pub use builder::Builder;
pub use cfg::Cfg;
pub use handle::{Arena, Handle, SecondaryMap};
pub use ops::{
    AluOp, AtomicOp, Descriptor, Div, IdxKind, Interp, Intrinsic, JumpKind, ReduceOp, Shape, TexOp,
    TexSrc,
};
pub use parse::{parse_module, ParseError};
pub use print::{print_module, print_module_annotated};
pub use types::{Dim, ImageType, Member, Mode, Scalar, ScalarKind, Type, TypeArena, TypeKind};
pub use verify::{verify_module, VerifyError};

pub use smallvec::SmallVec;
use std::fmt;

/// Bit size and component count of an SSA value. `bits == 0` means "no value".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct ValType {
    pub bits: u8,
    pub comps: u8,
}

impl ValType {
    pub const NONE: ValType = ValType { bits: 0, comps: 0 };
    pub const B1: ValType = ValType { bits: 1, comps: 1 };
    pub const U32: ValType = ValType { bits: 32, comps: 1 };
    pub const U64: ValType = ValType { bits: 64, comps: 1 };
    #[inline]
    pub const fn new(bits: u8, comps: u8) -> Self {
        ValType { bits, comps }
    }
    #[inline]
    pub fn is_none(self) -> bool {
        self.bits == 0
    }
    /// Same bit size, `comps` components.
    #[inline]
    pub fn with_comps(self, comps: u8) -> Self {
        ValType { comps, ..self }
    }
    /// Whether this is a legal SSA value type (5 components only for a sparse read's
    /// texel plus residency code).
    pub fn is_valid(self) -> bool {
        matches!(self.bits, 1 | 8 | 16 | 32 | 64) && matches!(self.comps, 1..=5 | 8 | 16)
    }
    /// Mask of the low `bits` bits.
    #[inline]
    pub fn mask(self) -> u64 {
        if self.bits >= 64 {
            u64::MAX
        } else {
            (1u64 << self.bits) - 1
        }
    }
}

impl fmt::Display for ValType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.bits, self.comps)
    }
}

/// An instruction, and the SSA value it defines.
pub type Value = Handle<InstData>;
/// Alias of [`Value`] used where the instruction, not its result, is meant.
pub type Inst = Value;
/// A basic block.
pub type Block = Handle<BlockData>;
/// A variable (global or function-local).
pub type Var = Handle<Variable>;
/// A function.
pub type Func = Handle<Function>;

/// A deref: one step of an access chain. Its result type and mode travel with it, so
/// lowering reads offsets and strides from the chain alone.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Deref {
    pub kind: DerefKind,
    /// The type pointed to, with the layout it was declared with.
    pub ty: Type,
    pub mode: Mode,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DerefKind {
    /// The root of a chain: a variable.
    Var(Var),
    /// Element `index` of an array, matrix column or vector component.
    Array { parent: Value, index: Value },
    /// Member `member` of a struct.
    Struct { parent: Value, member: u32 },
    /// `parent` treated as the first element of an array of `stride`-byte elements
    /// (SPIR-V OpPtrAccessChain).
    PtrAsArray {
        parent: Value,
        index: Value,
        stride: u32,
    },
    /// Reinterpretation of a pointer or a deref (`parent` is a deref or a 64-bit address).
    /// `stride` is the pointer's ArrayStride (0 if none), `align` its known alignment.
    Cast {
        parent: Value,
        stride: u32,
        align: u32,
    },
}

impl DerefKind {
    pub fn parent(&self) -> Option<Value> {
        match *self {
            DerefKind::Var(_) => None,
            DerefKind::Array { parent, .. }
            | DerefKind::Struct { parent, .. }
            | DerefKind::PtrAsArray { parent, .. }
            | DerefKind::Cast { parent, .. } => Some(parent),
        }
    }
}

/// `access` bits the front-end sets on loads and stores (docs/front.md): SPIR-V
/// `Volatile`, `Nontemporal`, and an atomic load or store (`OpAtomicLoad`/`OpAtomicStore`).
pub const ACCESS_VOLATILE: u32 = 0x1;
pub const ACCESS_NONTEMPORAL: u32 = 0x2;
pub const ACCESS_ATOMIC: u32 = 0x4;

/// `access` bit of `image_deref_load` / `image_load`: a sparse-residency read
/// (`OpImageSparseRead`), whose result has one more 32-bit component after the texel's,
/// the residency code (0 = resident), as a sparse [`Tex`] has.
pub const ACCESS_SPARSE: u32 = 0x8;

/// `access` bit of `load_ssbo` (set by `lower_explicit_io`, NIR's `ACCESS_CAN_REORDER`):
/// no write of this dispatch can reach the loaded bytes and the load is not volatile, so
/// the load may be moved, merged or served from the scalar cache (which vector stores do
/// not update). Set when the variable is `NonWritable`, or is `Restrict` and never
/// written, or when the module writes no buffer, global memory or image at all (in Vulkan
/// buffers and images may alias one another); never for `Volatile` or `Coherent`
/// variables or volatile loads.
pub const ACCESS_CAN_REORDER: u32 = 0x10;

/// A texture instruction: operation, image shape and named sources.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Tex {
    pub op: TexOp,
    pub dim: Dim,
    pub arrayed: bool,
    pub shadow: bool,
    /// Gather component (0..3).
    pub component: u8,
    /// A sparse-residency read (`OpImageSparse*`): the result has one more 32-bit
    /// component after the texel's, the residency code (0 = every texel resident).
    pub sparse: bool,
    pub srcs: SmallVec<[(TexSrc, Value); 4]>,
}

impl Tex {
    pub fn src(&self, which: TexSrc) -> Option<Value> {
        self.srcs.iter().find(|(s, _)| *s == which).map(|&(_, v)| v)
    }
}

/// What an instruction does.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum InstKind {
    /// One raw bit pattern per component (low `bits` bits significant, rest zero).
    Const(SmallVec<[u64; 4]>),
    Undef,
    Alu {
        op: AluOp,
        srcs: SmallVec<[Value; 3]>,
    },
    /// Components of `src` picked by index (an extract when there is one).
    Swizzle {
        src: Value,
        comps: SmallVec<[u8; 4]>,
    },
    /// One source per predecessor block.
    Phi(SmallVec<[(Block, Value); 2]>),
    Deref(Deref),
    Intrinsic {
        op: Intrinsic,
        srcs: SmallVec<[Value; 4]>,
        idx: SmallVec<[u32; 4]>,
    },
    Tex(Box<Tex>),
    Call {
        func: Func,
        args: SmallVec<[Value; 4]>,
    },
    /// Ends a block: break / continue / return (with the returned value, if any).
    Jump(JumpKind, Option<Value>),
}

impl InstKind {
    /// Calls `f` on every value operand, in order.
    pub fn for_each_operand(&self, mut f: impl FnMut(Value)) {
        match self {
            InstKind::Const(_) | InstKind::Undef => {}
            InstKind::Alu { srcs, .. } => srcs.iter().for_each(|&v| f(v)),
            InstKind::Swizzle { src, .. } => f(*src),
            InstKind::Phi(srcs) => srcs.iter().for_each(|&(_, v)| f(v)),
            InstKind::Deref(d) => match d.kind {
                DerefKind::Var(_) => {}
                DerefKind::Array { parent, index }
                | DerefKind::PtrAsArray { parent, index, .. } => {
                    f(parent);
                    f(index)
                }
                DerefKind::Struct { parent, .. } | DerefKind::Cast { parent, .. } => f(parent),
            },
            InstKind::Intrinsic { srcs, .. } => srcs.iter().for_each(|&v| f(v)),
            InstKind::Tex(t) => t.srcs.iter().for_each(|&(_, v)| f(v)),
            InstKind::Call { args, .. } => args.iter().for_each(|&v| f(v)),
            InstKind::Jump(_, v) => {
                if let Some(v) = v {
                    f(*v)
                }
            }
        }
    }
    /// Calls `f` on every value operand, allowing it to be replaced.
    pub fn for_each_operand_mut(&mut self, mut f: impl FnMut(&mut Value)) {
        match self {
            InstKind::Const(_) | InstKind::Undef => {}
            InstKind::Alu { srcs, .. } => srcs.iter_mut().for_each(f),
            InstKind::Swizzle { src, .. } => f(src),
            InstKind::Phi(srcs) => srcs.iter_mut().for_each(|(_, v)| f(v)),
            InstKind::Deref(d) => match &mut d.kind {
                DerefKind::Var(_) => {}
                DerefKind::Array { parent, index }
                | DerefKind::PtrAsArray { parent, index, .. } => {
                    f(parent);
                    f(index)
                }
                DerefKind::Struct { parent, .. } | DerefKind::Cast { parent, .. } => f(parent),
            },
            InstKind::Intrinsic { srcs, .. } => srcs.iter_mut().for_each(f),
            InstKind::Tex(t) => t.srcs.iter_mut().for_each(|(_, v)| f(v)),
            InstKind::Call { args, .. } => args.iter_mut().for_each(f),
            InstKind::Jump(_, v) => {
                if let Some(v) = v {
                    f(v)
                }
            }
        }
    }
    pub fn is_phi(&self) -> bool {
        matches!(self, InstKind::Phi(_))
    }
    pub fn is_jump(&self) -> bool {
        matches!(self, InstKind::Jump(..))
    }
    /// Whether the instruction may be deleted when its value is unused.
    pub fn can_eliminate(&self) -> bool {
        match self {
            InstKind::Intrinsic { op, .. } => op.flags() & ops::flags::ELIM != 0,
            InstKind::Call { .. } | InstKind::Jump(..) => false,
            _ => true,
        }
    }
    /// Whether two instances with equal operands compute the same value anywhere the first
    /// dominates (CSE-able).
    pub fn can_reorder(&self) -> bool {
        match self {
            InstKind::Intrinsic { op, .. } => op.flags() & ops::flags::REORDER != 0,
            InstKind::Tex(t) => {
                !matches!(t.op, TexOp::Sample | TexOp::SampleBias | TexOp::QueryLod)
            }
            InstKind::Call { .. } | InstKind::Jump(..) | InstKind::Phi(_) | InstKind::Undef => {
                false
            }
            _ => true,
        }
    }
}

/// An instruction in the function's arena.
#[derive(Clone, Debug)]
pub struct InstData {
    pub kind: InstKind,
    /// Result type ([`ValType::NONE`] when there is no result).
    pub ty: ValType,
    /// The block holding the instruction; `None` once removed.
    pub block: Option<Block>,
    /// An ALU result the source marked `NoContraction` (GLSL `precise`; NIR's `exact`):
    /// it must be computed as written, so `passes::fuse_multiply_add` never fuses it into
    /// (or with) a multiply-add. Printed as `exact` before the op. False elsewhere.
    pub exact: bool,
}

/// A basic block: an ordered list of instructions (phis first, at most one jump last).
#[derive(Clone, Debug, Default)]
pub struct BlockData {
    pub insts: Vec<Inst>,
}

/// Hint carried by an `if` (SPIR-V SelectionControl) or a `loop` (LoopControl).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Control {
    #[default]
    None,
    /// `flatten` on an if, `unroll` on a loop.
    Prefer,
    /// `dont_flatten` / `dont_unroll`.
    Avoid,
}

/// A node of the structured control-flow tree.
#[derive(Clone, Debug)]
pub enum CfNode {
    Block(Block),
    If {
        cond: Value,
        then_body: Vec<CfNode>,
        else_body: Vec<CfNode>,
        control: Control,
    },
    Loop {
        body: Vec<CfNode>,
        control: Control,
    },
}

impl CfNode {
    pub fn as_block(&self) -> Option<Block> {
        match self {
            CfNode::Block(b) => Some(*b),
            _ => None,
        }
    }
}

/// A function: arenas of instructions and blocks, and the CF tree over the blocks.
#[derive(Clone, Debug)]
pub struct Function {
    pub name: String,
    /// Parameter value types; parameter `i` is read with `load_param index=i`.
    pub params: Vec<ValType>,
    /// Return value type ([`ValType::NONE`] for void).
    pub ret: ValType,
    /// Function-mode variables owned by this function.
    pub locals: Vec<Var>,
    pub insts: Arena<InstData>,
    pub blocks: Arena<BlockData>,
    pub body: Vec<CfNode>,
    /// The last CFG [`Cfg::of`] built, with the shape it was built from: not part of the
    /// function's meaning (a stale entry is never used, see [`cfg::CfgCache`]).
    pub(crate) cfg_cache: cfg::CfgCache,
}

bitflags::bitflags! {
    /// Variable decorations that do not affect layout.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
    pub struct VarFlags: u32 {
        const FLAT = 1 << 0;
        const NOPERSPECTIVE = 1 << 1;
        const CENTROID = 1 << 2;
        const SAMPLE = 1 << 3;
        const NON_WRITABLE = 1 << 4;
        const NON_READABLE = 1 << 5;
        const COHERENT = 1 << 6;
        const VOLATILE = 1 << 7;
        const RESTRICT = 1 << 8;
        const INVARIANT = 1 << 9;
        const PATCH = 1 << 10;
        /// `PerVertexKHR` (GLSL `pervertexEXT`): a fragment input array whose index
        /// is the vertex of the primitive, read raw, never interpolated.
        const PER_VERTEX = 1 << 11;
    }
}

impl VarFlags {
    pub const NAMES: [(VarFlags, &'static str); 12] = [
        (VarFlags::FLAT, "flat"),
        (VarFlags::NOPERSPECTIVE, "noperspective"),
        (VarFlags::CENTROID, "centroid"),
        (VarFlags::SAMPLE, "sample"),
        (VarFlags::NON_WRITABLE, "non_writable"),
        (VarFlags::NON_READABLE, "non_readable"),
        (VarFlags::COHERENT, "coherent"),
        (VarFlags::VOLATILE, "volatile"),
        (VarFlags::RESTRICT, "restrict"),
        (VarFlags::INVARIANT, "invariant"),
        (VarFlags::PATCH, "patch"),
        (VarFlags::PER_VERTEX, "per_vertex"),
    ];
}

macro_rules! builtins {
    ($($v:ident $name:literal,)*) => {
        /// SPIR-V BuiltIn decorations a variable may carry.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Builtin { $($v,)* }
        impl Builtin {
            pub const ALL: &'static [Builtin] = &[$(Builtin::$v,)*];
            pub fn name(self) -> &'static str { match self { $(Builtin::$v => $name,)* } }
            pub fn from_name(s: &str) -> Option<Builtin> {
                Builtin::ALL.iter().copied().find(|b| b.name() == s)
            }
        }
    };
}

builtins! {
    Position "position", PointSize "point_size", ClipDistance "clip_distance",
    CullDistance "cull_distance", VertexIndex "vertex_index", InstanceIndex "instance_index",
    BaseVertex "base_vertex", BaseInstance "base_instance", DrawIndex "draw_index",
    FragCoord "frag_coord", FrontFacing "front_facing", PointCoord "point_coord",
    BaryCoord "bary_coord", BaryCoordNoPersp "bary_coord_no_persp", ShadingRate "shading_rate",
    SampleId "sample_id", SamplePosition "sample_position", SampleMask "sample_mask",
    FragDepth "frag_depth", FragStencilRef "frag_stencil_ref", HelperInvocation "helper_invocation",
    Layer "layer", ViewportIndex "viewport_index", ViewIndex "view_index",
    PrimitiveShadingRate "primitive_shading_rate", PrimitiveId "primitive_id",
    NumWorkgroups "num_workgroups", WorkgroupId "workgroup_id",
    LocalInvocationId "local_invocation_id", GlobalInvocationId "global_invocation_id",
    LocalInvocationIndex "local_invocation_index", WorkgroupSize "workgroup_size",
    SubgroupSize "subgroup_size", SubgroupId "subgroup_id", NumSubgroups "num_subgroups",
    SubgroupLocalInvocationId "subgroup_invocation", SubgroupEqMask "subgroup_eq_mask",
    SubgroupGeMask "subgroup_ge_mask", SubgroupGtMask "subgroup_gt_mask",
    SubgroupLeMask "subgroup_le_mask", SubgroupLtMask "subgroup_lt_mask",
}

/// A variable: a typed piece of memory of some mode, with its decorations.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Variable {
    pub name: Option<String>,
    /// The variable's type, with explicit layout for explicitly laid out modes.
    pub ty: Type,
    pub mode: Mode,
    /// (descriptor set, binding) for Ubo/Ssbo/Uniform variables.
    pub binding: Option<(u32, u32)>,
    /// Location for Input/Output variables (and `component` within it).
    pub location: Option<u32>,
    pub component: u32,
    pub builtin: Option<Builtin>,
    /// Index for dual-source blending outputs.
    pub index: u32,
    pub flags: VarFlags,
}

impl Variable {
    pub fn new(ty: Type, mode: Mode) -> Self {
        Variable {
            name: None,
            ty,
            mode,
            binding: None,
            location: None,
            component: 0,
            builtin: None,
            index: 0,
            flags: VarFlags::empty(),
        }
    }
}

/// Shader stage.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stage {
    Compute,
    Vertex,
    Fragment,
}

impl Stage {
    pub fn name(self) -> &'static str {
        match self {
            Stage::Compute => "compute",
            Stage::Vertex => "vertex",
            Stage::Fragment => "fragment",
        }
    }
    pub fn from_name(s: &str) -> Option<Stage> {
        Some(match s {
            "compute" => Stage::Compute,
            "vertex" => Stage::Vertex,
            "fragment" => Stage::Fragment,
            _ => return None,
        })
    }
}

bitflags::bitflags! {
    /// Execution modes that matter to the back-end.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
    pub struct ExecFlags: u32 {
        const ORIGIN_UPPER_LEFT = 1 << 0;
        const EARLY_FRAGMENT_TESTS = 1 << 1;
        const DEPTH_REPLACING = 1 << 2;
        const DEPTH_GREATER = 1 << 3;
        const DEPTH_LESS = 1 << 4;
        const DEPTH_UNCHANGED = 1 << 5;
        const PIXEL_CENTER_INTEGER = 1 << 6;
        const DERIVATIVE_GROUP_QUADS = 1 << 7;
        const DERIVATIVE_GROUP_LINEAR = 1 << 8;
    }
}

impl ExecFlags {
    pub const NAMES: [(ExecFlags, &'static str); 9] = [
        (ExecFlags::ORIGIN_UPPER_LEFT, "origin_upper_left"),
        (ExecFlags::EARLY_FRAGMENT_TESTS, "early_fragment_tests"),
        (ExecFlags::DEPTH_REPLACING, "depth_replacing"),
        (ExecFlags::DEPTH_GREATER, "depth_greater"),
        (ExecFlags::DEPTH_LESS, "depth_less"),
        (ExecFlags::DEPTH_UNCHANGED, "depth_unchanged"),
        (ExecFlags::PIXEL_CENTER_INTEGER, "pixel_center_integer"),
        (ExecFlags::DERIVATIVE_GROUP_QUADS, "derivative_group_quads"),
        (
            ExecFlags::DERIVATIVE_GROUP_LINEAR,
            "derivative_group_linear",
        ),
    ];
}

/// A shader module: one entry point and the functions it calls.
/// The most invocations a compute workgroup may have on every AMD generation (the Vulkan
/// maxComputeWorkGroupInvocations RADV reports).
pub const MAX_WORKGROUP_INVOCATIONS: u64 = 1024;

/// Whether a workgroup size is one the hardware runs: every size at least 1 and their
/// product at most [`MAX_WORKGROUP_INVOCATIONS`] (multiplied in 64 bits with overflow
/// checks: three 32-bit sizes can exceed even those).
pub fn valid_workgroup_size(dims: [u32; 3]) -> bool {
    matches!(
        dims.iter().try_fold(1u64, |a, &d| a.checked_mul(d as u64)),
        Some(1..=MAX_WORKGROUP_INVOCATIONS)
    )
}

#[derive(Clone, Debug)]
pub struct Module {
    pub stage: Stage,
    pub local_size: [u32; 3],
    pub exec_flags: ExecFlags,
    pub types: TypeArena,
    pub vars: Arena<Variable>,
    /// Non-function variables, in declaration order.
    pub globals: Vec<Var>,
    pub functions: Arena<Function>,
    /// The entry point (set by the front-end / parser).
    pub entry: Option<Func>,
    /// Bytes of workgroup-shared memory (set by `lower_explicit_io`).
    pub shared_size: u32,
    /// Bytes of per-invocation scratch memory (set by `lower_explicit_io`).
    pub scratch_size: u32,
    /// Read-only data of the shader, read by `load_constant` (set by
    /// `lower_large_constants`; the back-end places it after the code).
    pub constant_data: Vec<u8>,
}

impl Module {
    pub fn new(stage: Stage) -> Self {
        Module {
            stage,
            local_size: [1, 1, 1],
            exec_flags: ExecFlags::empty(),
            types: TypeArena::new(),
            vars: Arena::new(),
            globals: Vec::new(),
            functions: Arena::new(),
            entry: None,
            shared_size: 0,
            scratch_size: 0,
            constant_data: Vec::new(),
        }
    }
    /// Adds a global (non-function) variable.
    pub fn add_global(&mut self, var: Variable) -> Var {
        debug_assert!(var.mode != Mode::Function);
        let v = self.vars.alloc(var);
        self.globals.push(v);
        v
    }
    /// Adds a function-mode variable owned by `func`.
    pub fn add_local(&mut self, func: Func, var: Variable) -> Var {
        debug_assert!(var.mode == Mode::Function);
        let v = self.vars.alloc(var);
        self.functions[func].locals.push(v);
        v
    }
    /// Adds an empty function (one empty block) and returns it.
    pub fn add_function(&mut self, name: &str, params: Vec<ValType>, ret: ValType) -> Func {
        self.functions.alloc(Function::new(name, params, ret))
    }
    /// The entry point's function; `None` for a module without one (IR text need not
    /// mark an `entry fn`: such a module can be printed and transformed, not compiled).
    pub fn entry_function(&self) -> Option<&Function> {
        self.entry.map(|e| &self.functions[e])
    }
}
