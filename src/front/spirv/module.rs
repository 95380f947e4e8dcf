//! Module-level facts: capabilities, entry points, decorations, types, constants and the
//! shape of each function, gathered in one pass over the instruction list before any code
//! is translated.
//!
//! Every id read from the binary is range-checked against the header's bound and looked up
//! in [`Spv::defs`] before use; a missing or wrong-kind definition is an `ErrorKind::BadId`
//! at the instruction that used it. SPIR-V types become interned IR types *with* their
//! layout decorations (Offset, ArrayStride, MatrixStride, RowMajor); a member's matrix
//! layout is pushed down into the member type, through arrays of matrices. Constants —
//! including specialization constants after applying the caller's specialization map, and
//! `OpSpecConstantOp` evaluated by [`crate::ir::eval::eval_alu`] — become
//! [`CVal`] trees of raw bit patterns.

use super::super::{Error, ErrorKind};
use super::alu_map::{spirv_alu, AluMap};
use super::parse::{Inst, NEW_CAPABILITIES};
use super::Options;
use crate::ir::{Dim, ImageType, Member, Mode, Scalar, ScalarKind, Type, TypeArena, ValType};
use rspirv::dr::Operand;
use rspirv::spirv::{self, Capability, Decoration, Op, StorageClass};
use std::collections::{BTreeMap, BTreeSet};

/// A SPIR-V type, as declared.
#[derive(Clone, Debug, PartialEq)]
pub enum SType {
    Void,
    Bool,
    Int { bits: u8, signed: bool },
    Float { bits: u8 },
    Vector { elem: u32, n: u8 },
    Matrix { col: u32, n: u8 },
    Array { elem: u32, len: u32 },
    RuntimeArray { elem: u32 },
    Struct { members: Vec<u32> },
    Image(ImageType),
    Sampler,
    SampledImage { image: u32 },
    Pointer { sc: StorageClass, pointee: u32 },
    Function { ret: u32, params: Vec<u32> },
}

/// A constant: one raw bit pattern per scalar leaf.
#[derive(Clone, Debug, PartialEq)]
pub enum CVal {
    S(u64),
    Undef,
    C(Vec<CVal>),
}

/// What an id names.
#[derive(Clone, Debug, Default)]
pub enum Def {
    #[default]
    None,
    Type(SType),
    Const {
        ty: u32,
        val: CVal,
    },
    /// A global variable (index into `Spv::insts` of its OpVariable).
    Global {
        ty: u32,
        inst: usize,
    },
    Function,
    ExtGlsl,
    ExtNonSemantic,
    /// Defined inside a function (value, label, parameter, local variable).
    Local,
    /// OpString and other ids without a meaning for code.
    Other,
}

/// A structured-CF merge instruction heading a block.
#[derive(Clone, Copy, Debug)]
pub enum Merge {
    Selection { merge: u32, control: u32 },
    Loop { merge: u32, cont: u32, control: u32 },
}

/// A basic block of a SPIR-V function: instruction index range and its merge.
#[derive(Clone, Debug)]
pub struct BlockInfo {
    /// Index of the first instruction after OpLabel.
    pub first: usize,
    /// Index of the terminator.
    pub term: usize,
    pub merge: Option<Merge>,
}

/// A SPIR-V function.
#[derive(Clone, Debug)]
pub struct FuncInfo {
    pub id: u32,
    /// Index of OpFunction.
    pub inst: usize,
    pub ret_ty: u32,
    pub params: Vec<(u32, u32)>,
    pub entry: u32,
    pub blocks: BTreeMap<u32, BlockInfo>,
    /// Returns, kills and unreachables: how many blocks leave the function.
    pub exits: usize,
    pub has_loop_or_switch: bool,
}

/// An entry point.
#[derive(Clone, Debug)]
pub struct EntryPoint {
    pub inst: usize,
    pub model: spirv::ExecutionModel,
    pub func: u32,
    pub name: String,
    pub interface: Vec<u32>,
}

/// Everything known about the module before translating code.
pub struct Spv {
    pub insts: Vec<Inst>,
    pub bound: u32,
    pub defs: Vec<Def>,
    pub decos: BTreeMap<u32, Vec<(Decoration, Vec<u32>)>>,
    pub member_decos: BTreeMap<(u32, u32), Vec<(Decoration, Vec<u32>)>>,
    pub names: BTreeMap<u32, String>,
    pub member_names: BTreeMap<(u32, u32), String>,
    pub entries: Vec<EntryPoint>,
    /// Execution modes by entry function id: (mode, literal operands / ids, inst index).
    pub modes: BTreeMap<u32, Vec<(spirv::ExecutionMode, Vec<u32>, usize)>>,
    pub funcs: BTreeMap<u32, FuncInfo>,
    pub globals: Vec<u32>,
    pub caps: BTreeSet<u32>,
    /// Ids declared by OpTypeForwardPointer (may be used before their OpTypePointer).
    forward: BTreeSet<u32>,
    /// Result type of every id that has one (0 otherwise).
    pub id_types: Vec<u32>,
    ir_types: BTreeMap<(u32, Option<(bool, u32)>), Type>,
    in_progress: BTreeSet<u32>,
    /// Unlinked translation: result id → SpecId of the specialization constants whose
    /// values come at link (function bodies read them with `load_spec_constant`).
    pub late: BTreeMap<u32, u32>,
}

