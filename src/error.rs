//! `gcnc::Error`: what the library driver ([`crate::compile`]) returns. Each variant wraps
//! one layer's own typed error unchanged, so the caller still has the layer's "where":
//! the SPIR-V word offset (front end), the IR instruction (verifier), the pass name
//! (middle end), the IR instruction or register file (backend), the byte offset or
//! metadata path (binary), the input and relocation (link).
//!
//! `Display` is the layer's own message with no prefix; a front end (the CLI) adds the
//! file name.

use crate::{amdgpu, binary, front, ir, isa, link, passes};
use std::fmt;

/// A compile failed; which layer refused and its typed reason.
#[derive(Clone, Debug)]
pub enum Error {
    /// The options name a wave size the generation does not have.
    Target(isa::TargetError),
    /// The SPIR-V front end rejected the module (word offset, opcode, why).
    Front(front::Error),
    /// The IR given to the driver (or produced by the front end) fails the verifier
    /// (function, instruction, why).
    Verify(ir::VerifyError),
    /// A middle-end pass left the IR broken (a compiler bug; the pass is named).
    Pass(passes::PassError),
    /// The backend refused the shader (unsupported construct, register pressure, layout,
    /// a shader that must be compiled as a whole pipeline, or a backend bug).
    Backend(amdgpu::Error),
    /// Packaging the code object failed.
    Binary(binary::Error),
    /// The link stage rejected the compiled main part with the pipeline state.
    Link(link::Error),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Target(e) => e.fmt(f),
            Error::Front(e) => e.fmt(f),
            Error::Verify(e) => write!(f, "IR verifier: {e}"),
            Error::Pass(e) => e.fmt(f),
            Error::Backend(e) => e.fmt(f),
            Error::Binary(e) => write!(f, "binary: {e}"),
            Error::Link(e) => write!(f, "link: {e}"),
        }
    }
}

impl Error {
    /// The part of the chain that refused.
    pub fn phase(&self) -> crate::settings::Phase {
        use crate::settings::Phase;
        match self {
            Error::Front(_) | Error::Verify(_) => Phase::Front,
            Error::Pass(_) => Phase::Middle,
            Error::Target(_) | Error::Backend(_) | Error::Binary(_) | Error::Link(_) => Phase::Back,
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(match self {
            Error::Target(e) => e,
            Error::Front(e) => e,
            Error::Verify(e) => e,
            Error::Pass(e) => e,
            Error::Backend(e) => e,
            Error::Binary(e) => e,
            Error::Link(e) => e,
        })
    }
}

macro_rules! from_layer {
    ($($variant:ident($ty:ty)),*) => {$(
        impl From<$ty> for Error {
            fn from(e: $ty) -> Error {
                Error::$variant(e)
            }
        }
    )*};
}

from_layer!(
    Target(isa::TargetError),
    Front(front::Error),
    Verify(ir::VerifyError),
    Pass(passes::PassError),
    Backend(amdgpu::Error),
    Binary(binary::Error),
    Link(link::Error)
);
