//! Word stream → instruction list.
//!
//! The framing (header, word counts) is checked here first, so every instruction handed on
//! carries the word offset it starts at and no later stage can read past the end of the
//! binary. [`Inst`] then offers checked operand accessors: asking for an operand that is
//! missing or of the wrong kind is an [`Error`] naming the instruction, never a panic.
//!
//! Operands are decoded by this file ([`decode_fast`]): the operand kinds of an opcode come
//! from rspirv's grammar table, looked up through a dense index by opcode (built once),
//! and each instruction's operands land in an inline `SmallVec` — no per-instruction
//! allocation for the common shapes. The result must be exactly what rspirv's binary
//! parser gives (the consumers match on `rspirv::dr::Operand`), so the fast path decodes
//! only what it knows to decode the same way:
//! - an operand kind it does not handle (image operands, execution modes, rare
//!   decorations) has that one instruction decoded by rspirv on its own (a header plus
//!   the instruction: no such kind needs the type context);
//! - anything invalid (missing or extra operands, an unknown enumerant, a literal of an
//!   unsupported type) abandons the fast path: the whole module is decoded again by
//!   rspirv ([`parse_with_rspirv`]), which produces the typed error, so errors are the
//!   same as before to the byte.
//!
//! `OpConstant`/`OpSpecConstant` literals and `OpSwitch` selectors need the width of a
//! type: [`Widths`] follows the ids' types as rspirv's type tracker does.
//! A few forms rspirv's grammar lacks are decoded here on both paths ([`NewOp`],
//! [`NEW_CAPABILITIES`], `OpSpecConstantOp` with literal operands: [`own_decode`]).

use super::super::{Error, ErrorKind};
use rspirv::binary::{Consumer, ParseAction};
use rspirv::dr::{self, Operand};
use rspirv::grammar::{self, OperandKind as K, OperandQuantifier as Q};
use rspirv::spirv::{self, Op};
use smallvec::{smallvec, SmallVec};
use std::sync::OnceLock;

/// An instruction's operands (after the result type and id), inline for most.
pub type Operands = SmallVec<[Operand; 4]>;

pub const MAGIC: u32 = 0x0723_0203;

/// One instruction with its position in the binary.
#[derive(Clone, Debug)]
pub struct Inst {
    /// Word offset of the instruction's first word.
    pub off: usize,
    pub op: Op,
    pub ty: Option<u32>,
    pub id: Option<u32>,
    pub ops: Operands,
    /// An instruction newer than rspirv's grammar (then `op` is `Nop` and must not be
    /// read as one); decoded here, its operands are ids.
    pub new_op: Option<NewOp>,
}

/// Instructions newer than rspirv's SPIR-V grammar, decoded by this file (their operands
/// are all ids). Each has a result type and a result id.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NewOp {
    /// SPV_VALVE_mixed_float_dot_product: f16vec2 · f16vec2 + f32 accumulator.
    FDot2MixAcc32Valve,
    /// SPV_VALVE_mixed_float_dot_product: f16vec2 · f16vec2 + f16 accumulator.
    FDot2MixAcc16Valve,
}

impl NewOp {
    pub fn from_u32(op: u32) -> Option<NewOp> {
        match op {
            6916 => Some(NewOp::FDot2MixAcc32Valve),
            6917 => Some(NewOp::FDot2MixAcc16Valve),
            _ => None,
        }
    }
    /// Number of id operands after the result type and id.
    fn operands(self) -> usize {
        match self {
            NewOp::FDot2MixAcc32Valve | NewOp::FDot2MixAcc16Valve => 3,
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            NewOp::FDot2MixAcc32Valve => "FDot2MixAcc32VALVE",
            NewOp::FDot2MixAcc16Valve => "FDot2MixAcc16VALVE",
        }
    }
}

/// Capabilities newer than rspirv's grammar that gcnc supports; an `OpCapability` naming
/// one reaches the module checks with a `LiteralBit32` operand.
pub const NEW_CAPABILITIES: &[(u32, &str)] = &[
    (6912, "DotProductFloat16AccFloat32VALVE"),
    (6913, "DotProductFloat16AccFloat16VALVE"),
];

