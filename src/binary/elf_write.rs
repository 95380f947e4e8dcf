//! The PAL-ABI ELF writer (pal-abi.md §1, §5).
//!
//! A small hand writer rather than the `object` crate's: PAL objects as LLVM writes them use
//! one `.strtab` for section *and* symbol names (`e_shstrndx` points at it, there is no
//! `.shstrtab`), put `.text` at file offset 0x100 with 256-byte alignment, and carry
//! implicit-addend `SHT_REL` records whose field bytes hold the addend (REL16 with a
//! zero-extended field, which PAL reads differently from LLVM). `object::write::elf::Writer`
//! always reserves a separate `.shstrtab`, and its section-level API would still need every
//! REL field patched by hand, so the writer here is the shorter path to byte-exact output.
//!
//! Output, in file order:
//! ```text
//! ELF header (64 B) | pad to 0x100 | .text (align 256) | .rel.text (align 8, if relocations)
//! | .note (align 4: "AMD" ISA name type 11, "AMDGPU" metadata type 32) | .symtab (align 8)
//! | .strtab | section headers (align 8)
//! ```
//! Section indices: 0 NULL, 1 `.strtab`, 2 `.text`, then `.rel.text` if any, `.note`,
//! `.symtab`. Symbols: the null symbol, the function symbols in the order given (GLOBAL FUNC
//! in `.text`), then one GLOBAL NOTYPE undefined symbol per relocation target that is not
//! defined, sorted by name. Relocations are written sorted by offset.
//!
//! Invariants checked before writing (violations are `Error::InvalidInput`): `.text` is a
//! whole number of dwords; every symbol lies inside `.text`, names are unique, non-empty and
//! NUL-free; `_amdgpu_<stage>_main` entry points are 256-byte aligned; every relocation
//! field lies inside `.text`, at most one relocation per offset, and its addend fits the REL
//! field; every `.hardware_stages.*.entry_point` of the metadata names a function of the
//! object. The addend is written into the field; the field must hold 0 or that addend on
//! input, so a backend that left a different placeholder is caught.
//!
//! Output depends only on the input: no timestamps, no hash-map order.

use super::compute::ComputeShaderInfo;
use super::elf::*;
use super::error::{Error, Result};
use super::metadata::{HwStage, KEY_PIPELINES};
use super::msgpack::{self, Value};
use crate::isa::Gen;
use std::collections::{BTreeMap, BTreeSet};

/// A function symbol defined in `.text`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FuncSymbol {
    /// Symbol name, e.g. `_amdgpu_cs_main`.
    pub name: String,
    /// Offset in `.text`.
    pub offset: u64,
    /// Code bytes up to and including the last instruction, excluding `s_code_end` padding.
    pub size: u64,
}

/// A relocation against a symbol, applied to `.text`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Relocation {
    /// Offset of the field in `.text` (for REL16: the SOPP instruction's offset).
    pub offset: u64,
    /// Relocation type.
    pub kind: RelocKind,
    /// Target symbol name: a function in this object, or an undefined external.
    pub symbol: String,
    /// Addend (stored as the REL implicit addend in the field).
    pub addend: i64,
}

/// Everything a PAL code object holds.
#[derive(Clone, Debug, PartialEq)]
pub struct CodeObject {
    /// Generation (e_flags, ISA-name note).
    pub gen: Gen,
    /// Code, already padded (s_code_end on GFX10+ is the backend's job).
    pub text: Vec<u8>,
    /// Function symbols in `.text`.
    pub functions: Vec<FuncSymbol>,
    /// Relocations of `.text`.
    pub relocations: Vec<Relocation>,
    /// The NT_AMDGPU_METADATA tree.
    pub metadata: Value,
}

fn is_entry_symbol(name: &str) -> bool {
    name.strip_prefix("_amdgpu_")
        .and_then(|s| s.strip_suffix("_main"))
        .is_some_and(|s| matches!(s, "ls" | "hs" | "es" | "gs" | "vs" | "ps" | "cs"))
}

fn check_name(name: &str, what: &str) -> Result<()> {
    if name.is_empty() || name.contains('\0') {
        return Err(Error::invalid(
            what.to_string(),
            format!("symbol name {name:?} is empty or contains NUL"),
        ));
    }
    Ok(())
}

/// A string table under construction: "\0" then each distinct name once, in first-use order.
struct StrTab {
    bytes: Vec<u8>,
    index: BTreeMap<String, u32>,
}

impl StrTab {
    fn new() -> StrTab {
        StrTab {
            bytes: vec![0],
            index: BTreeMap::new(),
        }
    }

