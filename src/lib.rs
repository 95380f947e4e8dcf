//! gcnc: a shader compiler for AMD GCN/RDNA GPUs that needs no LLVM.
//!
//! Vulkan SPIR-V goes in; GFX9 (gfx900), GFX10.3 (gfx1030) and GFX11 (gfx1100) machine code
//! comes out, wave32 or wave64, packaged as PAL-ABI ELF. The module tree follows the path of
//! a shader through the compiler:
//!
//! ```text
//! front/spirv → ir → passes → amdgpu (isel, regalloc, passes, emit) → binary
//!                                           parts + link → binary
//! ```
//!
//! `isa` is the instruction-set layer every backend stage stands on: the per-generation
//! tables generated from `isa_tables/` by `build.rs`, the machine-instruction value, its
//! encoder, decoder, printer and parser. Nothing outside `isa_tables/` spells an opcode
//! number.
//!
//! The library call is [`compile_spirv`] (and [`compile_spirv_unlinked`] for the link
//! stage): SPIR-V words and [`Options`] (target, pipeline state, [`Settings`]) in, a
//! [`Compiled`] shader out; `compile` shows the whole chain in one function.
//!
//! Each layer has its own typed error; bad input is an error that says where and why, a
//! broken internal invariant is a bug caught by a verifier in debug builds and tests.
//! [`Error`] wraps them unflattened.
pub mod amdgpu;
pub mod binary;
pub mod cache;
pub mod compile;
pub mod compile_graphics;
pub mod compile_graphics_unlinked;
pub mod error;
pub mod front;
pub mod ir;
pub mod isa;
pub mod link;
pub mod parts;
pub mod passes;
pub mod settings;

pub use compile::{
    compile_module, compile_module_unlinked, compile_spirv, compile_spirv_unlinked, optimize_spirv,
    Compiled, Missing, Options,
};
pub use error::Error;
pub use settings::{Phase, Settings, Timing};