/// The parsed module: id bound and instructions in binary order.
pub struct Parsed {
    pub bound: u32,
    pub insts: Vec<Inst>,
}

pub fn op_name(op: Op) -> String {
    format!("{:?}", op)
}

impl Inst {
    pub fn err(&self, kind: ErrorKind, reason: impl Into<String>) -> Error {
        let name = match self.new_op {
            Some(n) => n.name().to_string(),
            None => op_name(self.op),
        };
        Error::new(self.off, Some(&name), kind, reason)
    }
    fn operand(&self, i: usize) -> Result<&Operand, Error> {
        self.ops.get(i).ok_or_else(|| {
            self.err(
                ErrorKind::BadOperands,
                format!("operand {} missing (has {})", i, self.ops.len()),
            )
        })
    }
    /// Operand `i` as an id.
    pub fn id_op(&self, i: usize) -> Result<u32, Error> {
        match self.operand(i)? {
            Operand::IdRef(w) | Operand::IdScope(w) | Operand::IdMemorySemantics(w) => Ok(*w),
            o => Err(self.err(
                ErrorKind::BadOperands,
                format!("operand {} should be an id, is {:?}", i, o),
            )),
        }
    }
    /// Operand `i` as a 32-bit literal.
    pub fn lit(&self, i: usize) -> Result<u32, Error> {
        match self.operand(i)? {
            Operand::LiteralBit32(w) | Operand::LiteralExtInstInteger(w) => Ok(*w),
            o => Err(self.err(
                ErrorKind::BadOperands,
                format!("operand {} should be a literal, is {:?}", i, o),
            )),
        }
    }
    pub fn string(&self, i: usize) -> Result<&str, Error> {
        match self.operand(i)? {
            Operand::LiteralString(s) => Ok(s),
            o => Err(self.err(
                ErrorKind::BadOperands,
                format!("operand {} should be a string, is {:?}", i, o),
            )),
        }
    }
    pub fn result_id(&self) -> Result<u32, Error> {
        self.id
            .ok_or_else(|| self.err(ErrorKind::BadOperands, "missing result id"))
    }
    pub fn result_ty(&self) -> Result<u32, Error> {
        self.ty
            .ok_or_else(|| self.err(ErrorKind::BadOperands, "missing result type"))
    }
    /// Checks that there are at least `n` operands.
    pub fn need(&self, n: usize) -> Result<(), Error> {
        if self.ops.len() < n {
            return Err(self.err(
                ErrorKind::BadOperands,
                format!("needs {} operands, has {}", n, self.ops.len()),
            ));
        }
        Ok(())
    }
    /// Checks that there are exactly `n` operands.
    pub fn exact(&self, n: usize) -> Result<(), Error> {
        if self.ops.len() != n {
            return Err(self.err(
                ErrorKind::BadOperands,
                format!("needs {} operands, has {}", n, self.ops.len()),
            ));
        }
        Ok(())
    }
}

struct Collect {
    insts: Vec<dr::Instruction>,
}

impl Consumer for Collect {
    fn initialize(&mut self) -> ParseAction {
        ParseAction::Continue
    }
    fn finalize(&mut self) -> ParseAction {
        ParseAction::Continue
    }
    fn consume_header(&mut self, _: dr::ModuleHeader) -> ParseAction {
        ParseAction::Continue
    }
    fn consume_instruction(&mut self, inst: dr::Instruction) -> ParseAction {
        self.insts.push(inst);
        ParseAction::Continue
    }
}

fn malformed(word: usize, reason: impl Into<String>) -> Error {
    Error::new(word, None, ErrorKind::Malformed, reason)
}