fn supported_capability(c: Capability) -> bool {
    use Capability as C;
    matches!(
        c,
        C::Shader
            | C::Matrix
            | C::Float16
            | C::Float64
            | C::Int64
            | C::Int16
            | C::Int8
            | C::Int64Atomics
            // 64-bit integer images (r64ui/r64i): loads, stores and atomics
            | C::Int64ImageEXT
            // images with a 16-bit float sampled type (f16 results, D16; f16 coordinates, A16)
            | C::Float16ImageAMD
            | C::StorageBuffer16BitAccess
            | C::UniformAndStorageBuffer16BitAccess
            | C::StoragePushConstant16
            | C::StorageInputOutput16
            | C::StorageBuffer8BitAccess
            | C::UniformAndStorageBuffer8BitAccess
            | C::StoragePushConstant8
            | C::ImageQuery
            | C::DerivativeControl
            | C::SampledBuffer
            | C::ImageBuffer
            | C::Sampled1D
            | C::Image1D
            | C::SampledCubeArray
            | C::ImageCubeArray
            | C::ImageMSArray
            | C::ImageGatherExtended
            | C::MinLod
            // OpImageSparse*: a residency code beside the texel (TFE)
            | C::SparseResidency
            | C::StorageImageExtendedFormats
            | C::StorageImageMultisample
            | C::StorageImageReadWithoutFormat
            | C::StorageImageWriteWithoutFormat
            | C::StorageImageArrayDynamicIndexing
            | C::SampledImageArrayDynamicIndexing
            | C::StorageBufferArrayDynamicIndexing
            | C::UniformBufferArrayDynamicIndexing
            | C::ClipDistance
            // fragment shaders declare it to read gl_PrimitiveID, gl_Layer and
            // gl_ViewportIndex; everything else it enables is refused where it is used (the
            // Geometry execution model, geometry-only built-ins such as InvocationId)
            | C::Geometry
            // gl_ViewportIndex read in a fragment shader
            | C::MultiViewport
            // gl_Layer / gl_ViewportIndex written by a vertex shader (the misc position
            // export's z, and flat parameters when the fragment shader reads them)
            | C::ShaderLayer
            | C::ShaderViewportIndex
            | C::ShaderViewportIndexLayerEXT
            | C::CullDistance
            | C::SampleRateShading
            | C::InputAttachment
            | C::DrawParameters
            | C::MultiView
            | C::GroupNonUniform
            | C::GroupNonUniformVote
            | C::GroupNonUniformBallot
            | C::GroupNonUniformArithmetic
            | C::GroupNonUniformShuffle
            | C::GroupNonUniformShuffleRelative
            | C::GroupNonUniformClustered
            | C::GroupNonUniformQuad
            | C::PhysicalStorageBufferAddresses
            | C::DemoteToHelperInvocation
            | C::InterpolationFunction
            // gl_BaryCoordEXT / gl_BaryCoordNoPerspEXT and pervertexEXT inputs
            | C::FragmentBarycentricKHR
            // gl_ShadingRateEXT (FS) and gl_PrimitiveShadingRateEXT (VS, GFX10.3+)
            | C::FragmentShadingRateKHR
            | C::VulkanMemoryModel
            | C::VulkanMemoryModelDeviceScope
            // descriptor indexing: the NonUniform decoration needs no translation (the
            // backend sees a divergent descriptor index and decides)
            | C::ShaderNonUniform
            | C::RuntimeDescriptorArray
            | C::UniformTexelBufferArrayDynamicIndexing
            | C::StorageTexelBufferArrayDynamicIndexing
            | C::UniformBufferArrayNonUniformIndexing
            | C::StorageBufferArrayNonUniformIndexing
            | C::SampledImageArrayNonUniformIndexing
            | C::StorageImageArrayNonUniformIndexing
            | C::UniformTexelBufferArrayNonUniformIndexing
            | C::StorageTexelBufferArrayNonUniformIndexing
    )
}

const EXTENSIONS: &[&str] = &[
    "SPV_EXT_descriptor_indexing",
    "SPV_KHR_storage_buffer_storage_class",
    "SPV_KHR_16bit_storage",
    "SPV_KHR_8bit_storage",
    "SPV_KHR_physical_storage_buffer",
    "SPV_EXT_physical_storage_buffer",
    "SPV_EXT_demote_to_helper_invocation",
    "SPV_KHR_vulkan_memory_model",
    "SPV_EXT_shader_image_int64",
    "SPV_AMD_gpu_shader_half_float_fetch",
    "SPV_KHR_shader_draw_parameters",
    "SPV_KHR_multiview",
    "SPV_KHR_fragment_shader_barycentric",
    "SPV_KHR_fragment_shading_rate",
    "SPV_KHR_terminate_invocation",
    "SPV_KHR_non_semantic_info",
    "SPV_GOOGLE_decorate_string",
    "SPV_GOOGLE_hlsl_functionality1",
    "SPV_GOOGLE_user_type",
    "SPV_KHR_shader_float16_int8",
    "SPV_KHR_variable_pointers",
    "SPV_VALVE_mixed_float_dot_product",
    "SPV_KHR_subgroup_uniform_control_flow",
    "SPV_EXT_shader_viewport_index_layer",
];

pub fn bad_id(inst: &Inst, id: u32, what: &str) -> Error {
    inst.err(ErrorKind::BadId, format!("%{} is not {}", id, what))
}

impl Spv {
    /// Gathers the module-level facts.
    pub fn build(
        insts: Vec<Inst>,
        bound: u32,
        opts: &Options,
        types: &mut TypeArena,
    ) -> Result<Spv, Error> {
        let mut s = Spv {
            insts,
            bound,
            defs: vec![Def::None; bound as usize],
            decos: BTreeMap::new(),
            member_decos: BTreeMap::new(),
            names: BTreeMap::new(),
            member_names: BTreeMap::new(),
            entries: Vec::new(),
            modes: BTreeMap::new(),
            funcs: BTreeMap::new(),
            globals: Vec::new(),
            caps: BTreeSet::new(),
            forward: BTreeSet::new(),
            id_types: vec![0; bound as usize],
            ir_types: BTreeMap::new(),
            in_progress: BTreeSet::new(),
            late: BTreeMap::new(),
        };
        s.scan(opts)?;
        for k in 0..s.insts.len() {
            if let (Some(id), Some(ty)) = (s.insts[k].id, s.insts[k].ty) {
                if let Some(slot) = s.id_types.get_mut(id as usize) {
                    *slot = ty;
                }
            }
        }
        // Convert every non-function type now so later lookups are infallible.
        let type_ids: Vec<u32> = (0..s.bound)
            .filter(|&i| matches!(s.defs[i as usize], Def::Type(ref t) if !matches!(t, SType::Function{..})))
            .collect();
        let mut def_at = vec![0usize; s.bound as usize];
        for (k, inst) in s.insts.iter().enumerate() {
            if let Some(slot) = inst.id.and_then(|id| def_at.get_mut(id as usize)) {
                *slot = k;
            }
        }
        for id in type_ids {
            s.ir_type_at(types, id, None, def_at[id as usize])?;
        }
        Ok(s)
    }

    /// Checks `id` is in range and not yet defined, for a defining instruction.
    fn define(&mut self, inst: usize, def: Def) -> Result<u32, Error> {
        let i = &self.insts[inst];
        let id = i.result_id()?;
        if id == 0 || id >= self.bound {
            return Err(i.err(
                ErrorKind::BadId,
                format!("result id %{} out of range (bound {})", id, self.bound),
            ));
        }
        if !matches!(self.defs[id as usize], Def::None) {
            return Err(i.err(ErrorKind::BadId, format!("%{} defined twice", id)));
        }
        self.defs[id as usize] = def;
        Ok(id)
    }

