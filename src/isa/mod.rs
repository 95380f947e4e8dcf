//! The instruction-set layer: per-generation tables (generated from `isa_tables/`), the
//! machine instruction value, encoder, decoder, printer and parser.
//!
//! API in brief (see docs/isa.md):
//! - `Target::new(Gen::Gfx11)`; `Inst::new(Opcode::SAddU32, Format::Sop2, &[..])`;
//! - `encode(&inst, t) -> Vec<u8>` / `encode_into(.., &mut words, &mut fixups)`;
//! - `decode(bytes, offset, t) -> (Inst, len)`; `print(&inst, t) -> String`;
//! - `parse_line(text, line, t)`; descriptor queries: `inst.desc(gen)`, `op.props()`,
//!   `tables::lookup/forms/encodings`.
//!
//! Invariants: opcode numbers exist only in `isa_tables/`; encode and decode are inverse
//! on every `Inst` that verifies; printing matches `llvm-mc-19 -disassemble`.

pub mod buffer;
pub mod decode;
pub mod encode;
pub mod error;
pub mod format;
pub mod inst;
pub mod operand;
pub mod parse;
pub mod print;
pub mod reg;
pub mod simm16;
pub mod tables;
pub mod target;
mod verify;

pub use buffer::{BufferError, CodeBuffer};
pub use decode::{decode, decode_all, decode_words};
pub use encode::{encode, encode_into, Fixup, FixupKind};
pub use error::{Error, ErrorKind, Loc, Result};
pub use inst::{Inst, MemMods, Mods};
pub use operand::Operand;
pub use parse::{parse, parse_line};
pub use print::print;
pub use reg::{PhysReg, Reg};
pub use simm16::Waitcnt;
pub use tables::{
    BufData, BufNum, EncDesc, Field, Format, ImmKind, MemFlags, ModSet, OpDesc, Opcode, Props,
    ValTy,
};
pub use tables::{Hwreg, SendMsg};
pub use target::{Gen, GenInfo, Target, TargetError, Wave};