/// Checks the header and the instruction framing, then decodes operands.
pub fn parse(words: &[u32]) -> Result<Parsed, Error> {
    if words.is_empty() {
        return Err(malformed(0, "empty binary"));
    }
    if words[0] != MAGIC {
        let why = if words[0].swap_bytes() == MAGIC {
            "byte-swapped SPIR-V is not supported (convert to host order first)".to_string()
        } else {
            format!("bad magic number {:#010x}", words[0])
        };
        return Err(malformed(0, why));
    }
    if words.len() < 5 {
        return Err(malformed(words.len(), "truncated header (needs 5 words)"));
    }
    let version = words[1];
    if version & 0xff00_00ff != 0 || (version >> 16) != 1 || ((version >> 8) & 0xff) > 6 {
        return Err(malformed(
            1,
            format!("unsupported SPIR-V version {:#x}", version),
        ));
    }
    let bound = words[3];
    if bound == 0 || bound > (1 << 22) {
        return Err(malformed(3, format!("id bound {} out of range", bound)));
    }
    if words[4] != 0 {
        return Err(malformed(4, "reserved header word is not zero"));
    }
    // Framing: every instruction must have a non-zero word count that fits.
    let mut offs = Vec::new();
    let mut at = 5;
    while at < words.len() {
        let wc = (words[at] >> 16) as usize;
        if wc == 0 {
            return Err(malformed(at, "instruction with word count 0"));
        }
        if at + wc > words.len() {
            return Err(malformed(
                at,
                format!(
                    "truncated instruction: word count {} but only {} words left",
                    wc,
                    words.len() - at
                ),
            ));
        }
        if Op::from_u32(words[at] & 0xffff).is_none()
            && NewOp::from_u32(words[at] & 0xffff).is_none()
        {
            return Err(Error::new(
                at,
                None,
                ErrorKind::Unsupported,
                format!("unknown opcode {}", words[at] & 0xffff),
            ));
        }
        offs.push(at);
        at += wc;
    }
    match decode_fast(words, &offs, bound) {
        Some(insts) => Ok(Parsed { bound, insts }),
        None => parse_with_rspirv(words, &offs, bound),
    }
}

/// The forms rspirv's grammar lacks, decoded here on both paths: an instruction newer than
/// the grammar ([`NewOp`]), a capability newer than it ([`NEW_CAPABILITIES`]), an
/// `OpSpecConstantOp` whose operation takes literals (VectorShuffle, CompositeExtract and
/// CompositeInsert). `Ok(None)`: an instruction rspirv decodes.
fn own_decode(words: &[u32], off: usize) -> Result<Option<Inst>, Error> {
    let wc = (words[off] >> 16) as usize;
    if let Some(n) = NewOp::from_u32(words[off] & 0xffff) {
        let name = n.name();
        if wc != 3 + n.operands() {
            return Err(Error::new(
                off,
                Some(name),
                ErrorKind::BadOperands,
                format!("needs {} words, has {wc}", 3 + n.operands()),
            ));
        }
        return Ok(Some(Inst {
            off,
            op: Op::Nop,
            ty: Some(words[off + 1]),
            id: Some(words[off + 2]),
            ops: words[off + 3..off + wc]
                .iter()
                .map(|&w| Operand::IdRef(w))
                .collect(),
            new_op: Some(n),
        }));
    }
    if words[off] & 0xffff == Op::Capability as u32
        && wc == 2
        && NEW_CAPABILITIES.iter().any(|&(c, _)| c == words[off + 1])
    {
        return Ok(Some(Inst {
            off,
            op: Op::Capability,
            ty: None,
            id: None,
            ops: smallvec![Operand::LiteralBit32(words[off + 1])],
            new_op: None,
        }));
    }
    if words[off] & 0xffff != Op::SpecConstantOp as u32 {
        return Ok(None);
    }
    let e = |r: &str| Error::new(off, Some("SpecConstantOp"), ErrorKind::BadOperands, r);
    if wc < 4 {
        return Err(e("needs a result type, a result id and an opcode"));
    }
    let op = Op::from_u32(words[off + 3]).ok_or_else(|| e("unknown opcode operand"))?;
    let ids = match op {
        Op::VectorShuffle | Op::CompositeInsert => 2,
        Op::CompositeExtract => 1,
        _ if spec_constant_operation(op) => return Ok(None),
        // (rspirv panics on some of the others, e.g. an OpSwitch or OpConstant inside)
        _ => {
            return Err(e(&format!(
                "{op:?} is not an operation OpSpecConstantOp allows"
            )))
        }
    };
    let mut ops: Operands = smallvec![Operand::LiteralSpecConstantOpInteger(op)];
    for (k, &w) in words[off + 4..off + wc].iter().enumerate() {
        ops.push(if k < ids {
            Operand::IdRef(w)
        } else {
            Operand::LiteralBit32(w)
        });
    }
    Ok(Some(Inst {
        off,
        op: Op::SpecConstantOp,
        ty: Some(words[off + 1]),
        id: Some(words[off + 2]),
        ops,
        new_op: None,
    }))
}

