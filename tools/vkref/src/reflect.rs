//! SPIR-V reflection: what a Vulkan driver needs to know about a module before it can build
//! a pipeline from it — entry points, workgroup size (literal, `LocalSizeId` or the
//! `WorkgroupSize` built-in, each dimension possibly a specialization constant), descriptor
//! bindings, the push-constant block size, specialization constants and the capabilities
//! (which become device features in [`crate::features`]).
//!
//! Design: the module is parsed with rspirv's data-representation loader, then one pass over
//! annotations builds side tables (decorations per id, member decorations per struct) and one
//! pass over `types_global_values` resolves every resource variable to a [`Binding`]. Output
//! is sorted (bindings by set/binding, spec constants by id), never in hash order.
//!
//! Invariant: malformed input is a [`Error`] saying where (byte offset and instruction number
//! from the parser, or the SPIR-V result id the problem hangs on) and why; nothing here
//! panics on input. Sizes are computed with checked arithmetic.

use rspirv::dr::{self, Instruction, Operand};
use rspirv::spirv::{self, Decoration, Op, StorageClass, Word};
use std::collections::BTreeMap;
use std::fmt;

/// Why a module could not be reflected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// The byte length is not a multiple of four.
    Unaligned { len: usize },
    /// Fewer than five words, or a bad magic number.
    Header { why: String },
    /// The binary parser rejected the module (its message carries the byte offset and the
    /// instruction number).
    Parse { why: String },
    /// The module parsed but is not valid for reflection: the id it concerns and why.
    Invalid { id: Word, why: String },
    /// No entry point of this name.
    NoEntryPoint {
        name: String,
        available: Vec<String>,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Unaligned { len } => {
                write!(
                    f,
                    "SPIR-V is {len} bytes, not a whole number of 32-bit words"
                )
            }
            Error::Header { why } => write!(f, "SPIR-V header (word 0..5): {why}"),
            Error::Parse { why } => write!(f, "SPIR-V parse error: {why}"),
            Error::Invalid { id, why } => write!(f, "SPIR-V id %{id}: {why}"),
            Error::NoEntryPoint { name, available } => {
                write!(
                    f,
                    "no entry point named {name:?} (module has {available:?})"
                )
            }
        }
    }
}

impl std::error::Error for Error {}

/// Pipeline stage of an entry point.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Stage {
    Compute,
    Vertex,
    Fragment,
    Geometry,
    TessControl,
    TessEval,
    Task,
    Mesh,
    Other(u32),
}

impl Stage {
    fn from_model(m: spirv::ExecutionModel) -> Stage {
        use spirv::ExecutionModel as M;
        match m {
            M::GLCompute => Stage::Compute,
            M::Vertex => Stage::Vertex,
            M::Fragment => Stage::Fragment,
            M::Geometry => Stage::Geometry,
            M::TessellationControl => Stage::TessControl,
            M::TessellationEvaluation => Stage::TessEval,
            M::TaskEXT | M::TaskNV => Stage::Task,
            M::MeshEXT | M::MeshNV => Stage::Mesh,
            other => Stage::Other(other as u32),
        }
    }
}

/// One dimension of the workgroup size: its default value and, if it is a specialization
/// constant, its `SpecId`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SizeDim {
    pub value: u32,
    pub spec_id: Option<u32>,
}

/// How a descriptor is used; one per Vulkan descriptor type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum DescriptorKind {
    StorageBuffer,
    UniformBuffer,
    StorageImage,
    SampledImage,
    Sampler,
    CombinedImageSampler,
    UniformTexelBuffer,
    StorageTexelBuffer,
    InputAttachment,
    AccelerationStructure,
}

/// A descriptor binding used by an entry point.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Binding {
    pub set: u32,
    pub binding: u32,
    pub kind: DescriptorKind,
    /// Array size: 1 for a single descriptor, `None` for a runtime-sized array.
    pub count: Option<u32>,
    /// For buffers: the byte size of the block with any trailing runtime array empty.
    pub block_size: Option<u64>,
    /// The variable's result id.
    pub var: Word,
}

