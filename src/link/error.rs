//! `link::Error`: everything that can be wrong with the link stage's input — the unlinked
//! ELFs (truncated, corrupt msgpack, wrong target), their relocations (symbol the state
//! does not define, branch out of range) and the pipeline state (a user-data layout that
//! cannot supply what the main part assumed). Each variant says where (file index, byte
//! offset, symbol, metadata path) and why.

use crate::binary;
use std::fmt;

/// Result alias for this layer.
pub type Result<T> = std::result::Result<T, Error>;

/// A typed link-stage error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// An input ELF could not be read (truncated, bad header, corrupt msgpack note, ...).
    Elf {
        /// Index of the input (0 = first ELF given).
        input: usize,
        /// The binary layer's error, with its byte offset.
        source: binary::Error,
    },
    /// An input is not an unlinked shader the link stage can use.
    NotUnlinked {
        /// Index of the input.
        input: usize,
        /// What is missing or wrong.
        reason: String,
    },
    /// Inputs (or input and state) are for different targets or wave sizes.
    TargetMismatch {
        /// Index of the input that disagrees.
        input: usize,
        /// What disagrees.
        reason: String,
    },
    /// A relocation names a symbol that neither the state nor the laid-out parts define.
    MissingSymbol {
        /// Index of the input (or `usize::MAX` for a generated part).
        input: usize,
        /// Offset of the relocated field in the input's `.text`.
        offset: u64,
        /// The symbol.
        symbol: String,
    },
    /// A relocation cannot be applied (branch out of range, unsupported kind, field outside
    /// the code).
    BadRelocation {
        /// Index of the input (or `usize::MAX` for a generated part).
        input: usize,
        /// Offset of the field in the input's `.text`.
        offset: u64,
        /// Why.
        reason: String,
    },
    /// The pipeline state is inconsistent or cannot satisfy what a shader assumed.
    State {
        /// Where in the state (JSON path style).
        path: String,
        /// Why.
        reason: String,
    },
    /// The state JSON does not parse.
    StateJson {
        /// Line in the JSON text.
        line: usize,
        /// Column.
        column: usize,
        /// Why.
        reason: String,
    },
    /// Merging the metadata of the parts failed.
    Metadata {
        /// The binary layer's error (path in the tree and reason).
        source: binary::Error,
    },
}

impl Error {
    pub(crate) fn state(path: impl Into<String>, reason: impl Into<String>) -> Error {
        Error::State {
            path: path.into(),
            reason: reason.into(),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let inp = |i: &usize| {
            if *i == usize::MAX {
                "generated part".to_string()
            } else {
                format!("input {i}")
            }
        };
        match self {
            Error::Elf { input, source } => write!(f, "{}: {source}", inp(input)),
            Error::NotUnlinked { input, reason } => {
                write!(f, "{}: not an unlinked shader: {reason}", inp(input))
            }
            Error::TargetMismatch { input, reason } => {
                write!(f, "{}: target mismatch: {reason}", inp(input))
            }
            Error::MissingSymbol {
                input,
                offset,
                symbol,
            } => write!(
                f,
                "{}: relocation at .text+{offset:#x}: symbol `{symbol}` is not defined by the \
                 pipeline state or any part",
                inp(input)
            ),
            Error::BadRelocation {
                input,
                offset,
                reason,
            } => write!(
                f,
                "{}: relocation at .text+{offset:#x}: {reason}",
                inp(input)
            ),
            Error::State { path, reason } => write!(f, "pipeline state {path}: {reason}"),
            Error::StateJson {
                line,
                column,
                reason,
            } => write!(f, "pipeline state JSON {line}:{column}: {reason}"),
            Error::Metadata { source } => write!(f, "metadata merge: {source}"),
        }
    }
}

impl std::error::Error for Error {}