/// The grammar entry of each opcode (the first with that number, as rspirv's own lookup
/// finds it), indexed by opcode.
fn grammar_of(opcode: u16) -> Option<&'static grammar::Instruction<'static>> {
    static INDEX: OnceLock<Vec<Option<&'static grammar::Instruction<'static>>>> = OnceLock::new();
    let index = INDEX.get_or_init(|| {
        let table = grammar::CoreInstructionTable::iter;
        let len = table()
            .map(|g| g.opcode as u16 as usize + 1)
            .max()
            .unwrap_or(0);
        let mut v = vec![None; len];
        for g in table() {
            let slot = &mut v[g.opcode as u16 as usize];
            if slot.is_none() {
                *slot = Some(g);
            }
        }
        v
    });
    index.get(opcode as usize).copied().flatten()
}

/// How a literal of each id's type is encoded, by id (rspirv's type tracker: integer and
/// float types by their width, any other value by its result type).
struct Widths(Vec<u8>);

impl Widths {
    const UNKNOWN: u8 = 0;
    const ONE_WORD: u8 = 1;
    const TWO_WORDS: u8 = 2;
    const UNSUPPORTED: u8 = 3;

    fn of(&self, id: u32) -> u8 {
        self.0.get(id as usize).copied().unwrap_or(Self::UNKNOWN)
    }
    /// Records `inst`'s result; false when its result id is outside the bound (the table
    /// cannot hold it: the caller falls back to rspirv).
    fn track(&mut self, inst: &Inst) -> bool {
        let Some(rid) = inst.id else { return true };
        let Some(slot) = self.0.get_mut(rid as usize) else {
            return false;
        };
        let lit = |k: usize| match inst.ops.get(k) {
            Some(Operand::LiteralBit32(w)) => Some(*w),
            _ => None,
        };
        if inst.new_op.is_none() && grammar::reflect::is_type(inst.op) {
            let width = match inst.op {
                Op::TypeInt if lit(1).is_some() => lit(0).map(|b| match b {
                    8 | 16 | 32 => Self::ONE_WORD,
                    64 => Self::TWO_WORDS,
                    _ => Self::UNSUPPORTED,
                }),
                Op::TypeFloat => lit(0).map(|b| match b {
                    16 | 32 => Self::ONE_WORD,
                    64 => Self::TWO_WORDS,
                    _ => Self::UNSUPPORTED,
                }),
                _ => None,
            };
            if let Some(w) = width {
                *slot = w;
            }
        } else if let Some(t) = inst.ty {
            let w = self.0.get(t as usize).copied().unwrap_or(Self::UNKNOWN);
            if w != Self::UNKNOWN {
                self.0[rid as usize] = w;
            }
        }
        true
    }
}

/// The operand words of one instruction, read front to back.
struct Reader<'a> {
    words: &'a [u32],
    at: usize,
}

impl Reader<'_> {
    fn more(&self) -> bool {
        self.at < self.words.len()
    }
    fn word(&mut self) -> Option<u32> {
        let w = self.words.get(self.at).copied();
        self.at += 1;
        w
    }
    /// A nul-terminated UTF-8 string padded to whole words.
    fn string(&mut self) -> Option<String> {
        let mut bytes = Vec::new();
        while let Some(w) = self.word() {
            for b in w.to_le_bytes() {
                if b == 0 {
                    return String::from_utf8(bytes).ok();
                }
                bytes.push(b);
            }
        }
        None
    }
    /// A literal whose width is that of type `ty` ([`Widths`]).
    fn literal(&mut self, widths: &Widths, ty: u32) -> Option<Operand> {
        match widths.of(ty) {
            Widths::UNKNOWN | Widths::ONE_WORD => self.word().map(Operand::LiteralBit32),
            Widths::TWO_WORDS => {
                let lo = self.word()? as u64;
                let hi = self.word()? as u64;
                Some(Operand::LiteralBit64(hi << 32 | lo))
            }
            _ => None,
        }
    }
}