/// A scalar specialization constant. There is one per SPIR-V result id, so several may
/// share a `SpecId` (glslang declares the workgroup-size ones twice).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpecConstant {
    pub spec_id: u32,
    /// Result id in the module.
    pub id: Word,
    /// Width in bits (1 for bool).
    pub bits: u32,
    /// Default value, zero-extended.
    pub default: u64,
}

/// One entry point.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EntryPoint {
    pub name: String,
    pub stage: Stage,
    /// Workgroup size, for compute-like stages that declare one.
    pub local_size: Option<[SizeDim; 3]>,
    pub bindings: Vec<Binding>,
    /// Byte size of the push-constant block, if the entry point uses one.
    pub push_constant_size: Option<u32>,
    /// The user-located `Input` and `Output` interface of a vertex or fragment entry
    /// point (built-ins left out; empty for other stages), sorted by (direction,
    /// location): what a pipeline's vertex input and colour attachments are made from.
    pub locations: Vec<Location>,
}

/// A scalar's numeric class, as a format's (`SFLOAT`, `SINT`, `UINT`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum ScalarKind {
    Float,
    Sint,
    Uint,
}

/// One location of an entry point's interface: an array element or matrix column takes
/// a location of its own; variables sharing a location through `Component` are merged
/// (components up to the highest one written, the first variable's scalar type).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Location {
    pub output: bool,
    pub location: u32,
    /// Components, counting from component 0 (1..=4).
    pub components: u32,
    pub kind: ScalarKind,
    /// Scalar width in bits (16, 32, 64).
    pub bits: u32,
}

/// A reflected module.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Module {
    /// SPIR-V version word as (major, minor).
    pub version: (u8, u8),
    pub capabilities: Vec<spirv::Capability>,
    pub extensions: Vec<String>,
    pub entry_points: Vec<EntryPoint>,
    pub spec_constants: Vec<SpecConstant>,
}

impl Module {
    /// The entry point named `name`.
    pub fn entry(&self, name: &str) -> Result<&EntryPoint, Error> {
        self.entry_points
            .iter()
            .find(|e| e.name == name)
            .ok_or_else(|| Error::NoEntryPoint {
                name: name.to_string(),
                available: self.entry_points.iter().map(|e| e.name.clone()).collect(),
            })
    }

    /// True if the module declares capability `c`.
    pub fn has_capability(&self, c: spirv::Capability) -> bool {
        self.capabilities.contains(&c)
    }
}

/// Bytes → words (little-endian), checking length and magic.
pub fn words_of(bytes: &[u8]) -> Result<Vec<u32>, Error> {
    if !bytes.len().is_multiple_of(4) {
        return Err(Error::Unaligned { len: bytes.len() });
    }
    let words: Vec<u32> = bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    check_header(&words)?;
    Ok(words)
}

fn check_header(words: &[u32]) -> Result<(), Error> {
    if words.len() < 5 {
        return Err(Error::Header {
            why: format!("only {} words", words.len()),
        });
    }
    if words[0] != spirv::MAGIC_NUMBER {
        return Err(Error::Header {
            why: format!("magic is {:#010x}, not 0x07230203", words[0]),
        });
    }
    Ok(())
}

/// The decorations on one id or member, with their literal operands.
type DecorationList = Vec<(Decoration, Vec<u32>)>;

/// Per-id decorations collected from the annotation section.
#[derive(Default)]
struct Decorations {
    on_id: BTreeMap<Word, DecorationList>,
    on_member: BTreeMap<(Word, u32), DecorationList>,
}

impl Decorations {
    fn get(&self, id: Word, d: Decoration) -> Option<&[u32]> {
        self.on_id
            .get(&id)?
            .iter()
            .find(|(x, _)| *x == d)
            .map(|(_, v)| v.as_slice())
    }
    fn has(&self, id: Word, d: Decoration) -> bool {
        self.get(id, d).is_some()
    }
    fn member(&self, id: Word, m: u32, d: Decoration) -> Option<&[u32]> {
        self.on_member
            .get(&(id, m))?
            .iter()
            .find(|(x, _)| *x == d)
            .map(|(_, v)| v.as_slice())
    }
}

