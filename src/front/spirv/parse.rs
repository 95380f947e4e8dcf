//! Word stream → instruction list.
//!
//! The framing (header, word counts) is checked here first, so every instruction handed on
//! carries the word offset it starts at and no later stage can read past the end of the
//! binary. Operand decoding is delegated to rspirv's binary parser (except for the few
//! forms its grammar lacks, decoded here: [`NewOp`]); its errors are mapped back to the
//! instruction they belong to. [`Inst`] then offers checked operand accessors:
//! asking for an operand that is missing or of the wrong kind is an [`Error`] naming the
//! instruction, never a panic.

use super::super::{Error, ErrorKind};
use rspirv::binary::{Consumer, ParseAction};
use rspirv::dr::{self, Operand};
use rspirv::spirv::Op;

pub const MAGIC: u32 = 0x0723_0203;

/// One instruction with its position in the binary.
#[derive(Clone, Debug)]
pub struct Inst {
    /// Word offset of the instruction's first word.
    pub off: usize,
    pub op: Op,
    pub ty: Option<u32>,
    pub id: Option<u32>,
    pub ops: Vec<Operand>,
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
    // rspirv cannot decode OpSpecConstantOp whose operation takes literals (VectorShuffle,
    // CompositeExtract/Insert), nor instructions and capabilities newer than its grammar
    // ([`NewOp`], [`NEW_CAPABILITIES`]): those are decoded here, and rspirv sees an OpUndef
    // of the same type and id followed by OpNops (a capability: two OpNops) in their place.
    let mut own: Vec<Option<Inst>> = Vec::with_capacity(offs.len());
    let mut fed = words.to_vec();
    for &off in &offs {
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
            own.push(Some(Inst {
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
            // rspirv sees an OpUndef of the same type and id, then OpNops
            fed[off] = (3 << 16) | Op::Undef as u32;
            for w in &mut fed[off + 3..off + wc] {
                *w = (1 << 16) | Op::Nop as u32;
            }
            continue;
        }
        if words[off] & 0xffff == Op::Capability as u32
            && wc == 2
            && NEW_CAPABILITIES.iter().any(|&(c, _)| c == words[off + 1])
        {
            own.push(Some(Inst {
                off,
                op: Op::Capability,
                ty: None,
                id: None,
                ops: vec![Operand::LiteralBit32(words[off + 1])],
                new_op: None,
            }));
            fed[off] = (1 << 16) | Op::Nop as u32;
            fed[off + 1] = (1 << 16) | Op::Nop as u32;
            continue;
        }
        if words[off] & 0xffff != Op::SpecConstantOp as u32 {
            own.push(None);
            continue;
        }
        let e = |r: &str| Error::new(off, Some("SpecConstantOp"), ErrorKind::BadOperands, r);
        if wc < 4 {
            return Err(e("needs a result type, a result id and an opcode"));
        }
        let op = Op::from_u32(words[off + 3]).ok_or_else(|| e("unknown opcode operand"))?;
        let ids = match op {
            Op::VectorShuffle | Op::CompositeInsert => 2,
            Op::CompositeExtract => 1,
            _ => usize::MAX,
        };
        let mut ops = vec![Operand::LiteralSpecConstantOpInteger(op)];
        for (k, &w) in words[off + 4..off + wc].iter().enumerate() {
            ops.push(if k < ids {
                Operand::IdRef(w)
            } else {
                Operand::LiteralBit32(w)
            });
        }
        own.push(Some(Inst {
            off,
            op: Op::SpecConstantOp,
            ty: Some(words[off + 1]),
            id: Some(words[off + 2]),
            ops,
            new_op: None,
        }));
        fed[off] = (3 << 16) | Op::Undef as u32;
        for w in &mut fed[off + 3..off + wc] {
            *w = (1 << 16) | Op::Nop as u32;
        }
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
                ops: first.operands,
                new_op: None,
            },
        });
    }
    Ok(Parsed { bound, insts })
}