/// What the fast path made of one instruction.
enum Fast {
    Done(Inst),
    /// An operand kind it does not decode: rspirv decodes this instruction alone.
    Unhandled,
    /// Not valid as rspirv reads it: rspirv decodes the whole module and reports it.
    Invalid,
}

/// Decorations whose argument is one literal (per the SPIR-V grammar).
fn decoration_literal(d: spirv::Decoration) -> bool {
    use spirv::Decoration as D;
    matches!(
        d,
        D::SpecId
            | D::ArrayStride
            | D::MatrixStride
            | D::Stream
            | D::Location
            | D::Component
            | D::Index
            | D::Binding
            | D::DescriptorSet
            | D::Offset
            | D::XfbBuffer
            | D::XfbStride
            | D::InputAttachmentIndex
            | D::Alignment
            | D::MaxByteOffset
    )
}

/// Decorations without arguments (per the SPIR-V grammar); the rest go to rspirv.
fn decoration_bare(d: spirv::Decoration) -> bool {
    use spirv::Decoration as D;
    matches!(
        d,
        D::RelaxedPrecision
            | D::Block
            | D::BufferBlock
            | D::RowMajor
            | D::ColMajor
            | D::GLSLShared
            | D::GLSLPacked
            | D::CPacked
            | D::NoPerspective
            | D::Flat
            | D::Patch
            | D::Centroid
            | D::Sample
            | D::Invariant
            | D::Restrict
            | D::Aliased
            | D::Volatile
            | D::Constant
            | D::Coherent
            | D::NonWritable
            | D::NonReadable
            | D::Uniform
            | D::NoContraction
            | D::NonUniform
            | D::RestrictPointer
            | D::AliasedPointer
    )
}