fn literals(ops: &[Operand]) -> Vec<u32> {
    ops.iter()
        .filter_map(|o| match o {
            Operand::LiteralBit32(v) => Some(*v),
            Operand::IdRef(v) => Some(*v),
            Operand::BuiltIn(b) => Some(*b as u32),
            _ => None,
        })
        .collect()
}

struct Ctx<'m> {
    defs: BTreeMap<Word, &'m Instruction>,
    dec: Decorations,
}

impl<'m> Ctx<'m> {
    fn def(&self, id: Word) -> Result<&'m Instruction, Error> {
        self.defs.get(&id).copied().ok_or_else(|| Error::Invalid {
            id,
            why: "used but not defined as a type or constant".into(),
        })
    }

    fn id_op(&self, inst: &Instruction, i: usize) -> Result<Word, Error> {
        match inst.operands.get(i) {
            Some(Operand::IdRef(v)) => Ok(*v),
            _ => Err(Error::Invalid {
                id: inst.result_id.unwrap_or(0),
                why: format!("{:?}: operand {i} is not an id", inst.class.opcode),
            }),
        }
    }

    fn lit_op(&self, inst: &Instruction, i: usize) -> Result<u32, Error> {
        match inst.operands.get(i) {
            Some(Operand::LiteralBit32(v)) => Ok(*v),
            _ => Err(Error::Invalid {
                id: inst.result_id.unwrap_or(0),
                why: format!(
                    "{:?}: operand {i} is not a 32-bit literal",
                    inst.class.opcode
                ),
            }),
        }
    }

    /// Value of a scalar (spec) constant, zero-extended.
    fn const_value(&self, id: Word) -> Result<u64, Error> {
        let inst = self.def(id)?;
        match inst.class.opcode {
            Op::Constant | Op::SpecConstant => match inst.operands.first() {
                Some(Operand::LiteralBit32(v)) => Ok(*v as u64),
                Some(Operand::LiteralBit64(v)) => Ok(*v),
                _ => Err(Error::Invalid {
                    id,
                    why: "constant without a literal value".into(),
                }),
            },
            Op::ConstantTrue | Op::SpecConstantTrue => Ok(1),
            Op::ConstantFalse | Op::SpecConstantFalse | Op::ConstantNull => Ok(0),
            op => Err(Error::Invalid {
                id,
                why: format!("expected a scalar constant, found {op:?}"),
            }),
        }
    }

    fn size_dim(&self, id: Word) -> Result<SizeDim, Error> {
        let value = u32::try_from(self.const_value(id)?).map_err(|_| Error::Invalid {
            id,
            why: "workgroup size does not fit 32 bits".into(),
        })?;
        let spec_id = self
            .dec
            .get(id, Decoration::SpecId)
            .and_then(|v| v.first().copied());
        Ok(SizeDim { value, spec_id })
    }

    /// Byte size of a type as laid out by its explicit-layout decorations. `stride` is the
    /// matrix stride / row-major flag inherited from the enclosing struct member.
    fn size_of(&self, ty: Word, matrix: Option<(u32, bool)>, depth: u32) -> Result<u64, Error> {
        if depth > 64 {
            return Err(Error::Invalid {
                id: ty,
                why: "type nesting deeper than 64".into(),
            });
        }
        let inst = self.def(ty)?;
        let bad = |why: &str| Error::Invalid {
            id: ty,
            why: why.to_string(),
        };
        match inst.class.opcode {
            Op::TypeBool => Ok(4),
            Op::TypeInt | Op::TypeFloat => Ok(self.lit_op(inst, 0)? as u64 / 8),
            Op::TypePointer | Op::TypeForwardPointer => Ok(8),
            Op::TypeVector => {
                let n = self.lit_op(inst, 1)? as u64;
                let c = self.size_of(self.id_op(inst, 0)?, None, depth + 1)?;
                n.checked_mul(c).ok_or_else(|| bad("vector size overflows"))
            }
            Op::TypeMatrix => {
                let cols = self.lit_op(inst, 1)? as u64;
                let col_ty = self.id_op(inst, 0)?;
                match matrix {
                    Some((stride, row_major)) => {
                        let major = if row_major {
                            self.lit_op(self.def(col_ty)?, 1)? as u64
                        } else {
                            cols
                        };
                        major
                            .checked_mul(stride as u64)
                            .ok_or_else(|| bad("matrix size overflows"))
                    }
                    None => {
                        let c = self.size_of(col_ty, None, depth + 1)?;
                        cols.checked_mul(c)
                            .ok_or_else(|| bad("matrix size overflows"))
                    }
                }
            }
            Op::TypeArray => {
                let len = self.const_value(self.id_op(inst, 1)?)?;
                let stride = match self.dec.get(ty, Decoration::ArrayStride) {
                    Some([s, ..]) => *s as u64,
                    _ => self.size_of(self.id_op(inst, 0)?, matrix, depth + 1)?,
                };
                len.checked_mul(stride)
                    .ok_or_else(|| bad("array size overflows"))
            }
            Op::TypeRuntimeArray => Ok(0),
            Op::TypeStruct => {
                let mut end = 0u64;
                for (m, op) in inst.operands.iter().enumerate() {
                    let Operand::IdRef(mty) = op else {
                        return Err(bad("struct member is not a type id"));
                    };
                    let m = m as u32;
                    let offset = match self.dec.member(ty, m, Decoration::Offset) {
                        Some([o, ..]) => *o as u64,
                        _ => end,
                    };
                    let mat = self
                        .dec
                        .member(ty, m, Decoration::MatrixStride)
                        .and_then(|v| v.first().copied())
                        .map(|s| (s, self.dec.member(ty, m, Decoration::RowMajor).is_some()));
                    let size = self.size_of(*mty, mat, depth + 1)?;
                    end = end.max(
                        offset
                            .checked_add(size)
                            .ok_or_else(|| bad("struct size overflows"))?,
                    );
                }
                Ok(end)
            }
            op => Err(bad(&format!("no byte size for {op:?}"))),
        }
    }
}