    pub fn def(&self, id: u32) -> &Def {
        self.defs.get(id as usize).unwrap_or(&Def::None)
    }

    /// The SPIR-V type `id`, or a BadId error at `inst`.
    pub fn stype(&self, inst: &Inst, id: u32) -> Result<&SType, Error> {
        match self.def(id) {
            Def::Type(t) => Ok(t),
            _ => Err(bad_id(inst, id, "a type")),
        }
    }

    /// The IR type of SPIR-V type `id` (converted in `build`).
    pub fn ir_type(&self, inst: &Inst, id: u32) -> Result<Type, Error> {
        self.ir_types
            .get(&(id, None))
            .copied()
            .ok_or_else(|| bad_id(inst, id, "a data type"))
    }

    /// Scalar of a scalar/vector type.
    pub fn scalar_of(&self, id: u32) -> Option<Scalar> {
        match self.def(id) {
            Def::Type(SType::Bool) => Some(Scalar::BOOL),
            Def::Type(SType::Int { bits, signed }) => Some(if *signed {
                Scalar::sint(*bits)
            } else {
                Scalar::uint(*bits)
            }),
            Def::Type(SType::Float { bits }) => Some(Scalar::float(*bits)),
            Def::Type(SType::Vector { elem, .. }) => self.scalar_of(*elem),
            _ => None,
        }
    }

    /// (bits, comps) of a scalar/vector/pointer SPIR-V type.
    pub fn val_type(&self, id: u32) -> Option<ValType> {
        match self.def(id) {
            Def::Type(SType::Vector { elem, n }) => {
                self.scalar_of(*elem).map(|s| ValType::new(s.bits, *n))
            }
            Def::Type(SType::Pointer { sc, .. }) => Some(ValType::new(
                if *sc == StorageClass::PhysicalStorageBuffer {
                    64
                } else {
                    32
                },
                1,
            )),
            _ => self.scalar_of(id).map(|s| ValType::new(s.bits, 1)),
        }
    }

    pub fn deco(&self, id: u32, d: Decoration) -> Option<&[u32]> {
        self.decos
            .get(&id)?
            .iter()
            .find(|(x, _)| *x == d)
            .map(|(_, v)| v.as_slice())
    }
    pub fn has_deco(&self, id: u32, d: Decoration) -> bool {
        self.deco(id, d).is_some()
    }
    pub fn member_deco(&self, id: u32, m: u32, d: Decoration) -> Option<&[u32]> {
        self.member_decos
            .get(&(id, m))?
            .iter()
            .find(|(x, _)| *x == d)
            .map(|(_, v)| v.as_slice())
    }

    /// The constant value of `id`, if it is a constant.
    pub fn constant(&self, id: u32) -> Option<(&CVal, u32)> {
        match self.def(id) {
            Def::Const { ty, val } => Some((val, *ty)),
            _ => None,
        }
    }

    /// A scalar integer constant (for array lengths, literals passed by id, scopes).
    pub fn const_u64(&self, inst: &Inst, id: u32) -> Result<u64, Error> {
        if let Some(sid) = self.late.get(&id) {
            return Err(inst.err(
                ErrorKind::NeedsWholePipeline,
                format!("specialization constant {sid} is needed at compile time here; compile the whole pipeline"),
            ));
        }
        match self.constant(id) {
            Some((CVal::S(v), _)) => Ok(*v),
            _ => Err(bad_id(inst, id, "a scalar constant")),
        }
    }

    /// Unlinked translation: marks the scalar specialization constants whose SpecId is in
    /// `late` as link-time values. A 1-bit or 32-bit scalar can ride in a relocated
    /// literal; one that another constant, an array length or an execution mode is built
    /// from is needed now (`ErrorKind::NeedsWholePipeline`, naming the user).
    pub fn mark_late(&mut self, late: &BTreeSet<u32>) -> Result<(), Error> {
        if late.is_empty() {
            return Ok(());
        }
        for i in &self.insts {
            if !matches!(
                i.op,
                Op::SpecConstant | Op::SpecConstantTrue | Op::SpecConstantFalse
            ) {
                continue;
            }
            let (Some(id), Some(ty)) = (i.id, i.ty) else {
                continue;
            };
            let Some(&sid) = self.deco(id, Decoration::SpecId).and_then(|a| a.first()) else {
                continue;
            };
            if !late.contains(&sid) {
                continue;
            }
            match self.val_type(ty) {
                Some(vt) if vt.comps == 1 && matches!(vt.bits, 1 | 32) => {}
                _ => {
                    return Err(i.err(
                        ErrorKind::NeedsWholePipeline,
                        format!(
                            "specialization constant {sid} is not a bool or 32-bit scalar (one relocated literal); compile the whole pipeline"
                        ),
                    ))
                }
            }
            self.late.insert(id, sid);
        }
        for i in &self.insts {
            let what = match i.op {
                Op::SpecConstantOp | Op::SpecConstantComposite | Op::ConstantComposite => {
                    "a constant built from it"
                }
                Op::TypeArray => "an array length",
                Op::ExecutionModeId => "an execution mode (local size)",
                _ => continue,
            };
            for o in &i.ops {
                if let Operand::IdRef(r) = o {
                    if let Some(sid) = self.late.get(r) {
                        return Err(i.err(
                            ErrorKind::NeedsWholePipeline,
                            format!("specialization constant {sid} determines {what}; compile the whole pipeline"),
                        ));
                    }
                }
            }
        }
        Ok(())
    }