/// Decodes one instruction (not one of [`own_decode`]'s) as rspirv's parser would.
fn decode_one(words: &[u32], off: usize, widths: &Widths) -> Fast {
    use Fast::{Invalid, Unhandled};
    let wc = (words[off] >> 16) as usize;
    let Some(g) = grammar_of((words[off] & 0xffff) as u16) else {
        return Invalid;
    };
    let mut r = Reader {
        words: &words[off + 1..off + wc],
        at: 0,
    };
    let (mut ty, mut id) = (None, None);
    let mut ops = Operands::new();
    macro_rules! get {
        ($e:expr) => {
            match $e {
                Some(v) => v,
                None => return Invalid,
            }
        };
    }
    macro_rules! enumerant {
        ($kind:ident, $variant:ident, $from:ident) => {
            ops.push(Operand::$variant(get!(r
                .word()
                .and_then(spirv::$kind::$from))))
        };
    }
    let mut k = 0;
    while k < g.operands.len() {
        let lo = &g.operands[k];
        if !r.more() {
            if lo.quantifier == Q::One {
                return Invalid;
            }
            break;
        }
        match lo.kind {
            K::IdResultType => ty = Some(get!(r.word())),
            K::IdResult => id = Some(get!(r.word())),
            K::IdRef => ops.push(Operand::IdRef(get!(r.word()))),
            K::IdScope => ops.push(Operand::IdScope(get!(r.word()))),
            K::IdMemorySemantics => ops.push(Operand::IdMemorySemantics(get!(r.word()))),
            K::LiteralInteger | K::LiteralFloat => ops.push(Operand::LiteralBit32(get!(r.word()))),
            K::LiteralExtInstInteger => ops.push(Operand::LiteralExtInstInteger(get!(r.word()))),
            K::LiteralString => ops.push(Operand::LiteralString(get!(r.string()))),
            K::PairIdRefLiteralInteger => {
                ops.push(Operand::IdRef(get!(r.word())));
                ops.push(Operand::LiteralBit32(get!(r.word())));
            }
            K::PairIdRefIdRef => {
                ops.push(Operand::IdRef(get!(r.word())));
                ops.push(Operand::IdRef(get!(r.word())));
            }
            K::LiteralContextDependentNumber => {
                let t = get!(ty);
                ops.push(get!(r.literal(widths, t)));
            }
            K::PairLiteralIntegerIdRef => {
                let selector = match ops.first() {
                    Some(Operand::IdRef(s)) => *s,
                    _ => return Invalid,
                };
                ops.push(get!(r.literal(widths, selector)));
                ops.push(Operand::IdRef(get!(r.word())));
            }
            K::StorageClass => enumerant!(StorageClass, StorageClass, from_u32),
            K::Dim => enumerant!(Dim, Dim, from_u32),
            K::ImageFormat => enumerant!(ImageFormat, ImageFormat, from_u32),
            K::AccessQualifier => enumerant!(AccessQualifier, AccessQualifier, from_u32),
            K::ExecutionModel => enumerant!(ExecutionModel, ExecutionModel, from_u32),
            K::AddressingModel => enumerant!(AddressingModel, AddressingModel, from_u32),
            K::MemoryModel => enumerant!(MemoryModel, MemoryModel, from_u32),
            K::Capability => enumerant!(Capability, Capability, from_u32),
            K::SourceLanguage => enumerant!(SourceLanguage, SourceLanguage, from_u32),
            K::GroupOperation => enumerant!(GroupOperation, GroupOperation, from_u32),
            K::FunctionControl => enumerant!(FunctionControl, FunctionControl, from_bits),
            K::SelectionControl => enumerant!(SelectionControl, SelectionControl, from_bits),
            K::LoopControl => {
                use spirv::LoopControl as L;
                let c = get!(r.word().and_then(L::from_bits));
                if !(L::UNROLL | L::DONT_UNROLL | L::DEPENDENCY_INFINITE).contains(c) {
                    return Unhandled;
                }
                ops.push(Operand::LoopControl(c));
            }
            K::MemoryAccess => {
                use spirv::MemoryAccess as M;
                let m = get!(r.word().and_then(M::from_bits));
                if !(M::VOLATILE | M::ALIGNED | M::NONTEMPORAL).contains(m) {
                    return Unhandled;
                }
                ops.push(Operand::MemoryAccess(m));
                if m.contains(M::ALIGNED) {
                    ops.push(Operand::LiteralBit32(get!(r.word())));
                }
            }
            K::Decoration => {
                let d = get!(r.word().and_then(spirv::Decoration::from_u32));
                ops.push(Operand::Decoration(d));
                if d == spirv::Decoration::BuiltIn {
                    enumerant!(BuiltIn, BuiltIn, from_u32);
                } else if decoration_literal(d) {
                    ops.push(Operand::LiteralBit32(get!(r.word())));
                } else if !decoration_bare(d) {
                    return Unhandled;
                }
            }
            _ => return Unhandled,
        }
        if lo.quantifier != Q::ZeroOrMore {
            k += 1;
        }
    }
    if r.more() {
        return Invalid;
    }
    Fast::Done(Inst {
        off,
        op: g.opcode,
        ty,
        id,
        ops,
        new_op: None,
    })
}

/// rspirv decodes the instruction at `off` on its own (behind the module's header).
fn decode_alone(words: &[u32], off: usize) -> Option<Inst> {
    let wc = (words[off] >> 16) as usize;
    let mut module = Vec::with_capacity(5 + wc);
    module.extend_from_slice(&words[..5]);
    module.extend_from_slice(&words[off..off + wc]);
    let mut c = Collect { insts: Vec::new() };
    rspirv::binary::parse_words(&module, &mut c).ok()?;
    let [first] = <[dr::Instruction; 1]>::try_from(c.insts).ok()?;
    Some(Inst {
        off,
        op: first.class.opcode,
        ty: first.result_type,
        id: first.result_id,
        ops: first.operands.into(),
        new_op: None,
    })
}

/// The fast path: every instruction decoded here (or alone by rspirv); None when the
/// module must go through [`parse_with_rspirv`] (something invalid: its error is
/// rspirv's).
fn decode_fast(words: &[u32], offs: &[usize], bound: u32) -> Option<Vec<Inst>> {
    let mut widths = Widths(vec![Widths::UNKNOWN; bound as usize]);
    let mut insts = Vec::with_capacity(offs.len());
    for &off in offs {
        let inst = match own_decode(words, off) {
            Ok(Some(i)) => i,
            Err(_) => return None,
            Ok(None) => match decode_one(words, off, &widths) {
                Fast::Done(i) => i,
                Fast::Unhandled => decode_alone(words, off)?,
                Fast::Invalid => return None,
            },
        };
        if !widths.track(&inst) {
            return None;
        }
        insts.push(inst);
    }
    Some(insts)
}