/// Reflects a module given as bytes.
pub fn reflect_bytes(bytes: &[u8]) -> Result<Module, Error> {
    reflect(&words_of(bytes)?)
}

/// Reflects a module given as words.
pub fn reflect(words: &[u32]) -> Result<Module, Error> {
    check_header(words)?;
    let (filtered, mode_ids) = split_execution_mode_ids(words)?;
    let module = dr::load_words(&filtered).map_err(|e| Error::Parse { why: e.to_string() })?;
    reflect_module(&module, words[1], &mode_ids)
}

/// An `OpExecutionModeId`: (entry function, mode, id operands).
type ModeId = (Word, u32, Vec<Word>);

/// rspirv 0.12's loader rejects `OpExecutionModeId` (SPIR-V 1.2+, used for `LocalSizeId`),
/// so those instructions are taken out of the stream here and interpreted by this module.
/// This walk also checks every instruction's word count, reporting the word offset of a bad
/// one.
fn split_execution_mode_ids(words: &[u32]) -> Result<(Vec<u32>, Vec<ModeId>), Error> {
    const OP_EXECUTION_MODE_ID: u32 = 331;
    let mut out = words[..5].to_vec();
    let mut modes = Vec::new();
    let mut at = 5;
    while at < words.len() {
        let count = (words[at] >> 16) as usize;
        let op = words[at] & 0xffff;
        if count == 0 || at + count > words.len() {
            return Err(Error::Parse {
                why: format!("instruction at word {at} (opcode {op}) has word count {count}, {} words remain", words.len() - at),
            });
        }
        let inst = &words[at..at + count];
        if op == OP_EXECUTION_MODE_ID {
            if count < 3 {
                return Err(Error::Parse {
                    why: format!("OpExecutionModeId at word {at} has {count} words"),
                });
            }
            modes.push((inst[1], inst[2], inst[3..].to_vec()));
        } else {
            out.extend_from_slice(inst);
        }
        at += count;
    }
    Ok((out, modes))
}

