//! `binary::Error`: everything that can be wrong with a code object we read, a metadata tree
//! we decode or merge, or a request to the writer.
//!
//! Every variant says *where* (a byte offset into the file, the note payload, or a path in
//! the metadata tree, or the index of the offending record) and *why*. Readers never panic
//! on input: every length and offset is range-checked before it is used, and failures come
//! back as one of these values.

use std::fmt;

/// Result alias for this layer.
pub type Result<T> = std::result::Result<T, Error>;

/// A typed error of the binary layer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// The input ends before a structure that should be there.
    Truncated {
        /// What was being read.
        what: &'static str,
        /// Byte offset (in the file, or in the msgpack payload) where it starts.
        offset: u64,
        /// Bytes needed from `offset`.
        needed: u64,
        /// Bytes available in total.
        len: u64,
    },
    /// The first bytes are not `\x7fELF`.
    BadMagic,
    /// An ELF identification or header field has a value we do not accept.
    BadHeader {
        /// Byte offset of the field.
        offset: u64,
        /// What is wrong.
        reason: String,
    },
    /// `e_machine` is not EM_AMDGPU.
    WrongMachine {
        /// The machine number found.
        found: u16,
    },
    /// A section header points outside the file, overlaps something it must not, or has
    /// inconsistent fields.
    BadSection {
        /// Section index.
        index: usize,
        /// Byte offset of the section header in the file.
        offset: u64,
        /// What is wrong.
        reason: String,
    },
    /// A symbol table entry is malformed.
    BadSymbol {
        /// Index in `.symtab`.
        index: usize,
        /// Byte offset of the entry in the file.
        offset: u64,
        /// What is wrong.
        reason: String,
    },
    /// A relocation record is malformed.
    BadRelocation {
        /// Index of the relocation section.
        section: usize,
        /// Index of the record in it.
        index: usize,
        /// Byte offset of the record in the file.
        offset: u64,
        /// What is wrong.
        reason: String,
    },
    /// A note record is malformed.
    BadNote {
        /// Byte offset of the note header in the file.
        offset: u64,
        /// What is wrong.
        reason: String,
    },
    /// The msgpack payload cannot be decoded.
    Msgpack {
        /// Byte offset inside the msgpack payload.
        offset: u64,
        /// What is wrong.
        reason: String,
    },
    /// A decoded metadata tree does not have the shape PAL expects, or two trees cannot be
    /// merged.
    Metadata {
        /// Path in the tree, e.g. `amdpal.pipelines[0].registers.0x2e12`.
        path: String,
        /// What is wrong.
        reason: String,
    },
    /// A request to the writer or a register packer is inconsistent (symbol outside
    /// `.text`, relocation out of range, VGPR count over the limit, ...).
    InvalidInput {
        /// Which input item.
        what: String,
        /// What is wrong.
        reason: String,
    },
}

impl Error {
    pub(crate) fn invalid(what: impl Into<String>, reason: impl Into<String>) -> Error {
        Error::InvalidInput {
            what: what.into(),
            reason: reason.into(),
        }
    }

    pub(crate) fn metadata(path: impl Into<String>, reason: impl Into<String>) -> Error {
        Error::Metadata {
            path: path.into(),
            reason: reason.into(),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Truncated {
                what,
                offset,
                needed,
                len,
            } => write!(
                f,
                "truncated: {what} at offset {offset:#x} needs {needed} bytes, input has {len}"
            ),
            Error::BadMagic => write!(f, "not an ELF file: bad magic at offset 0"),
            Error::BadHeader { offset, reason } => {
                write!(f, "bad ELF header field at offset {offset:#x}: {reason}")
            }
            Error::WrongMachine { found } => write!(
                f,
                "wrong machine at offset 0x12: e_machine {found} is not EM_AMDGPU (224)"
            ),
            Error::BadSection {
                index,
                offset,
                reason,
            } => write!(
                f,
                "bad section {index} (header at offset {offset:#x}): {reason}"
            ),
            Error::BadSymbol {
                index,
                offset,
                reason,
            } => write!(f, "bad symbol {index} at offset {offset:#x}: {reason}"),
            Error::BadRelocation {
                section,
                index,
                offset,
                reason,
            } => write!(
                f,
                "bad relocation {index} of section {section} at offset {offset:#x}: {reason}"
            ),
            Error::BadNote { offset, reason } => {
                write!(f, "bad note at offset {offset:#x}: {reason}")
            }
            Error::Msgpack { offset, reason } => {
                write!(f, "corrupt msgpack at payload offset {offset:#x}: {reason}")
            }
            Error::Metadata { path, reason } => write!(f, "PAL metadata {path}: {reason}"),
            Error::InvalidInput { what, reason } => write!(f, "invalid {what}: {reason}"),
        }
    }
}

impl std::error::Error for Error {}