    fn add(&mut self, s: &str) -> u32 {
        if let Some(&i) = self.index.get(s) {
            return i;
        }
        let i = self.bytes.len() as u32;
        self.bytes.extend_from_slice(s.as_bytes());
        self.bytes.push(0);
        self.index.insert(s.to_string(), i);
        i
    }
}

fn note(out: &mut Vec<u8>, owner: &str, ty: u32, desc: &[u8]) {
    let name_len = owner.len() + 1;
    out.extend_from_slice(&(name_len as u32).to_le_bytes());
    out.extend_from_slice(&(desc.len() as u32).to_le_bytes());
    out.extend_from_slice(&ty.to_le_bytes());
    out.extend_from_slice(owner.as_bytes());
    out.push(0);
    out.resize(align_up(out.len() as u64, 4) as usize, 0);
    out.extend_from_slice(desc);
    out.resize(align_up(out.len() as u64, 4) as usize, 0);
}

struct SectionHeader {
    name: u32,
    ty: u32,
    flags: u64,
    offset: u64,
    size: u64,
    link: u32,
    info: u32,
    align: u64,
    entsize: u64,
}

impl CodeObject {
    /// A compute code object: `_amdgpu_cs_main` at offset 0 covering `entry_size` bytes of
    /// `text` (which includes the backend's padding), with metadata from `info` (whose
    /// `code_bytes` is set to `entry_size`).
    pub fn compute(
        info: &ComputeShaderInfo,
        text: Vec<u8>,
        entry_size: u64,
        relocations: Vec<Relocation>,
    ) -> Result<CodeObject> {
        let mut info = info.clone();
        info.code_bytes = entry_size;
        let obj = CodeObject {
            gen: info.target.gen,
            text,
            functions: vec![FuncSymbol {
                name: HwStage::Cs.entry_symbol(),
                offset: 0,
                size: entry_size,
            }],
            relocations,
            metadata: info.to_metadata()?.to_value(),
        };
        obj.validate()?;
        Ok(obj)
    }

    /// Adds the `gcnc.prelink` section of an unlinked shader to the metadata tree.
    pub fn set_prelink(&mut self, prelink: &super::prelink::PreLinkMetadata) -> Result<()> {
        self.metadata
            .as_map_mut()
            .ok_or_else(|| Error::metadata("(root)", "the metadata tree is not a map"))?
            .insert(
                super::msgpack::Key::str(super::metadata::KEY_PRELINK),
                prelink.to_value(),
            );
        Ok(())
    }

    /// The entry symbol of a hardware stage (`_amdgpu_<stage>_main`).
    pub fn entry(&self, stage: super::HwStage) -> Result<&FuncSymbol> {
        let name = stage.entry_symbol();
        self.functions
            .iter()
            .find(|f| f.name == name)
            .ok_or_else(|| Error::invalid("code object", format!("no entry symbol {name}")))
    }

    /// Checks the invariants listed in the module doc.
    pub fn validate(&self) -> Result<()> {
        let len = self.text.len() as u64;
        if !len.is_multiple_of(4) {
            return Err(Error::invalid(
                ".text",
                format!("{len} bytes is not a whole number of dwords"),
            ));
        }
        let mut names = BTreeSet::new();
        for f in &self.functions {
            check_name(&f.name, "function symbol")?;
            if !names.insert(f.name.as_str()) {
                return Err(Error::invalid(
                    "function symbol",
                    format!("{} defined twice", f.name),
                ));
            }
            let end = f.offset.checked_add(f.size);
            if end.is_none_or(|e| e > len) || f.offset % 4 != 0 {
                return Err(Error::invalid(
                    format!("function symbol {}", f.name),
                    format!(
                        "offset {:#x} size {:#x} is not a dword-aligned range inside .text ({len:#x} bytes)",
                        f.offset, f.size
                    ),
                ));
            }
            if is_entry_symbol(&f.name) && f.offset % TEXT_ALIGN != 0 {
                return Err(Error::invalid(
                    format!("function symbol {}", f.name),
                    format!(
                        "entry point at {:#x}; PAL requires 256-byte alignment",
                        f.offset
                    ),
                ));
            }
        }
        // Every hardware stage's `.entry_point` must be a function defined here.
        if let Some(stages) = self
            .metadata
            .get(KEY_PIPELINES)
            .and_then(|p| p.as_array())
            .and_then(|a| a.first())
            .and_then(|p| p.get(".hardware_stages"))
            .and_then(Value::as_map)
        {
            for (stage, v) in stages {
                if let Some(entry) = v.get(".entry_point").and_then(Value::as_str) {
                    if !names.contains(entry) {
                        return Err(Error::invalid(
                            format!("hardware stage {stage}"),
                            format!("entry point {entry} is not a function of this object"),
                        ));
                    }
                }
            }
        }
        let mut offsets = BTreeSet::new();
        for r in &self.relocations {
            let what = format!("relocation {} at {:#x}", r.kind.name(), r.offset);
            check_name(&r.symbol, &what)?;
            if r.kind == RelocKind::None {
                return Err(Error::invalid(what, "R_AMDGPU_NONE carries nothing"));
            }
            let end = r.offset.checked_add(r.kind.field_size() as u64);
            if end.is_none_or(|e| e > len) {
                return Err(Error::invalid(what, "field lies outside .text"));
            }
            if !offsets.insert(r.offset) {
                return Err(Error::invalid(what, "two relocations at the same offset"));
            }
            let enc = r.kind.encode_addend(r.addend)?;
            let field = &self.text[r.offset as usize..r.offset as usize + enc.len()];
            if field.iter().any(|&b| b != 0) && field != enc.as_slice() {
                return Err(Error::invalid(
                    what,
                    format!(
                        "field holds {field:02x?}; expected 0 or the addend {}",
                        r.addend
                    ),
                ));
            }
        }
        Ok(())
    }