fn reflect_module(module: &dr::Module, version: u32, mode_ids: &[ModeId]) -> Result<Module, Error> {
    let version = (
        ((version >> 16) & 0xff) as u8,
        ((version >> 8) & 0xff) as u8,
    );
    let mut ctx = Ctx {
        defs: BTreeMap::new(),
        dec: Decorations::default(),
    };
    for inst in &module.types_global_values {
        if let Some(id) = inst.result_id {
            ctx.defs.insert(id, inst);
        }
    }
    for inst in &module.annotations {
        match (inst.class.opcode, inst.operands.as_slice()) {
            (Op::Decorate, [Operand::IdRef(id), Operand::Decoration(d), rest @ ..]) => {
                ctx.dec
                    .on_id
                    .entry(*id)
                    .or_default()
                    .push((*d, literals(rest)));
            }
            (
                Op::MemberDecorate,
                [Operand::IdRef(id), Operand::LiteralBit32(m), Operand::Decoration(d), rest @ ..],
            ) => {
                ctx.dec
                    .on_member
                    .entry((*id, *m))
                    .or_default()
                    .push((*d, literals(rest)));
            }
            _ => {}
        }
    }

    let capabilities = module
        .capabilities
        .iter()
        .filter_map(|i| match i.operands.first() {
            Some(Operand::Capability(c)) => Some(*c),
            _ => None,
        })
        .collect();
    let extensions = module
        .extensions
        .iter()
        .filter_map(|i| match i.operands.first() {
            Some(Operand::LiteralString(s)) => Some(s.clone()),
            _ => None,
        })
        .collect();

    // Specialization constants.
    let mut spec_constants = Vec::new();
    for inst in &module.types_global_values {
        if !matches!(
            inst.class.opcode,
            Op::SpecConstant | Op::SpecConstantTrue | Op::SpecConstantFalse
        ) {
            continue;
        }
        let id = inst.result_id.unwrap_or(0);
        let Some(&[spec_id, ..]) = ctx.dec.get(id, Decoration::SpecId) else {
            continue;
        };
        let ty = ctx.def(inst.result_type.unwrap_or(0))?;
        let bits = match ty.class.opcode {
            Op::TypeBool => 1,
            Op::TypeInt | Op::TypeFloat => ctx.lit_op(ty, 0)?,
            op => {
                return Err(Error::Invalid {
                    id,
                    why: format!("spec constant of type {op:?}"),
                })
            }
        };
        spec_constants.push(SpecConstant {
            spec_id,
            id,
            bits,
            default: ctx.const_value(id)?,
        });
    }
    spec_constants.sort_by_key(|s| (s.spec_id, s.id));

    // The WorkgroupSize built-in overrides any execution mode.
    let mut builtin_size = None;
    for inst in &module.types_global_values {
        let Some(id) = inst.result_id else { continue };
        let is_wg = ctx
            .dec
            .get(id, Decoration::BuiltIn)
            .is_some_and(|v| v.first() == Some(&(spirv::BuiltIn::WorkgroupSize as u32)));
        if is_wg
            && matches!(
                inst.class.opcode,
                Op::ConstantComposite | Op::SpecConstantComposite
            )
        {
            if inst.operands.len() != 3 {
                return Err(Error::Invalid {
                    id,
                    why: "WorkgroupSize is not a 3-component constant".into(),
                });
            }
            builtin_size = Some([
                ctx.size_dim(ctx.id_op(inst, 0)?)?,
                ctx.size_dim(ctx.id_op(inst, 1)?)?,
                ctx.size_dim(ctx.id_op(inst, 2)?)?,
            ]);
        }
    }

    let resources = resource_variables(&ctx, module)?;

    let mut entry_points = Vec::new();
    for ep in &module.entry_points {
        let (model, fid, name) = match ep.operands.as_slice() {
            [Operand::ExecutionModel(m), Operand::IdRef(f), Operand::LiteralString(n), ..] => {
                (*m, *f, n.clone())
            }
            _ => {
                return Err(Error::Invalid {
                    id: 0,
                    why: "malformed OpEntryPoint".into(),
                })
            }
        };
        let interface: Vec<Word> = ep.operands[3..]
            .iter()
            .filter_map(|o| {
                if let Operand::IdRef(i) = o {
                    Some(*i)
                } else {
                    None
                }
            })
            .collect();
        let mut local_size = None;
        for em in &module.execution_modes {
            if let [Operand::IdRef(f), Operand::ExecutionMode(spirv::ExecutionMode::LocalSize), Operand::LiteralBit32(x), Operand::LiteralBit32(y), Operand::LiteralBit32(z)] =
                em.operands.as_slice()
            {
                if *f == fid {
                    local_size = Some([*x, *y, *z].map(|value| SizeDim {
                        value,
                        spec_id: None,
                    }));
                }
            }
        }
        for (f, mode, ids) in mode_ids {
            if *f == fid && *mode == spirv::ExecutionMode::LocalSizeId as u32 {
                let [x, y, z] = ids.as_slice() else {
                    return Err(Error::Invalid {
                        id: fid,
                        why: "LocalSizeId needs three ids".into(),
                    });
                };
                local_size = Some([ctx.size_dim(*x)?, ctx.size_dim(*y)?, ctx.size_dim(*z)?]);
            }
        }
        if local_size.is_some()
            || builtin_size.is_some() && model == spirv::ExecutionModel::GLCompute
        {
            local_size = builtin_size.or(local_size);
        }
        // Before SPIR-V 1.4 the interface lists only Input/Output variables, so every
        // resource of the module is taken as used; from 1.4 on it lists all globals.
        let filter = version >= (1, 4);
        let mut bindings = Vec::new();
        let mut push_constant_size = None;
        for r in &resources {
            if filter && !interface.contains(&r.var()) {
                continue;
            }
            match r {
                Resource::Binding(b) => bindings.push(b.clone()),
                Resource::Push { size, .. } => {
                    push_constant_size = Some(push_constant_size.unwrap_or(0).max(*size))
                }
            }
        }
        bindings.sort_by_key(|b| (b.set, b.binding));
        // Only a vertex or fragment entry point's locations are read: other stages have
        // per-vertex arrays (tessellation, geometry, mesh) this flat list does not model.
        let locations = match model {
            spirv::ExecutionModel::Vertex | spirv::ExecutionModel::Fragment => {
                interface_locations(&ctx, module, &interface)?
            }
            _ => Vec::new(),
        };
        entry_points.push(EntryPoint {
            name,
            stage: Stage::from_model(model),
            local_size,
            bindings,
            push_constant_size,
            locations,
        });
    }

    Ok(Module {
        version,
        capabilities,
        extensions,
        entry_points,
        spec_constants,
    })
}