/// The operations SPIR-V allows in `OpSpecConstantOp` (the Shader and Kernel lists of its
/// definition) whose operands are all ids; the three with literal operands are
/// [`own_decode`]'s.
fn spec_constant_operation(op: Op) -> bool {
    use Op as O;
    matches!(
        op,
        O::SConvert
            | O::FConvert
            | O::UConvert
            | O::SNegate
            | O::Not
            | O::IAdd
            | O::ISub
            | O::IMul
            | O::UDiv
            | O::SDiv
            | O::UMod
            | O::SRem
            | O::SMod
            | O::ShiftRightLogical
            | O::ShiftRightArithmetic
            | O::ShiftLeftLogical
            | O::BitwiseOr
            | O::BitwiseXor
            | O::BitwiseAnd
            | O::LogicalOr
            | O::LogicalAnd
            | O::LogicalNot
            | O::LogicalEqual
            | O::LogicalNotEqual
            | O::Select
            | O::IEqual
            | O::INotEqual
            | O::ULessThan
            | O::SLessThan
            | O::UGreaterThan
            | O::SGreaterThan
            | O::ULessThanEqual
            | O::SLessThanEqual
            | O::UGreaterThanEqual
            | O::SGreaterThanEqual
            | O::QuantizeToF16
            | O::ConvertFToS
            | O::ConvertSToF
            | O::ConvertFToU
            | O::ConvertUToF
            | O::ConvertPtrToU
            | O::ConvertUToPtr
            | O::GenericCastToPtr
            | O::PtrCastToGeneric
            | O::Bitcast
            | O::FNegate
            | O::FAdd
            | O::FSub
            | O::FMul
            | O::FDiv
            | O::FRem
            | O::FMod
            | O::AccessChain
            | O::InBoundsAccessChain
            | O::PtrAccessChain
            | O::InBoundsPtrAccessChain
    )
}