    fn scan(&mut self, opts: &Options) -> Result<(), Error> {
        let mut cur_func: Option<FuncInfo> = None;
        let mut cur_block: Option<(u32, usize, Option<Merge>)> = None;
        for k in 0..self.insts.len() {
            let op = self.insts[k].op;
            if let Some(f) = cur_func.as_mut() {
                let i = &self.insts[k];
                match op {
                    Op::FunctionParameter => {
                        if cur_block.is_some() || !f.blocks.is_empty() {
                            return Err(
                                i.err(ErrorKind::BadOperands, "parameter after the first block")
                            );
                        }
                        let ty = i.result_ty()?;
                        f.params.push((i.result_id()?, ty));
                        self.define(k, Def::Local)?;
                    }
                    Op::Label => {
                        if cur_block.is_some() {
                            return Err(i.err(
                                ErrorKind::BadControlFlow,
                                "label inside a block (missing terminator)",
                            ));
                        }
                        let id = self.define(k, Def::Local)?;
                        let f = cur_func.as_mut().unwrap();
                        if f.blocks.is_empty() {
                            f.entry = id;
                        }
                        cur_block = Some((id, k + 1, None));
                    }
                    Op::FunctionEnd => {
                        if cur_block.is_some() {
                            return Err(
                                i.err(ErrorKind::BadControlFlow, "function ends inside a block")
                            );
                        }
                        let f = cur_func.take().unwrap();
                        if f.blocks.is_empty() {
                            return Err(i.err(
                                ErrorKind::Unsupported,
                                "function declaration without a body (linkage)",
                            ));
                        }
                        self.funcs.insert(f.id, f);
                    }
                    Op::SelectionMerge | Op::LoopMerge => {
                        let Some(b) = cur_block.as_mut() else {
                            return Err(i.err(
                                ErrorKind::BadControlFlow,
                                "merge instruction outside a block",
                            ));
                        };
                        let m = if op == Op::SelectionMerge {
                            i.exact(2)?;
                            Merge::Selection {
                                merge: i.id_op(0)?,
                                control: sel_control(&i.ops[1]),
                            }
                        } else {
                            i.need(3)?;
                            Merge::Loop {
                                merge: i.id_op(0)?,
                                cont: i.id_op(1)?,
                                control: loop_control(&i.ops[2]),
                            }
                        };
                        if b.2.is_some() {
                            return Err(i.err(
                                ErrorKind::BadControlFlow,
                                "two merge instructions in one block",
                            ));
                        }
                        b.2 = Some(m);
                        if op == Op::LoopMerge {
                            f.has_loop_or_switch = true;
                        }
                    }
                    Op::Branch
                    | Op::BranchConditional
                    | Op::Switch
                    | Op::Return
                    | Op::ReturnValue
                    | Op::Kill
                    | Op::Unreachable
                    | Op::TerminateInvocation => {
                        let Some((id, first, merge)) = cur_block.take() else {
                            return Err(
                                i.err(ErrorKind::BadControlFlow, "terminator outside a block")
                            );
                        };
                        if !matches!(op, Op::Branch | Op::BranchConditional | Op::Switch) {
                            f.exits += 1;
                        }
                        if op == Op::Switch {
                            f.has_loop_or_switch = true;
                        }
                        f.blocks.insert(
                            id,
                            BlockInfo {
                                first,
                                term: k,
                                merge,
                            },
                        );
                    }
                    Op::Function => {
                        return Err(i.err(ErrorKind::BadControlFlow, "nested OpFunction"))
                    }
                    _ => {
                        if cur_block.is_none() && !matches!(op, Op::Line | Op::NoLine) {
                            return Err(
                                i.err(ErrorKind::BadControlFlow, "instruction outside a block")
                            );
                        }
                        if i.id.is_some() {
                            self.define(k, Def::Local)?;
                        }
                    }
                }
                continue;
            }
            let i = &self.insts[k];
            if i.new_op.is_some() {
                return Err(i.err(ErrorKind::BadControlFlow, "instruction outside a function"));
            }
            match op {
                Op::Capability => {
                    let c = match i.ops.first() {
                        Some(Operand::Capability(c)) if supported_capability(*c) => *c as u32,
                        Some(Operand::Capability(c)) => {
                            return Err(i.err(
                                ErrorKind::Unsupported,
                                format!("capability {:?} is not supported", c),
                            ));
                        }
                        // newer than rspirv's grammar: parse.rs passes only supported ones
                        Some(Operand::LiteralBit32(c))
                            if NEW_CAPABILITIES.iter().any(|n| n.0 == *c) =>
                        {
                            *c
                        }
                        _ => {
                            return Err(i.err(ErrorKind::BadOperands, "capability operand expected"))
                        }
                    };
                    self.caps.insert(c);
                }
                Op::Extension => {
                    let name = i.string(0)?;
                    if !EXTENSIONS.contains(&name) {
                        return Err(i.err(
                            ErrorKind::Unsupported,
                            format!("extension {} is not supported", name),
                        ));
                    }
                }
                Op::ExtInstImport => {
                    let name = i.string(0)?.to_string();
                    let d = if name == "GLSL.std.450" {
                        Def::ExtGlsl
                    } else if name.starts_with("NonSemantic.") {
                        Def::ExtNonSemantic
                    } else {
                        return Err(i.err(
                            ErrorKind::Unsupported,
                            format!("extended instruction set {} is not supported", name),
                        ));
                    };
                    self.define(k, d)?;
                }
                Op::MemoryModel => match i.ops.first() {
                    Some(Operand::AddressingModel(spirv::AddressingModel::Logical))
                    | Some(Operand::AddressingModel(
                        spirv::AddressingModel::PhysicalStorageBuffer64,
                    )) => {}
                    o => {
                        return Err(
                            i.err(ErrorKind::Unsupported, format!("addressing model {:?}", o))
                        )
                    }
                },
                Op::EntryPoint => {
                    i.need(3)?;
                    let model = match &i.ops[0] {
                        Operand::ExecutionModel(m) => *m,
                        _ => return Err(i.err(ErrorKind::BadOperands, "execution model expected")),
                    };
                    let func = i.id_op(1)?;
                    let name = i.string(2)?.to_string();
                    let interface = (3..i.ops.len())
                        .map(|j| i.id_op(j))
                        .collect::<Result<_, _>>()?;
                    self.entries.push(EntryPoint {
                        inst: k,
                        model,
                        func,
                        name,
                        interface,
                    });
                }
                Op::ExecutionMode | Op::ExecutionModeId => {
                    i.need(2)?;
                    let f = i.id_op(0)?;
                    let mode = match &i.ops[1] {
                        Operand::ExecutionMode(m) => *m,
                        _ => return Err(i.err(ErrorKind::BadOperands, "execution mode expected")),
                    };
                    let mut args = Vec::new();
                    for o in &i.ops[2..] {
                        match o {
                            Operand::LiteralBit32(w) | Operand::IdRef(w) => args.push(*w),
                            _ => {
                                return Err(i.err(ErrorKind::BadOperands, "execution mode operand"))
                            }
                        }
                    }
                    self.modes.entry(f).or_default().push((mode, args, k));
                }
                Op::Name => {
                    let id = i.id_op(0)?;
                    let n = i.string(1)?;
                    if !n.is_empty() {
                        self.names.insert(id, n.to_string());
                    }
                }
                Op::MemberName => {
                    let id = i.id_op(0)?;
                    let m = i.lit(1)?;
                    self.member_names.insert((id, m), i.string(2)?.to_string());
                }
                Op::Decorate
                | Op::DecorateId
                | Op::MemberDecorate
                | Op::DecorateString
                | Op::MemberDecorateString => {
                    let member = matches!(op, Op::MemberDecorate | Op::MemberDecorateString);
                    let base = if member { 2 } else { 1 };
                    i.need(base + 1)?;
                    let target = i.id_op(0)?;
                    if target >= self.bound {
                        return Err(bad_id(i, target, "in range"));
                    }
                    let d = match &i.ops[base] {
                        Operand::Decoration(d) => *d,
                        _ => return Err(i.err(ErrorKind::BadOperands, "decoration expected")),
                    };
                    let mut args = Vec::new();
                    for o in &i.ops[base + 1..] {
                        match o {
                            Operand::LiteralBit32(w) | Operand::IdRef(w) => args.push(*w),
                            Operand::BuiltIn(b) => args.push(*b as u32),
                            Operand::FPRoundingMode(m) => args.push(*m as u32),
                            _ => {}
                        }
                    }
                    if member {
                        let m = i.lit(1)?;
                        self.member_decos
                            .entry((target, m))
                            .or_default()
                            .push((d, args));
                    } else {
                        self.decos.entry(target).or_default().push((d, args));
                    }
                }
                Op::DecorationGroup | Op::GroupDecorate | Op::GroupMemberDecorate => {
                    return Err(i.err(
                        ErrorKind::Unsupported,
                        "decoration groups are not supported",
                    ));
                }
                Op::Source
                | Op::SourceContinued
                | Op::SourceExtension
                | Op::String
                | Op::ModuleProcessed
                | Op::Line
                | Op::NoLine
                | Op::Nop => {
                    if op == Op::String {
                        self.define(k, Def::Other)?;
                    }
                }
                Op::TypeForwardPointer => {
                    let id = i.id_op(0)?;
                    if id >= self.bound {
                        return Err(bad_id(i, id, "in range"));
                    }
                    self.forward.insert(id);
                }
                Op::TypeVoid
                | Op::TypeBool
                | Op::TypeInt
                | Op::TypeFloat
                | Op::TypeVector
                | Op::TypeMatrix
                | Op::TypeArray
                | Op::TypeRuntimeArray
                | Op::TypeStruct
                | Op::TypeImage
                | Op::TypeSampler
                | Op::TypeSampledImage
                | Op::TypePointer
                | Op::TypeFunction => {
                    let t = self.read_type(k)?;
                    self.define(k, Def::Type(t))?;
                }
                Op::ConstantTrue
                | Op::ConstantFalse
                | Op::Constant
                | Op::ConstantComposite
                | Op::ConstantNull
                | Op::SpecConstantTrue
                | Op::SpecConstantFalse
                | Op::SpecConstant
                | Op::SpecConstantComposite
                | Op::SpecConstantOp
                | Op::Undef => {
                    let ty = i.result_ty()?;
                    let val = self.read_const(k, opts)?;
                    self.define(k, Def::Const { ty, val })?;
                }
                Op::Variable => {
                    let ty = i.result_ty()?;
                    self.define(k, Def::Global { ty, inst: k })?;
                    let id = self.insts[k].id.unwrap();
                    self.globals.push(id);
                }
                Op::Function => {
                    i.need(2)?;
                    let ret_ty = i.result_ty()?;
                    let id = self.define(k, Def::Function)?;
                    cur_func = Some(FuncInfo {
                        id,
                        inst: k,
                        ret_ty,
                        params: Vec::new(),
                        entry: 0,
                        blocks: BTreeMap::new(),
                        exits: 0,
                        has_loop_or_switch: false,
                    });
                }
                Op::ExtInst => {
                    // Module-scope extended instructions: only non-semantic ones (debug info).
                    let set = i.id_op(0)?;
                    if !matches!(self.def(set), Def::ExtNonSemantic) {
                        return Err(i.err(
                            ErrorKind::Unsupported,
                            "module-scope OpExtInst of a semantic instruction set",
                        ));
                    }
                    if i.id.is_some() {
                        self.define(k, Def::Other)?;
                    }
                }
                _ => {
                    return Err(i.err(
                        ErrorKind::Unsupported,
                        "instruction not allowed or not supported at module scope",
                    ));
                }
            }
        }
        if cur_func.is_some() {
            let w = self.insts.last().map(|i| i.off).unwrap_or(0);
            return Err(Error::new(
                w,
                None,
                ErrorKind::Malformed,
                "module ends inside a function",
            ));
        }
        Ok(())
    }

