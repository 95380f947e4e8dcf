//! Front-ends: shader binaries in, IR ([`crate::ir::Module`]) out.
//!
//! Only SPIR-V exists today ([`spirv`]). A front-end never panics on input: every
//! malformed or unsupported construct becomes an [`Error`] that names where it happened (the
//! word offset of the offending instruction in the binary), what instruction it was (the
//! opcode name) and why. The IR a front-end returns has passed [`crate::ir::verify_module`];
//! a translation that would produce IR failing the verifier is reported as an error too, so
//! bad input can never turn into silently wrong IR.

pub mod spirv;

use std::fmt;

/// A front-end error: where (word offset into the SPIR-V binary, 0 for the header), which
/// instruction (opcode name, if the error belongs to one) and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    /// Word offset of the instruction (or header word) the error is about.
    pub word: usize,
    /// Opcode name of that instruction (`None` for header / whole-module errors).
    pub opcode: Option<String>,
    pub kind: ErrorKind,
    pub reason: String,
}

/// The class of a front-end error (what tests match on).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// The word stream is not a SPIR-V module (magic, header, truncated instruction).
    Malformed,
    /// An id is out of range, undefined, or of the wrong kind.
    BadId,
    /// An instruction has the wrong number or kind of operands.
    BadOperands,
    /// Operands have types the instruction does not accept.
    BadType,
    /// Valid SPIR-V that gcnc does not handle (capability, opcode, execution model, …).
    Unsupported,
    /// Control flow that is not structured the way Vulkan requires.
    BadControlFlow,
    /// The entry point asked for does not exist.
    NoEntryPoint,
    /// Unlinked translation (`spirv::translate_unlinked`): a specialization constant left
    /// to the link stage decides something the compile needs now (a size, a folded
    /// constant); the caller must compile the whole pipeline.
    NeedsWholePipeline,
    /// The translation produced IR the verifier rejects (a front-end bug, reported rather
    /// than returned).
    Internal,
}

impl Error {
    pub fn new(
        word: usize,
        opcode: Option<&str>,
        kind: ErrorKind,
        reason: impl Into<String>,
    ) -> Self {
        Error {
            word,
            opcode: opcode.map(str::to_string),
            kind,
            reason: reason.into(),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SPIR-V word {}", self.word)?;
        if let Some(op) = &self.opcode {
            write!(f, " (Op{})", op)?;
        }
        write!(f, ": {:?}: {}", self.kind, self.reason)
    }
}

impl std::error::Error for Error {}