/// The whole module through rspirv's parser: the path for invalid modules, whose errors
/// it reports (mapped back to the failing instruction).
fn parse_with_rspirv(words: &[u32], offs: &[usize], bound: u32) -> Result<Parsed, Error> {
    // rspirv cannot decode OpSpecConstantOp whose operation takes literals (VectorShuffle,
    // CompositeExtract/Insert), nor instructions and capabilities newer than its grammar
    // ([`NewOp`], [`NEW_CAPABILITIES`]): those are decoded here, and rspirv sees an OpUndef
    // of the same type and id followed by OpNops (a capability: two OpNops) in their place.
    let mut own: Vec<Option<Inst>> = Vec::with_capacity(offs.len());
    let mut fed = words.to_vec();
    for &off in offs {
        let wc = (words[off] >> 16) as usize;
        let inst = own_decode(words, off)?;
        match &inst {
            // a capability: two OpNops
            Some(i) if i.op == Op::Capability => {
                fed[off] = (1 << 16) | Op::Nop as u32;
                fed[off + 1] = (1 << 16) | Op::Nop as u32;
            }
            // an OpUndef of the same type and id, then OpNops
            Some(_) => {
                fed[off] = (3 << 16) | Op::Undef as u32;
                for w in &mut fed[off + 3..off + wc] {
                    *w = (1 << 16) | Op::Nop as u32;
                }
            }
            None => {}
        }
        own.push(inst);
    }
    // How many rspirv instructions each of ours became: an own-decoded instruction with
    // a result is an OpUndef plus one OpNop per operand word, a capability two OpNops.
    let widths: Vec<usize> = (0..offs.len())
        .map(|k| match &own[k] {
            Some(i) if i.op == Op::Capability => 2,
            Some(_) => 1 + ((words[offs[k]] >> 16) as usize - 3),
            None => 1,
        })
        .collect();
    let width = |k: usize| widths[k];
    let mut c = Collect { insts: Vec::new() };
    if let Err(state) = rspirv::binary::parse_words(&fed, &mut c) {
        use rspirv::binary::ParseState as S;
        // The failing instruction is the first one rspirv did not hand over.
        let (mut k, mut seen) = (0, 0);
        while k < offs.len() && seen + width(k) <= c.insts.len() {
            seen += width(k);
            k += 1;
        }
        let off = offs.get(k).copied().unwrap_or(words.len());
        let opname = offs
            .get(k)
            .and_then(|&o| Op::from_u32(words[o] & 0xffff))
            .map(op_name);
        let reason = match &state {
            S::OperandExpected(..) => "missing operands".to_string(),
            S::OperandExceeded(..) => "too many operands".to_string(),
            S::TypeUnsupported(..) => "literal of an unsupported type".to_string(),
            s => s.to_string(),
        };
        return Err(Error {
            word: off,
            opcode: opname,
            kind: ErrorKind::BadOperands,
            reason,
        });
    }
    let total: usize = (0..offs.len()).map(width).sum();
    if c.insts.len() != total {
        return Err(malformed(words.len(), "instruction stream ended early"));
    }
    let mut decoded = c.insts.into_iter();
    let mut insts = Vec::with_capacity(offs.len());
    for (k, &off) in offs.iter().enumerate() {
        let w = width(k);
        let first = decoded.next().expect("counted above");
        for _ in 1..w {
            decoded.next();
        }
        insts.push(match own[k].take() {
            Some(i) => i,
            None => Inst {
                off,
                op: first.class.opcode,
                ty: first.result_type,
                id: first.result_id,
                ops: first.operands.into(),
                new_op: None,
            },
        });
    }
    Ok(Parsed { bound, insts })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words_of(path: &std::path::Path) -> Vec<u32> {
        let bytes = std::fs::read(path).unwrap();
        bytes
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect()
    }

    fn framing(words: &[u32]) -> Vec<usize> {
        let mut offs = Vec::new();
        let mut at = 5;
        while at < words.len() {
            offs.push(at);
            at += (words[at] >> 16) as usize;
        }
        offs
    }

    /// Every SPIR-V module in the repository decodes on the fast path, to exactly the
    /// instructions rspirv's parser gives.
    #[test]
    fn fast_path_decodes_every_test_module_as_rspirv_does() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/shaders");
        let mut checked = 0;
        for dir in std::fs::read_dir(&root).unwrap() {
            let dir = dir.unwrap().path();
            if !dir.is_dir() {
                continue;
            }
            let mut files: Vec<_> = std::fs::read_dir(&dir)
                .unwrap()
                .map(|e| e.unwrap().path())
                .filter(|p| p.extension().is_some_and(|e| e == "spv"))
                .collect();
            files.sort();
            for f in files {
                let words = words_of(&f);
                let offs = framing(&words);
                let fast = decode_fast(&words, &offs, words[3])
                    .unwrap_or_else(|| panic!("{}: not decoded on the fast path", f.display()));
                let slow = parse_with_rspirv(&words, &offs, words[3]).unwrap();
                assert_eq!(
                    format!("{:?}", fast),
                    format!("{:?}", slow.insts),
                    "{}",
                    f.display()
                );
                checked += 1;
            }
        }
        assert!(checked > 100, "only {checked} modules found");
    }

    /// A 64-bit constant's literal takes two words, found through its type; an `OpSwitch`
    /// selector of a 64-bit type takes two-word case literals.
    #[test]
    fn literal_widths_follow_the_types() {
        let op = |op: Op, wc: u32| (wc << 16) | op as u32;
        let words = vec![
            MAGIC,
            0x0001_0300,
            0,
            10,
            0,
            op(Op::TypeInt, 4),
            1,
            64,
            0,
            op(Op::Constant, 5),
            1,
            2,
            0xdead_beef,
            7,
            op(Op::Constant, 4),
            3,
            4,
            5,
        ];
        let offs = framing(&words);
        let fast = decode_fast(&words, &offs, 10).unwrap();
        assert!(matches!(
            fast[1].ops[0],
            Operand::LiteralBit64(0x7_dead_beef)
        ));
        // type 3 is unknown: one word, as rspirv reads it
        assert!(matches!(fast[2].ops[0], Operand::LiteralBit32(5)));
        let slow = parse_with_rspirv(&words, &offs, 10).unwrap();
        assert_eq!(format!("{:?}", fast), format!("{:?}", slow.insts));
    }
}