    fn read_type(&self, k: usize) -> Result<SType, Error> {
        let i = &self.insts[k];
        let ty_of = |j: usize| -> Result<u32, Error> {
            let id = i.id_op(j)?;
            match self.def(id) {
                Def::Type(_) => Ok(id),
                Def::None if self.forward.contains(&id) => Ok(id),
                _ => Err(bad_id(i, id, "a type")),
            }
        };
        Ok(match i.op {
            Op::TypeVoid => SType::Void,
            Op::TypeBool => SType::Bool,
            Op::TypeInt => {
                i.exact(2)?;
                let bits = i.lit(0)?;
                if !matches!(bits, 8 | 16 | 32 | 64) {
                    return Err(i.err(ErrorKind::Unsupported, format!("{}-bit integers", bits)));
                }
                SType::Int {
                    bits: bits as u8,
                    signed: i.lit(1)? != 0,
                }
            }
            Op::TypeFloat => {
                i.need(1)?;
                let bits = i.lit(0)?;
                if !matches!(bits, 16 | 32 | 64) || i.ops.len() > 1 {
                    return Err(i.err(ErrorKind::Unsupported, format!("{}-bit floats", bits)));
                }
                SType::Float { bits: bits as u8 }
            }
            Op::TypeVector => {
                i.exact(2)?;
                let elem = ty_of(0)?;
                let n = i.lit(1)?;
                if self.scalar_of(elem).is_none()
                    || !matches!(
                        self.def(elem),
                        Def::Type(SType::Bool | SType::Int { .. } | SType::Float { .. })
                    )
                {
                    return Err(i.err(ErrorKind::BadType, "vector of a non-scalar"));
                }
                if !matches!(n, 2..=4) {
                    return Err(i.err(ErrorKind::Unsupported, format!("{}-component vectors", n)));
                }
                SType::Vector { elem, n: n as u8 }
            }
            Op::TypeMatrix => {
                i.exact(2)?;
                let col = ty_of(0)?;
                let n = i.lit(1)?;
                match self.def(col) {
                    Def::Type(SType::Vector { elem, .. })
                        if matches!(self.def(*elem), Def::Type(SType::Float { .. })) => {}
                    _ => {
                        return Err(
                            i.err(ErrorKind::BadType, "matrix column must be a float vector")
                        )
                    }
                }
                if !matches!(n, 2..=4) {
                    return Err(i.err(ErrorKind::BadType, format!("{} matrix columns", n)));
                }
                SType::Matrix { col, n: n as u8 }
            }
            Op::TypeArray => {
                i.exact(2)?;
                let elem = ty_of(0)?;
                let lid = i.id_op(1)?;
                let len = self.const_u64(i, lid)?;
                if len == 0 || len > (1 << 28) {
                    // a length computed from specialization constants: say so, since the
                    // fix is a value for them, not a different module
                    let spec = self
                        .insts
                        .iter()
                        .find(|d| d.id == Some(lid))
                        .is_some_and(|d| {
                            matches!(
                                d.op,
                                Op::SpecConstant | Op::SpecConstantOp | Op::SpecConstantComposite
                            )
                        });
                    let why = if spec {
                        " (computed from specialization constants with the values given or \
                         their defaults; give values that make it positive)"
                    } else {
                        ""
                    };
                    return Err(i.err(ErrorKind::BadType, format!("array length {len}{why}")));
                }
                SType::Array {
                    elem,
                    len: len as u32,
                }
            }
            Op::TypeRuntimeArray => {
                i.exact(1)?;
                SType::RuntimeArray { elem: ty_of(0)? }
            }
            Op::TypeStruct => SType::Struct {
                members: (0..i.ops.len()).map(ty_of).collect::<Result<_, _>>()?,
            },
            Op::TypeImage => {
                i.need(7)?;
                let st = ty_of(0)?;
                let sampled_type = match self.def(st) {
                    Def::Type(SType::Void) => Scalar::F32,
                    _ => self
                        .scalar_of(st)
                        .filter(|s| s.kind != ScalarKind::Bool)
                        .ok_or_else(|| i.err(ErrorKind::BadType, "image sampled type"))?,
                };
                let dim = match &i.ops[1] {
                    Operand::Dim(d) => match d {
                        spirv::Dim::Dim1D => Dim::D1,
                        spirv::Dim::Dim2D => Dim::D2,
                        spirv::Dim::Dim3D => Dim::D3,
                        spirv::Dim::DimCube => Dim::Cube,
                        spirv::Dim::DimRect => Dim::Rect,
                        spirv::Dim::DimBuffer => Dim::Buffer,
                        spirv::Dim::DimSubpassData => Dim::SubpassData,
                        d => {
                            return Err(i.err(ErrorKind::Unsupported, format!("image dim {:?}", d)))
                        }
                    },
                    _ => return Err(i.err(ErrorKind::BadOperands, "dim expected")),
                };
                let format = match &i.ops[6] {
                    Operand::ImageFormat(f) => *f as u32,
                    _ => return Err(i.err(ErrorKind::BadOperands, "image format expected")),
                };
                SType::Image(ImageType {
                    dim,
                    sampled_type,
                    depth: i.lit(2)? == 1,
                    arrayed: i.lit(3)? != 0,
                    ms: i.lit(4)? != 0,
                    sampled: i.lit(5)? != 2,
                    format,
                })
            }
            Op::TypeSampler => SType::Sampler,
            Op::TypeSampledImage => {
                i.exact(1)?;
                let image = ty_of(0)?;
                if !matches!(self.def(image), Def::Type(SType::Image(_))) {
                    return Err(i.err(ErrorKind::BadType, "sampled image of a non-image"));
                }
                SType::SampledImage { image }
            }
            Op::TypePointer => {
                i.exact(2)?;
                let sc = match &i.ops[0] {
                    Operand::StorageClass(s) => *s,
                    _ => return Err(i.err(ErrorKind::BadOperands, "storage class expected")),
                };
                storage_mode(sc, false).ok_or_else(|| {
                    i.err(ErrorKind::Unsupported, format!("storage class {:?}", sc))
                })?;
                // The pointee may be forward-declared (OpTypeForwardPointer): checked at use.
                let pointee = i.id_op(1)?;
                if pointee >= self.bound {
                    return Err(bad_id(i, pointee, "in range"));
                }
                SType::Pointer { sc, pointee }
            }
            Op::TypeFunction => {
                i.need(1)?;
                SType::Function {
                    ret: ty_of(0)?,
                    params: (1..i.ops.len()).map(ty_of).collect::<Result<_, _>>()?,
                }
            }
            _ => unreachable!("read_type called on a non-type"),
        })
    }

