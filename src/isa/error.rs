//! The ISA layer's error type: every failure says where (source line and column, or byte
//! offset) and why. Nothing in this layer panics on bad input.

use std::fmt;

/// Where an error happened.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Loc {
    /// Assembly text, 1-based line and column.
    Text { line: u32, col: u32 },
    /// Binary input, byte offset of the instruction.
    Byte(usize),
    /// Building or encoding an `Inst` in memory.
    None,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    UnknownMnemonic(String),
    /// The instruction does not exist on this generation.
    NotOnTarget(String),
    BadOperand(String),
    OperandCount {
        expected: usize,
        found: usize,
    },
    OutOfRange(String),
    Syntax(String),
    InvalidEncoding(String),
    Truncated {
        needed: usize,
        available: usize,
    },
    TwoLiterals,
    /// A VOPD pair whose halves use the same VGPR bank in one operand role: `"vdst"`
    /// (parity), `"src0"`/`"src1"` (index mod 4) or `"src2"` (the accumulator, parity).
    VopdBank(&'static str),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    pub loc: Loc,
    pub kind: ErrorKind,
}

impl Error {
    pub fn new(kind: ErrorKind) -> Error {
        Error {
            loc: Loc::None,
            kind,
        }
    }
    pub fn at(mut self, loc: Loc) -> Error {
        if self.loc == Loc::None {
            self.loc = loc;
        }
        self
    }
    pub fn bad(msg: impl Into<String>) -> Error {
        Error::new(ErrorKind::BadOperand(msg.into()))
    }
    pub fn invalid(msg: impl Into<String>) -> Error {
        Error::new(ErrorKind::InvalidEncoding(msg.into()))
    }
    pub fn syntax(msg: impl Into<String>) -> Error {
        Error::new(ErrorKind::Syntax(msg.into()))
    }
    pub fn range(msg: impl Into<String>) -> Error {
        Error::new(ErrorKind::OutOfRange(msg.into()))
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self.loc {
            Loc::Text { line, col } => write!(f, "{line}:{col}: ")?,
            Loc::Byte(o) => write!(f, "byte offset {o:#x}: ")?,
            Loc::None => {}
        }
        match &self.kind {
            ErrorKind::UnknownMnemonic(m) => write!(f, "unknown mnemonic `{m}`"),
            ErrorKind::NotOnTarget(m) => write!(f, "`{m}` does not exist on this target"),
            ErrorKind::BadOperand(m) => write!(f, "bad operand: {m}"),
            ErrorKind::OperandCount { expected, found } => {
                write!(f, "expected {expected} operands, found {found}")
            }
            ErrorKind::OutOfRange(m) => write!(f, "out of range: {m}"),
            ErrorKind::Syntax(m) => write!(f, "syntax error: {m}"),
            ErrorKind::InvalidEncoding(m) => write!(f, "invalid encoding: {m}"),
            ErrorKind::Truncated { needed, available } => {
                write!(
                    f,
                    "truncated instruction: needs {needed} bytes, {available} left"
                )
            }
            ErrorKind::TwoLiterals => write!(f, "more than one distinct literal"),
            ErrorKind::VopdBank(role) if *role == "vdst" => {
                write!(f, "VOPD destinations must be one even and one odd VGPR")
            }
            ErrorKind::VopdBank(role) => {
                write!(f, "VOPD {role} operands in the same VGPR bank")
            }
        }
    }
}

impl std::error::Error for Error {}

pub type Result<T> = std::result::Result<T, Error>;