/// The [`Location`]s of the `Input`/`Output` variables among `interface` (variables
/// without a `Location` decoration — built-ins, blocks of built-ins — are left out).
fn interface_locations(
    ctx: &Ctx,
    module: &dr::Module,
    interface: &[Word],
) -> Result<Vec<Location>, Error> {
    let mut out: BTreeMap<(bool, u32), Location> = BTreeMap::new();
    for inst in &module.types_global_values {
        let var = inst.result_id.unwrap_or(0);
        if inst.class.opcode != Op::Variable || !interface.contains(&var) {
            continue;
        }
        let output = match inst.operands.first() {
            Some(Operand::StorageClass(StorageClass::Input)) => false,
            Some(Operand::StorageClass(StorageClass::Output)) => true,
            _ => continue,
        };
        let Some(&[first, ..]) = ctx.dec.get(var, Decoration::Location) else {
            continue;
        };
        let component = match ctx.dec.get(var, Decoration::Component) {
            Some(&[c, ..]) => c,
            _ => 0,
        };
        let ptr = ctx.def(inst.result_type.unwrap_or(0))?;
        if ptr.class.opcode != Op::TypePointer {
            return Err(Error::Invalid {
                id: var,
                why: "interface variable's type is not a pointer".into(),
            });
        }
        let mut slots = Vec::new();
        ctx.location_slots(ctx.id_op(ptr, 1)?, &mut slots, 0)?;
        for (i, (comps, kind, bits)) in slots.into_iter().enumerate() {
            let location = first.checked_add(i as u32).ok_or_else(|| Error::Invalid {
                id: var,
                why: "location overflows".into(),
            })?;
            let l = out.entry((output, location)).or_insert(Location {
                output,
                location,
                components: 0,
                kind,
                bits,
            });
            l.components = l.components.max(component + comps).min(4);
        }
    }
    Ok(out.into_values().collect())
}