    /// Zero of a type, as a constant tree.
    pub fn null_of(&self, inst: &Inst, ty: u32) -> Result<CVal, Error> {
        Ok(match self.stype(inst, ty)? {
            SType::Bool | SType::Int { .. } | SType::Float { .. } | SType::Pointer { .. } => {
                CVal::S(0)
            }
            SType::Vector { n, .. } => CVal::C(vec![CVal::S(0); *n as usize]),
            SType::Matrix { col, n } => CVal::C(vec![self.null_of(inst, *col)?; *n as usize]),
            SType::Array { elem, len } => {
                if *len > 4096 {
                    return Err(inst.err(ErrorKind::Unsupported, "null constant of a huge array"));
                }
                CVal::C(vec![self.null_of(inst, *elem)?; *len as usize])
            }
            SType::Struct { members } => CVal::C(
                members
                    .iter()
                    .map(|&m| self.null_of(inst, m))
                    .collect::<Result<_, _>>()?,
            ),
            _ => return Err(inst.err(ErrorKind::BadType, "constant of a non-data type")),
        })
    }

    fn read_const(&self, k: usize, opts: &Options) -> Result<CVal, Error> {
        let i = &self.insts[k];
        let ty = i.result_ty()?;
        let st = self.stype(i, ty)?.clone();
        let spec = |default: u64| -> u64 {
            let id = i.id.unwrap_or(0);
            match self.deco(id, Decoration::SpecId).and_then(|a| a.first()) {
                Some(sid) => opts.spec.get(sid).copied().unwrap_or(default),
                None => default,
            }
        };
        let vt = self.val_type(ty);
        let mask = |v: u64| vt.map(|t| v & t.mask()).unwrap_or(v);
        Ok(match i.op {
            Op::ConstantTrue | Op::ConstantFalse | Op::SpecConstantTrue | Op::SpecConstantFalse => {
                if st != SType::Bool {
                    return Err(i.err(ErrorKind::BadType, "boolean constant of a non-bool type"));
                }
                let v = matches!(i.op, Op::ConstantTrue | Op::SpecConstantTrue) as u64;
                CVal::S(
                    if matches!(i.op, Op::SpecConstantTrue | Op::SpecConstantFalse) {
                        spec(v) & 1
                    } else {
                        v
                    },
                )
            }
            Op::Constant | Op::SpecConstant => {
                let bits = match st {
                    SType::Int { bits, .. } | SType::Float { bits } => bits,
                    _ => {
                        return Err(
                            i.err(ErrorKind::BadType, "scalar constant of a non-numeric type")
                        )
                    }
                };
                i.exact(1)?;
                let v = match &i.ops[0] {
                    Operand::LiteralBit32(w) => *w as u64,
                    Operand::LiteralBit64(w) => *w,
                    _ => return Err(i.err(ErrorKind::BadOperands, "literal expected")),
                };
                // Narrow integers are sign/zero-extended in the literal word: keep the low bits.
                let v = mask(v);
                let _ = bits;
                CVal::S(if i.op == Op::SpecConstant {
                    mask(spec(v))
                } else {
                    v
                })
            }
            Op::ConstantComposite | Op::SpecConstantComposite => {
                let n = match &st {
                    SType::Vector { n, .. } | SType::Matrix { n, .. } => *n as usize,
                    SType::Array { len, .. } => *len as usize,
                    SType::Struct { members } => members.len(),
                    _ => {
                        return Err(i.err(
                            ErrorKind::BadType,
                            "composite constant of a non-composite type",
                        ))
                    }
                };
                i.exact(n)?;
                let mut out = Vec::with_capacity(n);
                for j in 0..n {
                    let id = i.id_op(j)?;
                    let (c, _) = self
                        .constant(id)
                        .ok_or_else(|| bad_id(i, id, "a constant"))?;
                    out.push(c.clone());
                }
                CVal::C(out)
            }
            Op::ConstantNull => self.null_of(i, ty)?,
            Op::Undef => self.undef_of(i, ty)?,
            Op::SpecConstantOp => self.spec_op(i, ty)?,
            _ => unreachable!(),
        })
    }

