//! The emulator's error type. Every failure of a shader run is an `Error` that says what
//! went wrong (`ErrorKind`), where (workgroup, wave, byte offset of the instruction and its
//! text) and carries a register dump of the failing wave, so a wrong program is reported,
//! never a panic and never a hang.

use std::fmt;

/// What went wrong.
#[derive(Clone, Debug, PartialEq)]
pub enum ErrorKind {
    /// The bytes at the program counter do not decode (unknown or reserved encoding).
    Decode(String),
    /// The program counter left the code object.
    RanOffEnd { pc: u64, code_len: u64 },
    /// The instruction budget was used up (a hung or runaway shader).
    Budget(u64),
    /// The dispatch's instruction budget (all its waves together) was used up.
    DispatchBudget(u64),
    /// The instruction decodes but the emulator has no semantics for it.
    Unimplemented(String),
    /// A register, or some lanes of a VGPR, read before anything wrote them.
    UninitRead { reg: String, lanes: u64 },
    /// A register used before the `s_waitcnt` that covers the memory operation writing
    /// (or, for `overwrite`, reading) it.
    MissingWait {
        reg: String,
        counter: &'static str,
        pending: String,
        pending_pc: u64,
        overwrite: bool,
    },
    /// A hazard the generation needs wait states / `s_nop` / `s_waitcnt_depctr` for.
    Hazard {
        name: &'static str,
        detail: String,
        earlier: String,
        earlier_pc: u64,
    },
    /// A memory access outside every mapped range.
    MemFault { addr: u64, size: u64, write: bool },
    /// `s_trap`.
    Trap(u32),
    /// A mode or operand combination the emulator does not model.
    Unsupported(String),
    /// The dispatch description is unusable (bad binding, bad workgroup size, ...).
    Setup(String),
    /// Waves of a workgroup wait on `s_barrier` while another has ended or is stuck.
    BarrierDeadlock(String),
    /// An `s_barrier` that not every invocation of the workgroup reaches: EXEC short of
    /// the wave's lanes, waves waiting at different barriers, or a wave that ended
    /// without it (undefined in Vulkan; the strict `Checks::barriers`).
    DivergentBarrier(String),
    /// An LDS access outside the workgroup's allocation (the strict `Checks::lds_bounds`;
    /// the hardware reads 0 and drops writes).
    LdsOutOfRange {
        addr: u64,
        size: u32,
        lds_bytes: u64,
        write: bool,
    },
    /// A scratch access on GFX9/GFX10.3 without FLAT_SCRATCH set to the wave's base.
    ScratchSetup(String),
    /// A graphics rule broken: an export after the final (`done`) one, a pixel shader
    /// ending without its `done` export, a vertex shader without a position export, an
    /// NGG export before `GS_ALLOC_REQ`, an export in a compute dispatch, ...
    Graphics(String),
}

/// An emulation failure with its location and a register dump.
#[derive(Clone, Debug, PartialEq)]
pub struct Error {
    pub kind: ErrorKind,
    /// Workgroup id and wave index within it.
    pub wave: Option<([u32; 3], u32)>,
    /// Byte offset of the failing instruction in the code.
    pub pc: Option<u64>,
    /// The failing instruction as LLVM prints it.
    pub inst: Option<String>,
    /// Register dump of the failing wave.
    pub dump: Option<String>,
}

impl Error {
    pub fn new(kind: ErrorKind) -> Error {
        Error {
            kind,
            wave: None,
            pc: None,
            inst: None,
            dump: None,
        }
    }
    pub fn unimpl(what: impl Into<String>) -> Error {
        Error::new(ErrorKind::Unimplemented(what.into()))
    }
    pub fn unsupported(what: impl Into<String>) -> Error {
        Error::new(ErrorKind::Unsupported(what.into()))
    }
    pub fn setup(what: impl Into<String>) -> Error {
        Error::new(ErrorKind::Setup(what.into()))
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            ErrorKind::Decode(m) => write!(f, "cannot decode: {m}"),
            ErrorKind::RanOffEnd { pc, code_len } => write!(
                f,
                "execution ran off the end of the code (pc {pc:#x}, code is {code_len:#x} bytes)"
            ),
            ErrorKind::Budget(n) => write!(f, "instruction budget of {n} exhausted (hung shader?)"),
            ErrorKind::DivergentBarrier(m) => write!(f, "barrier in divergent control flow: {m}"),
            ErrorKind::LdsOutOfRange {
                addr,
                size,
                lds_bytes,
                write,
            } => write!(
                f,
                "LDS {} of {size} bytes at {addr:#x} outside the workgroup's {lds_bytes}-byte allocation",
                if *write { "write" } else { "read" }
            ),
            ErrorKind::DispatchBudget(n) => write!(
                f,
                "the dispatch's budget of {n} instructions (all waves together) is exhausted"
            ),
            ErrorKind::Unimplemented(m) => write!(f, "no semantics for {m}"),
            ErrorKind::UninitRead { reg, lanes } => {
                if *lanes == 0 {
                    write!(f, "read of never-written register {reg}")
                } else {
                    write!(f, "read of never-written register {reg} in lanes {lanes:#x}")
                }
            }
            ErrorKind::MissingWait {
                reg,
                counter,
                pending,
                pending_pc,
                overwrite,
            } => write!(
                f,
                "missing s_waitcnt {counter}: {} {reg} while `{pending}` (pc {pending_pc:#x}) is outstanding",
                if *overwrite { "overwrites" } else { "reads" }
            ),
            ErrorKind::Hazard {
                name,
                detail,
                earlier,
                earlier_pc,
            } => write!(
                f,
                "hazard {name}: {detail} (after `{earlier}` at pc {earlier_pc:#x})"
            ),
            ErrorKind::MemFault { addr, size, write } => write!(
                f,
                "memory fault: {} of {size} bytes at {addr:#x} outside every mapping",
                if *write { "write" } else { "read" }
            ),
            ErrorKind::Trap(n) => write!(f, "s_trap {n}"),
            ErrorKind::Unsupported(m) => write!(f, "unsupported: {m}"),
            ErrorKind::Setup(m) => write!(f, "bad dispatch setup: {m}"),
            ErrorKind::BarrierDeadlock(m) => write!(f, "barrier deadlock: {m}"),
            ErrorKind::ScratchSetup(m) => write!(f, "scratch setup: {m}"),
            ErrorKind::Graphics(m) => write!(f, "graphics: {m}"),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{}", self.kind)?;
        if let Some((wg, w)) = self.wave {
            write!(
                f,
                "\n  in workgroup ({},{},{}) wave {w}",
                wg[0], wg[1], wg[2]
            )?;
        }
        if let Some(pc) = self.pc {
            write!(f, "\n  at pc {pc:#x}")?;
            if let Some(i) = &self.inst {
                write!(f, ": {i}")?;
            }
        }
        if let Some(d) = &self.dump {
            write!(f, "\n{d}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Error {}

pub type Result<T> = std::result::Result<T, Error>;
