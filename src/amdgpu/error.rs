//! The backend's error type: what input the backend cannot compile, and where.

use crate::isa::{Gen, Opcode};
use std::fmt;

/// Why the backend refused a shader. `inst` names the IR instruction (`%N` in the printed
/// IR's numbering is not stable across passes, so the arena index is given) when one is
/// to blame.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// An IR construct the instruction selector does not handle (yet).
    Unsupported { inst: Option<u32>, what: String },
    /// The target generation has no form of an instruction the selection needs (neither
    /// the opcode nor a rename of it, `isa_tables/renames.txt`).
    NotOnTarget { op: Opcode, gen: Gen },
    /// The shader needs more registers than the budget even after spilling what can be
    /// spilled (or an ABI input register lies beyond the budget).
    RegisterPressure {
        file: &'static str,
        needed: u32,
        budget: u32,
        /// Set when the failure is a tuple of this many registers that found no aligned
        /// room however much was spilled (fragmentation, not plain demand).
        tuple: Option<u16>,
    },
    /// The pipeline layout does not describe a resource the shader uses, or is malformed.
    Layout(String),
    /// Emission could not place an instruction (no such form, missing operand, a branch
    /// beyond the SOPP range, an unknown symbol).
    Encode(String),
    /// A branch spans more dwords than SOPP's 16-bit field reaches and no SGPR pair was
    /// kept free for the long form (the driver then allocates again with one).
    BranchRange { dwords: i64 },
    /// The ISA layer rejected an instruction the backend built (a backend bug surfaced as
    /// an error): the instruction as MIR prints it (empty when disassembling) and the ISA
    /// layer's typed error.
    Isa {
        inst: String,
        error: crate::isa::Error,
    },
    /// The ELF/metadata writer refused the code object.
    Binary(crate::binary::Error),
    /// The MIR verifier found a broken invariant (a backend bug).
    Verify(String),
    /// An unlinked compile cannot leave this to the link stage (a specialization constant
    /// that shapes control flow or sizes, an input no user-data layout can supply): the
    /// caller must compile the whole pipeline. Nothing was produced.
    NeedsWholePipeline(String),
    /// The module has no entry function (IR text without an `entry fn`): nothing to compile.
    NoEntryPoint,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Unsupported {
                inst: Some(i),
                what,
            } => write!(f, "unsupported at IR instruction #{i}: {what}"),
            Error::Unsupported { inst: None, what } => write!(f, "unsupported: {what}"),
            Error::NotOnTarget { op, gen } => {
                write!(f, "unsupported: no `{}` on {}", op.name(), gen.mcpu())
            }
            Error::RegisterPressure {
                file,
                budget,
                tuple: Some(d),
                ..
            } => write!(
                f,
                "register pressure: no aligned room for a {d}-{file} tuple within the budget of {budget}, however much is spilled"
            ),
            Error::RegisterPressure {
                file,
                needed,
                budget,
                tuple: None,
            } => write!(
                f,
                "register pressure: {needed} {file}s needed at once, budget {budget}, with nothing left to spill"
            ),
            Error::Layout(m) => write!(f, "pipeline layout: {m}"),
            Error::Encode(m) => write!(f, "encoding: {m}"),
            Error::BranchRange { dwords } => write!(
                f,
                "encoding: a branch spans {dwords} dwords, beyond the SOPP range, with no SGPR pair kept for the long form"
            ),
            Error::Isa { inst, error } if inst.is_empty() => write!(f, "encoding: {error}"),
            Error::Isa { inst, error } => write!(f, "encoding: `{inst}`: {error}"),
            Error::Binary(m) => write!(f, "binary: {m}"),
            Error::Verify(m) => write!(f, "MIR verifier: {m}"),
            Error::NeedsWholePipeline(m) => write!(
                f,
                "cannot compile unlinked ({m}); compile the whole pipeline instead"
            ),
            Error::NoEntryPoint => write!(f, "the module has no entry function to compile"),
        }
    }
}

impl std::error::Error for Error {}

impl Error {
    pub fn unsupported(inst: Option<u32>, what: impl Into<String>) -> Error {
        Error::Unsupported {
            inst,
            what: what.into(),
        }
    }
}