    fn undef_of(&self, inst: &Inst, ty: u32) -> Result<CVal, Error> {
        Ok(match self.null_of(inst, ty)? {
            CVal::S(_) => CVal::Undef,
            c => {
                fn u(c: CVal) -> CVal {
                    match c {
                        CVal::C(v) => CVal::C(v.into_iter().map(u).collect()),
                        _ => CVal::Undef,
                    }
                }
                u(c)
            }
        })
    }

    /// Leaves of a scalar/vector constant as bit patterns.
    fn leaves(&self, inst: &Inst, id: u32) -> Result<(ValType, Vec<u64>), Error> {
        let (c, ty) = self
            .constant(id)
            .ok_or_else(|| bad_id(inst, id, "a constant"))?;
        let vt = self
            .val_type(ty)
            .ok_or_else(|| inst.err(ErrorKind::BadType, "scalar or vector constant expected"))?;
        let comps = match c {
            CVal::S(v) => vec![*v],
            CVal::Undef => vec![0],
            CVal::C(v) => v
                .iter()
                .map(|x| match x {
                    CVal::S(v) => *v,
                    _ => 0,
                })
                .collect(),
        };
        Ok((vt, comps))
    }

    fn spec_op(&self, i: &Inst, ty: u32) -> Result<CVal, Error> {
        let op = match i.ops.first() {
            Some(Operand::LiteralSpecConstantOpInteger(op)) => *op,
            _ => return Err(i.err(ErrorKind::BadOperands, "opcode operand expected")),
        };
        let dst = self.val_type(ty);
        match op {
            Op::CompositeExtract => {
                let mut c = self
                    .constant(i.id_op(1)?)
                    .ok_or_else(|| bad_id(i, 0, "a constant"))?
                    .0
                    .clone();
                for j in 2..i.ops.len() {
                    let idx = i.lit(j)? as usize;
                    c = match c {
                        CVal::C(v) => v
                            .get(idx)
                            .cloned()
                            .ok_or_else(|| i.err(ErrorKind::BadOperands, "index out of range"))?,
                        _ => return Err(i.err(ErrorKind::BadOperands, "extract from a scalar")),
                    };
                }
                return Ok(c);
            }
            Op::VectorShuffle => {
                let (_, a) = self.leaves(i, i.id_op(1)?)?;
                let (_, b) = self.leaves(i, i.id_op(2)?)?;
                let mut out = Vec::new();
                for j in 3..i.ops.len() {
                    let s = i.lit(j)? as usize;
                    out.push(CVal::S(if s < a.len() {
                        a[s]
                    } else {
                        *b.get(s - a.len()).unwrap_or(&0)
                    }));
                }
                return Ok(CVal::C(out));
            }
            Op::CompositeInsert => {
                let (_, obj) = self.leaves(i, i.id_op(1)?)?;
                let (_, mut comp) = self.leaves(i, i.id_op(2)?)?;
                let idx = i.lit(3)? as usize;
                if idx >= comp.len() || obj.len() != 1 {
                    return Err(i.err(ErrorKind::BadOperands, "insert index out of range"));
                }
                comp[idx] = obj[0];
                return Ok(CVal::C(comp.into_iter().map(CVal::S).collect()));
            }
            _ => {}
        }
        let dst = dst.ok_or_else(|| {
            i.err(
                ErrorKind::BadType,
                "spec constant op result must be scalar or vector",
            )
        })?;
        let map = spirv_alu(op)
            .ok_or_else(|| i.err(ErrorKind::Unsupported, format!("OpSpecConstantOp {:?}", op)))?;
        let mut srcs = Vec::new();
        for j in 1..i.ops.len() {
            srcs.push(self.leaves(i, i.id_op(j)?)?);
        }
        let out = match map {
            AluMap::Op(a, swap) => {
                if swap && srcs.len() == 2 {
                    srcs.swap(0, 1);
                }
                let s: Vec<(ValType, &[u64])> =
                    srcs.iter().map(|(t, v)| (*t, v.as_slice())).collect();
                if let Some(d) = crate::ir::ops::alu_result_type(
                    a,
                    &s.iter().map(|x| x.0).collect::<Vec<_>>(),
                    dst.bits,
                ) {
                    if d != dst {
                        return Err(
                            i.err(ErrorKind::BadType, "operand types do not match the result")
                        );
                    }
                } else {
                    return Err(i.err(ErrorKind::BadType, "ill-typed spec constant op"));
                }
                crate::ir::eval::eval_alu(a, dst, &s).ok()
            }
            AluMap::Conv(a) => {
                let s: Vec<(ValType, &[u64])> =
                    srcs.iter().map(|(t, v)| (*t, v.as_slice())).collect();
                if s.len() != 1 || s[0].0.comps != dst.comps {
                    return Err(i.err(ErrorKind::BadType, "ill-typed conversion"));
                }
                crate::ir::eval::eval_alu(a, dst, &s).ok()
            }
            AluMap::Bitcast => {
                if srcs.len() == 1 && srcs[0].0 == dst {
                    Some(srcs[0].1.iter().copied().collect())
                } else {
                    None
                }
            }
        }
        .ok_or_else(|| {
            i.err(
                ErrorKind::Unsupported,
                format!("cannot fold OpSpecConstantOp {:?} here", op),
            )
        })?;
        Ok(if dst.comps == 1 {
            CVal::S(out[0])
        } else {
            CVal::C(out.into_iter().map(CVal::S).collect())
        })
    }