    /// Writes the ELF image.
    pub fn write(&self) -> Result<Vec<u8>> {
        self.validate()?;
        let metadata = msgpack::encode(&self.metadata)?;

        // .text with every REL addend stored in its field.
        let mut text = self.text.clone();
        let mut relocs: Vec<&Relocation> = self.relocations.iter().collect();
        relocs.sort_by_key(|r| r.offset);
        for r in &relocs {
            let enc = r.kind.encode_addend(r.addend)?;
            let at = r.offset as usize;
            text[at..at + enc.len()].copy_from_slice(&enc);
        }

        // Symbols: null, functions, then undefined relocation targets sorted by name.
        let defined: BTreeMap<&str, usize> = self
            .functions
            .iter()
            .enumerate()
            .map(|(i, f)| (f.name.as_str(), i + 1))
            .collect();
        let undefined: BTreeSet<&str> = relocs
            .iter()
            .map(|r| r.symbol.as_str())
            .filter(|s| !defined.contains_key(s))
            .collect();
        let mut sym_index = defined.clone();
        for (i, name) in undefined.iter().enumerate() {
            sym_index.insert(name, self.functions.len() + 1 + i);
        }

        let has_rel = !relocs.is_empty();
        let mut strtab = StrTab::new();
        let n_strtab = strtab.add(".strtab");
        let n_text = strtab.add(".text");
        let n_rel = if has_rel { strtab.add(".rel.text") } else { 0 };
        let n_note = strtab.add(".note");
        let n_symtab = strtab.add(".symtab");

        const TEXT_IDX: u16 = 2;
        let rel_idx = 3u32;
        let note_idx = if has_rel { 4 } else { 3 };
        let symtab_idx = note_idx + 1;

        let mut symtab = vec![0u8; 24];
        for f in &self.functions {
            let name = strtab.add(&f.name);
            push_sym(
                &mut symtab,
                name,
                STB_GLOBAL << 4 | STT_FUNC,
                TEXT_IDX,
                f.offset,
                f.size,
            );
        }
        for name in &undefined {
            let n = strtab.add(name);
            push_sym(
                &mut symtab,
                n,
                STB_GLOBAL << 4 | STT_NOTYPE,
                SHN_UNDEF,
                0,
                0,
            );
        }

        let mut rel = Vec::with_capacity(relocs.len() * 16);
        for r in &relocs {
            let sym = sym_index[r.symbol.as_str()] as u64;
            rel.extend_from_slice(&r.offset.to_le_bytes());
            rel.extend_from_slice(&(sym << 32 | r.kind.number() as u64).to_le_bytes());
        }

        let mut notes = Vec::new();
        note(
            &mut notes,
            "AMD",
            NT_AMD_HSA_ISA_NAME,
            self.gen.isa_name().as_bytes(),
        );
        note(&mut notes, "AMDGPU", NT_AMDGPU_METADATA, &metadata);

        // Layout.
        let mut out = vec![0u8; 0x100];
        let mut headers = vec![SectionHeader {
            name: 0,
            ty: SHT_NULL,
            flags: 0,
            offset: 0,
            size: 0,
            link: 0,
            info: 0,
            align: 0,
            entsize: 0,
        }];
        let place = |out: &mut Vec<u8>, data: &[u8], align: u64| -> u64 {
            out.resize(align_up(out.len() as u64, align) as usize, 0);
            let off = out.len() as u64;
            out.extend_from_slice(data);
            off
        };
        let text_off = place(&mut out, &text, TEXT_ALIGN);
        let rel_off = if has_rel { place(&mut out, &rel, 8) } else { 0 };
        let note_off = place(&mut out, &notes, 4);
        let symtab_off = place(&mut out, &symtab, 8);
        let strtab_off = place(&mut out, &strtab.bytes, 1);

        headers.push(SectionHeader {
            name: n_strtab,
            ty: SHT_STRTAB,
            flags: 0,
            offset: strtab_off,
            size: strtab.bytes.len() as u64,
            link: 0,
            info: 0,
            align: 1,
            entsize: 0,
        });
        headers.push(SectionHeader {
            name: n_text,
            ty: SHT_PROGBITS,
            flags: SHF_ALLOC | SHF_EXECINSTR,
            offset: text_off,
            size: text.len() as u64,
            link: 0,
            info: 0,
            align: TEXT_ALIGN,
            entsize: 0,
        });
        if has_rel {
            headers.push(SectionHeader {
                name: n_rel,
                ty: SHT_REL,
                flags: SHF_INFO_LINK,
                offset: rel_off,
                size: rel.len() as u64,
                link: symtab_idx,
                info: TEXT_IDX as u32,
                align: 8,
                entsize: 16,
            });
        }
        debug_assert_eq!(headers.len() as u32, if has_rel { rel_idx + 1 } else { 3 });
        headers.push(SectionHeader {
            name: n_note,
            ty: SHT_NOTE,
            flags: 0,
            offset: note_off,
            size: notes.len() as u64,
            link: 0,
            info: 0,
            align: 4,
            entsize: 0,
        });
        headers.push(SectionHeader {
            name: n_symtab,
            ty: SHT_SYMTAB,
            flags: 0,
            offset: symtab_off,
            size: symtab.len() as u64,
            link: 1,
            info: 1, // one past the last local symbol (only the null symbol is local)
            align: 8,
            entsize: 24,
        });

        out.resize(align_up(out.len() as u64, 8) as usize, 0);
        let shoff = out.len() as u64;
        for h in &headers {
            out.extend_from_slice(&h.name.to_le_bytes());
            out.extend_from_slice(&h.ty.to_le_bytes());
            out.extend_from_slice(&h.flags.to_le_bytes());
            out.extend_from_slice(&0u64.to_le_bytes()); // sh_addr
            out.extend_from_slice(&h.offset.to_le_bytes());
            out.extend_from_slice(&h.size.to_le_bytes());
            out.extend_from_slice(&h.link.to_le_bytes());
            out.extend_from_slice(&h.info.to_le_bytes());
            out.extend_from_slice(&h.align.to_le_bytes());
            out.extend_from_slice(&h.entsize.to_le_bytes());
        }

        // ELF header.
        let mut eh = Vec::with_capacity(64);
        eh.extend_from_slice(&[0x7f, b'E', b'L', b'F', 2, 1, 1, ELFOSABI_AMDGPU_PAL, 0]);
        eh.resize(16, 0);
        eh.extend_from_slice(&ET_REL.to_le_bytes());
        eh.extend_from_slice(&EM_AMDGPU.to_le_bytes());
        eh.extend_from_slice(&1u32.to_le_bytes()); // e_version
        eh.extend_from_slice(&0u64.to_le_bytes()); // e_entry
        eh.extend_from_slice(&0u64.to_le_bytes()); // e_phoff
        eh.extend_from_slice(&shoff.to_le_bytes());
        eh.extend_from_slice(&self.gen.e_flags().to_le_bytes());
        eh.extend_from_slice(&64u16.to_le_bytes()); // e_ehsize
        eh.extend_from_slice(&0u16.to_le_bytes()); // e_phentsize
        eh.extend_from_slice(&0u16.to_le_bytes()); // e_phnum
        eh.extend_from_slice(&64u16.to_le_bytes()); // e_shentsize
        eh.extend_from_slice(&(headers.len() as u16).to_le_bytes());
        eh.extend_from_slice(&1u16.to_le_bytes()); // e_shstrndx: .strtab
        out[..64].copy_from_slice(&eh);
        Ok(out)
    }
}

fn push_sym(out: &mut Vec<u8>, name: u32, info: u8, shndx: u16, value: u64, size: u64) {
    out.extend_from_slice(&name.to_le_bytes());
    out.push(info);
    out.push(0); // st_other: default visibility
    out.extend_from_slice(&shndx.to_le_bytes());
    out.extend_from_slice(&value.to_le_bytes());
    out.extend_from_slice(&size.to_le_bytes());
}