impl Ctx<'_> {
    /// The locations a value of type `ty` takes: (scalars, scalar kind, bits) each; a
    /// struct's members take consecutive locations (member `Location`s are not read).
    fn location_slots(
        &self,
        ty: Word,
        out: &mut Vec<(u32, ScalarKind, u32)>,
        depth: u32,
    ) -> Result<(), Error> {
        let inst = self.def(ty)?;
        let bad = |why: &str| Error::Invalid {
            id: ty,
            why: why.to_string(),
        };
        if depth > 16 || out.len() > 64 {
            return Err(bad("interface type too deep or too large"));
        }
        match inst.class.opcode {
            Op::TypeFloat => out.push((1, ScalarKind::Float, self.lit_op(inst, 0)?)),
            Op::TypeInt => {
                let signed = self.lit_op(inst, 1)? != 0;
                let kind = if signed {
                    ScalarKind::Sint
                } else {
                    ScalarKind::Uint
                };
                out.push((1, kind, self.lit_op(inst, 0)?));
            }
            Op::TypeBool => out.push((1, ScalarKind::Uint, 32)),
            Op::TypeVector => {
                let n = self.lit_op(inst, 1)?;
                let mut s = Vec::new();
                self.location_slots(self.id_op(inst, 0)?, &mut s, depth + 1)?;
                let [(_, kind, bits)] = s.as_slice() else {
                    return Err(bad("vector of a non-scalar"));
                };
                // a 64-bit vector of three or four takes two locations
                let per = if *bits == 64 { 2 } else { 4 };
                let mut left = n;
                while left > 0 {
                    let k = left.min(per);
                    out.push((k, *kind, *bits));
                    left -= k;
                }
            }
            Op::TypeMatrix => {
                for _ in 0..self.lit_op(inst, 1)? {
                    self.location_slots(self.id_op(inst, 0)?, out, depth + 1)?;
                }
            }
            Op::TypeArray => {
                let len = self.const_value(self.id_op(inst, 1)?)?;
                if len > 64 {
                    return Err(bad("interface array longer than 64"));
                }
                for _ in 0..len {
                    self.location_slots(self.id_op(inst, 0)?, out, depth + 1)?;
                }
            }
            Op::TypeStruct => {
                for m in 0..inst.operands.len() {
                    self.location_slots(self.id_op(inst, m)?, out, depth + 1)?;
                }
            }
            op => return Err(bad(&format!("no interface locations for {op:?}"))),
        }
        Ok(())
    }
}

enum Resource {
    Binding(Binding),
    Push { var: Word, size: u32 },
}

impl Resource {
    fn var(&self) -> Word {
        match self {
            Resource::Binding(b) => b.var,
            Resource::Push { var, .. } => *var,
        }
    }
}