    /// IR type for SPIR-V type `id` with an optional matrix layout pushed down from a
    /// struct member (`(row_major, matrix_stride)`).
    pub fn ir_type_at(
        &mut self,
        types: &mut TypeArena,
        id: u32,
        mat: Option<(bool, u32)>,
        at: usize,
    ) -> Result<Type, Error> {
        if let Some(&t) = self.ir_types.get(&(id, mat)) {
            return Ok(t);
        }
        // A pointer inside the type it points to (a linked list through
        // PhysicalStorageBuffer pointers): IR types are interned structurally and cannot be
        // cyclic, so the inner pointer's IR pointee is left opaque (void) and not memoized.
        // Dereferencing takes the pointee from the SPIR-V type, never from this.
        if let Def::Type(SType::Pointer { sc, pointee }) = self.def(id) {
            if self.in_progress.contains(pointee) {
                let bb = *sc == StorageClass::Uniform
                    && self.has_deco(*pointee, Decoration::BufferBlock);
                let mode = storage_mode(*sc, bb).unwrap();
                let v = types.void();
                return Ok(types.pointer(v, mode));
            }
        }
        if self.in_progress.contains(&id) {
            return Err(
                self.insts[at].err(ErrorKind::Unsupported, format!("recursive type %{}", id))
            );
        }
        let st = match self.def(id) {
            Def::Type(t) => t.clone(),
            _ => return Err(bad_id(&self.insts[at], id, "a type")),
        };
        self.in_progress.insert(id);
        let stride = self
            .deco(id, Decoration::ArrayStride)
            .and_then(|a| a.first().copied())
            .unwrap_or(0);
        let t = match st {
            SType::Void => types.void(),
            SType::Bool | SType::Int { .. } | SType::Float { .. } => {
                types.scalar(self.scalar_of(id).unwrap())
            }
            SType::Vector { n, .. } => types.vector(self.scalar_of(id).unwrap(), n),
            SType::Matrix { col, n } => {
                let c = self.ir_type_at(types, col, None, at)?;
                let (rm, st) = mat.unwrap_or((false, 0));
                types.matrix(c, n, rm, st)
            }
            SType::Array { elem, len } => {
                let e = self.ir_type_at(types, elem, mat, at)?;
                types.array(e, Some(len), stride)
            }
            SType::RuntimeArray { elem } => {
                let e = self.ir_type_at(types, elem, mat, at)?;
                types.array(e, None, stride)
            }
            SType::Struct { members } => {
                let mut out = Vec::new();
                for (m, &mt) in members.iter().enumerate() {
                    let m = m as u32;
                    let offset = self
                        .member_deco(id, m, Decoration::Offset)
                        .and_then(|a| a.first().copied());
                    let ms = self
                        .member_deco(id, m, Decoration::MatrixStride)
                        .and_then(|a| a.first().copied());
                    let rm = self.member_deco(id, m, Decoration::RowMajor).is_some();
                    let ml = if ms.is_some() || rm {
                        Some((rm, ms.unwrap_or(0)))
                    } else {
                        None
                    };
                    let ty = self.ir_type_at(types, mt, ml, at)?;
                    out.push(Member { ty, offset });
                }
                types.structure(out)
            }
            SType::Image(it) => types.intern(crate::ir::TypeKind::Image(it)),
            SType::Sampler => types.intern(crate::ir::TypeKind::Sampler),
            SType::SampledImage { image } => {
                let im = self.ir_type_at(types, image, None, at)?;
                types.intern(crate::ir::TypeKind::SampledImage(im))
            }
            SType::Pointer { sc, pointee } => {
                let p = self.ir_type_at(types, pointee, None, at)?;
                let bb =
                    sc == StorageClass::Uniform && self.has_deco(pointee, Decoration::BufferBlock);
                let mode = storage_mode(sc, bb).unwrap();
                types.pointer(p, mode)
            }
            SType::Function { .. } => {
                self.in_progress.remove(&id);
                return Err(self.insts[at].err(ErrorKind::BadType, "function type used as data"));
            }
        };
        self.in_progress.remove(&id);
        self.ir_types.insert((id, mat), t);
        Ok(t)
    }
}

/// The IR mode of a storage class (`buffer_block`: a Uniform-class BufferBlock struct).
pub fn storage_mode(sc: StorageClass, buffer_block: bool) -> Option<Mode> {
    Some(match sc {
        StorageClass::UniformConstant => Mode::Uniform,
        StorageClass::Input => Mode::Input,
        StorageClass::Output => Mode::Output,
        StorageClass::Uniform => {
            if buffer_block {
                Mode::Ssbo
            } else {
                Mode::Ubo
            }
        }
        StorageClass::StorageBuffer => Mode::Ssbo,
        StorageClass::Workgroup => Mode::Shared,
        StorageClass::Private => Mode::Private,
        StorageClass::Function => Mode::Function,
        StorageClass::PushConstant => Mode::PushConst,
        StorageClass::PhysicalStorageBuffer => Mode::Global,
        StorageClass::Image => Mode::Uniform,
        _ => return None,
    })
}

fn sel_control(o: &Operand) -> u32 {
    match o {
        Operand::SelectionControl(c) => c.bits(),
        _ => 0,
    }
}

fn loop_control(o: &Operand) -> u32 {
    match o {
        Operand::LoopControl(c) => c.bits(),
        _ => 0,
    }
}
