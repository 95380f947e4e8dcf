//! PAL-ABI code objects: the ELF container, the PAL metadata it carries, and the pieces the
//! link stage needs to take code objects apart and put them back together.
//!
//! Facts follow `../shared/reference/pal-abi.md` (checked against LLVM 19's tools).
//! This layer knows nothing about instructions: code is bytes, relocations are
//! (offset, kind, symbol, addend), and the backend sits on top of it. Of the ISA layer it
//! uses only the target (`isa::Target`, `isa::Gen` and its `GenInfo` facts: ELF machine
//! number, VGPR granules, which registers exist).
//!
//! - [`msgpack`]: a generic MessagePack tree, the minimal-encoding writer, a checked reader.
//! - [`registers`]: compute register numbers and bit-field packing (RSRC1/2/3, NUM_THREAD,
//!   DISPATCH_INITIATOR, USER_DATA mapping).
//! - [`metadata`]: the typed PAL 2.6 metadata model; [`metadata_write`] writes it to
//!   MessagePack without a [`Value`] tree.
//! - [`compute`]: [`ComputeShaderInfo`], what the backend knows about a compute shader,
//!   to metadata and back.
//! - [`prelink`]: the `gcnc.prelink` section of unlinked shaders.
//! - [`merge`]: metadata-tree merging and user-data rewriting for the link stage.
//! - [`elf`]: ELF constants and relocation kinds; [`elf_write`] writes a code object,
//!   [`elf_read`] reads one back with typed errors.
//!
//! How the backend and the link stage use it:
//!
//! ```
//! use gcnc::binary::{CodeObject, ComputeShaderInfo, ElfFile, HwStage, UserData};
//! use gcnc::isa::{Gen, Target};
//!
//! // Backend: facts after register allocation, padded code, the entry's unpadded size.
//! let mut info = ComputeShaderInfo::new(Target::new(Gen::Gfx10)); // wave32 by default
//! info.vgprs = 12;
//! info.sgprs = 20;
//! info.user_data = vec![UserData::GlobalTable, UserData::Entry(0)];
//! info.tgid_en = [true, false, false];
//! info.workgroup_size = [64, 1, 1];
//! let mut text = 0xBF81_0000u32.to_le_bytes().to_vec(); // s_endpgm
//! text.resize(256, 0); // (the backend pads with s_code_end)
//! let elf_bytes = CodeObject::compute(&info, text, 4, vec![])?.write()?;
//!
//! // Emulator / linker: read it back.
//! let elf = ElfFile::parse(&elf_bytes)?;
//! let entry = elf.entry(HwStage::Cs).expect("entry symbol");
//! let md = elf.pal_metadata()?.expect("metadata note");
//! let back = ComputeShaderInfo::from_metadata(&md, elf.gen().unwrap(), entry.size)?;
//! assert_eq!(back.user_data, info.user_data);
//! # Ok::<(), gcnc::binary::Error>(())
//! ```
//!
//! Invariants: writing is deterministic (the same [`CodeObject`] gives the same bytes);
//! reading never panics; `ElfFile::parse(&obj.write()?)?.to_code_object()? == obj` up to
//! relocation order (written sorted by offset).

pub mod compute;
pub mod elf;
pub mod elf_read;
pub mod elf_write;
pub mod error;
pub mod graphics;
pub mod merge;
pub mod metadata;
pub mod metadata_write;
pub mod msgpack;
pub mod prelink;
pub mod registers;

pub use compute::ComputeShaderInfo;
pub use elf::RelocKind;
pub use elf_read::ElfFile;
pub use elf_write::{CodeObject, FuncSymbol, Relocation, TypedObject};
pub use error::{Error, Result};
pub use metadata::{HwStage, PalMetadata};
pub use msgpack::Value;
pub use registers::{FloatMode, UserData};