fn resource_variables(ctx: &Ctx, module: &dr::Module) -> Result<Vec<Resource>, Error> {
    let mut out = Vec::new();
    for inst in &module.types_global_values {
        if inst.class.opcode != Op::Variable {
            continue;
        }
        let var = inst.result_id.unwrap_or(0);
        let class = match inst.operands.first() {
            Some(Operand::StorageClass(c)) => *c,
            _ => {
                return Err(Error::Invalid {
                    id: var,
                    why: "OpVariable without a storage class".into(),
                })
            }
        };
        if !matches!(
            class,
            StorageClass::Uniform
                | StorageClass::StorageBuffer
                | StorageClass::UniformConstant
                | StorageClass::PushConstant
        ) {
            continue;
        }
        let ptr = ctx.def(inst.result_type.unwrap_or(0))?;
        if ptr.class.opcode != Op::TypePointer {
            return Err(Error::Invalid {
                id: var,
                why: "variable type is not a pointer".into(),
            });
        }
        let mut ty = ctx.id_op(ptr, 1)?;
        if class == StorageClass::PushConstant {
            let size = ctx.size_of(ty, None, 0)?;
            let size = u32::try_from(size.div_ceil(4) * 4).map_err(|_| Error::Invalid {
                id: var,
                why: "push-constant block too large".into(),
            })?;
            out.push(Resource::Push { var, size });
            continue;
        }
        // Unwrap one level of descriptor array.
        let mut count = Some(1);
        let arr = ctx.def(ty)?;
        match arr.class.opcode {
            Op::TypeArray => {
                let n = ctx.const_value(ctx.id_op(arr, 1)?)?;
                count = Some(u32::try_from(n).map_err(|_| Error::Invalid {
                    id: var,
                    why: "descriptor array too large".into(),
                })?);
                ty = ctx.id_op(arr, 0)?;
            }
            Op::TypeRuntimeArray => {
                count = None;
                ty = ctx.id_op(arr, 0)?;
            }
            _ => {}
        }
        let tinst = ctx.def(ty)?;
        let mut block_size = None;
        let kind = match (class, tinst.class.opcode) {
            (StorageClass::StorageBuffer, _) => {
                block_size = Some(ctx.size_of(ty, None, 0)?);
                DescriptorKind::StorageBuffer
            }
            (StorageClass::Uniform, _) => {
                block_size = Some(ctx.size_of(ty, None, 0)?);
                if ctx.dec.has(ty, Decoration::BufferBlock) {
                    DescriptorKind::StorageBuffer
                } else {
                    DescriptorKind::UniformBuffer
                }
            }
            (_, Op::TypeSampler) => DescriptorKind::Sampler,
            (_, Op::TypeSampledImage) => {
                // a sampled buffer image (`samplerBuffer`) is a uniform texel buffer
                let image = ctx.def(ctx.id_op(tinst, 0)?)?;
                match image.operands.get(1) {
                    Some(Operand::Dim(spirv::Dim::DimBuffer)) => DescriptorKind::UniformTexelBuffer,
                    _ => DescriptorKind::CombinedImageSampler,
                }
            }
            (_, Op::TypeAccelerationStructureKHR) => DescriptorKind::AccelerationStructure,
            (_, Op::TypeImage) => {
                let dim = match tinst.operands.get(1) {
                    Some(Operand::Dim(d)) => *d,
                    _ => {
                        return Err(Error::Invalid {
                            id: ty,
                            why: "OpTypeImage without a Dim".into(),
                        })
                    }
                };
                let sampled = ctx.lit_op(tinst, 5)?;
                match (dim, sampled) {
                    (spirv::Dim::DimSubpassData, _) => DescriptorKind::InputAttachment,
                    (spirv::Dim::DimBuffer, 2) => DescriptorKind::StorageTexelBuffer,
                    (spirv::Dim::DimBuffer, _) => DescriptorKind::UniformTexelBuffer,
                    (_, 2) => DescriptorKind::StorageImage,
                    _ => DescriptorKind::SampledImage,
                }
            }
            (_, op) => {
                return Err(Error::Invalid {
                    id: var,
                    why: format!("UniformConstant variable of type {op:?}"),
                })
            }
        };
        let set = ctx
            .dec
            .get(var, Decoration::DescriptorSet)
            .and_then(|v| v.first().copied());
        let binding = ctx
            .dec
            .get(var, Decoration::Binding)
            .and_then(|v| v.first().copied());
        let (Some(set), Some(binding)) = (set, binding) else {
            return Err(Error::Invalid {
                id: var,
                why: "resource without DescriptorSet and Binding".into(),
            });
        };
        out.push(Resource::Binding(Binding {
            set,
            binding,
            kind,
            count,
            block_size,
            var,
        }));
    }
    Ok(out)
}
