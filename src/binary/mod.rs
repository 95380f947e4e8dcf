//! PAL-ABI code objects: the ELF container, the PAL metadata it carries, and the pieces the
//! link stage needs to take code objects apart and put them back together.
//!
//! Facts follow `../shared/reference/pal-abi.md` (checked against LLVM 19's tools).
//! This layer knows nothing about instructions: code is bytes, relocations are
//! (offset, kind, symbol, addend), and the ISA layer and backend sit on top of it.
//!
//! - [`target`]: the targets, their `e_flags` and ISA-name note string.
//! - [`msgpack`]: a generic MessagePack tree, the minimal-encoding writer, a checked reader.
//! - [`registers`]: compute register numbers and bit-field packing (RSRC1/2/3, NUM_THREAD,
//!   DISPATCH_INITIATOR, USER_DATA mapping).
//! - [`metadata`]: the typed PAL 2.6 metadata model.
//! - [`compute`]: [`ComputeShaderInfo`], what the backend knows about a compute shader,
//!   to metadata and back.
//! - [`prelink`]: the `gcnc.prelink` section of unlinked shaders.
//! - [`merge`]: metadata-tree merging and user-data rewriting for the link stage.
//! - [`elf`]: ELF constants and relocation kinds; [`elf_write`] writes a code object,
//!   [`elf_read`] reads one back with typed errors.
//!
//! Invariants: writing is deterministic (the same [`CodeObject`] gives the same bytes);
//! reading never panics; `ElfFile::parse(&obj.write()?)?.to_code_object()? == obj` up to
//! relocation order (written sorted by offset).

pub mod compute;
pub mod elf;
pub mod elf_read;
pub mod elf_write;
pub mod error;
pub mod merge;
pub mod metadata;
pub mod msgpack;
pub mod prelink;
pub mod registers;
pub mod target;

pub use compute::ComputeShaderInfo;
pub use elf::RelocKind;
pub use elf_read::ElfFile;
pub use elf_write::{CodeObject, FuncSymbol, Relocation};
pub use error::{Error, Result};
pub use metadata::{HwStage, PalMetadata};
pub use msgpack::Value;
pub use registers::{FloatMode, UserData, WaveSize};
pub use target::Target;
