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
use super::metadata::{HwStage, PalMetadata, KEY_PIPELINES};
use super::metadata_write::{write_metadata, HW_BY_KEY};
use super::msgpack::{self, Value};
use crate::isa::Gen;
use std::collections::BTreeSet;

/// Suffix of the symbol of a part's constant data (`<part symbol>.const_data`): data the
/// code reads PC-relative, after its padding. It is written as `STT_OBJECT` (everything
/// else in `.text` is `STT_FUNC`), so that disassemblers (llvm-objdump) dump its bytes as
/// data instead of decoding them as instructions.
pub const CONST_DATA_SUFFIX: &str = ".const_data";

/// A symbol defined in `.text`: a function, or a part's constant data
/// ([`CONST_DATA_SUFFIX`]).
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

/// Everything a PAL code object holds. The metadata is a `Value` tree (`CodeObject`, what
/// an ELF gives back) or the typed model ([`TypedObject`], what the backend builds).
#[derive(Clone, Debug, PartialEq)]
pub struct CodeObject<M = Value> {
    /// Generation (e_flags, ISA-name note).
    pub gen: Gen,
    /// Code, already padded (s_code_end on GFX10+ is the backend's job).
    pub text: Vec<u8>,
    /// Function symbols in `.text`.
    pub functions: Vec<FuncSymbol>,
    /// Relocations of `.text`.
    pub relocations: Vec<Relocation>,
    /// The NT_AMDGPU_METADATA payload.
    pub metadata: M,
}

/// A code object whose metadata is the typed model (its `gcnc.prelink` section, if any, in
/// `metadata.prelink`): what the backend builds. The whole-pipeline compile hands it to the
/// link stage as it is (`link::input::typed_input`); [`TypedObject::write`] gives the same
/// bytes as the [`CodeObject`] of [`TypedObject::into_code_object`] (the metadata written
/// straight from the model, [`super::metadata_write`]).
pub type TypedObject = CodeObject<PalMetadata>;

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

#[derive(Default)]
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

impl<M> CodeObject<M> {
    /// The ELF image of the (checked) object, its metadata payload written by `metadata`.
    fn write_with(&self, metadata: &dyn Fn(&mut Vec<u8>) -> Result<()>) -> Result<Vec<u8>> {
        write_elf(
            self.gen,
            &self.text,
            &self.functions,
            &self.relocations,
            metadata,
        )
    }
}

impl TypedObject {
    /// A compute code object: `_amdgpu_cs_main` at offset 0 covering `entry_size` bytes of
    /// `text` (which includes the backend's padding), with metadata from `info` (whose
    /// `code_bytes` is set to `entry_size`). Checked ([`TypedObject::validate`]).
    pub fn compute_typed(
        info: &ComputeShaderInfo,
        text: Vec<u8>,
        entry_size: u64,
        relocations: Vec<Relocation>,
    ) -> Result<TypedObject> {
        let mut info = info.clone();
        info.code_bytes = entry_size;
        let obj = TypedObject {
            gen: info.target.gen,
            text,
            functions: vec![FuncSymbol {
                name: HwStage::Cs.entry_symbol(),
                offset: 0,
                size: entry_size,
            }],
            relocations,
            metadata: info.to_metadata()?,
        };
        obj.validate()?;
        Ok(obj)
    }

    /// The invariants of the module doc, as [`CodeObject::validate`] checks them on the
    /// tree of [`TypedObject::into_code_object`].
    pub fn validate(&self) -> Result<()> {
        check_typed(
            &self.text,
            &self.functions,
            &self.relocations,
            &self.metadata,
        )
    }

    /// The generic code object (the metadata as a `Value` tree).
    pub fn into_code_object(self) -> CodeObject {
        CodeObject {
            gen: self.gen,
            text: self.text,
            functions: self.functions,
            relocations: self.relocations,
            metadata: self.metadata.to_value(),
        }
    }

    /// Writes the ELF image.
    pub fn write(&self) -> Result<Vec<u8>> {
        self.validate()?;
        self.write_with(&|out| write_metadata(out, &self.metadata))
    }
}

impl CodeObject {
    /// [`TypedObject::compute_typed`] with the metadata as a tree.
    pub fn compute(
        info: &ComputeShaderInfo,
        text: Vec<u8>,
        entry_size: u64,
        relocations: Vec<Relocation>,
    ) -> Result<CodeObject> {
        Ok(TypedObject::compute_typed(info, text, entry_size, relocations)?.into_code_object())
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
        let names = check_code(&self.text, &self.functions, &self.relocations)?;
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
                    check_entry_point(&names, &stage.to_string(), entry)?;
                }
            }
        }
        Ok(())
    }

    /// Writes the ELF image.
    pub fn write(&self) -> Result<Vec<u8>> {
        self.validate()?;
        self.write_with(&|out| msgpack::encode_into(out, &self.metadata))
    }
}

/// The code checks of [`CodeObject::validate`] (everything but the metadata's entry
/// points), in the order the module doc lists them; returns the function names, sorted.
pub(crate) fn check_code<'a>(
    text: &[u8],
    functions: &'a [FuncSymbol],
    relocations: &[Relocation],
) -> Result<Vec<&'a str>> {
    let len = text.len() as u64;
    if !len.is_multiple_of(4) {
        return Err(Error::invalid(
            ".text",
            format!("{len} bytes is not a whole number of dwords"),
        ));
    }
    for (i, f) in functions.iter().enumerate() {
        check_name(&f.name, "function symbol")?;
        // a handful of functions per object: a scan beats building a set
        if functions[..i].iter().any(|g| g.name == f.name) {
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
    let mut offsets = BTreeSet::new();
    for r in relocations {
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
        let field = &text[r.offset as usize..r.offset as usize + enc.len()];
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
    let mut names: Vec<&str> = functions.iter().map(|f| f.name.as_str()).collect();
    names.sort_unstable();
    Ok(names)
}

/// A hardware stage's `.entry_point` must name one of the (sorted) function `names`.
pub(crate) fn check_entry_point(names: &[&str], stage: &str, entry: &str) -> Result<()> {
    if names.binary_search(&entry).is_err() {
        return Err(Error::invalid(
            format!("hardware stage {stage}"),
            format!("entry point {entry} is not a function of this object"),
        ));
    }
    Ok(())
}

/// The ELF image of a relocation-free object whose metadata is the typed model, written
/// straight from it (the link stage's output): the same checks and the same bytes as
/// `CodeObject { metadata: md.to_value(), relocations: vec![], .. }.write()`.
pub fn write_typed(
    gen: Gen,
    text: &[u8],
    functions: &[FuncSymbol],
    md: &PalMetadata,
) -> Result<Vec<u8>> {
    check_typed(text, functions, &[], md)?;
    write_elf(gen, text, functions, &[], &|out| write_metadata(out, md))
}

/// [`check_code`], then every hardware stage's entry point of the typed metadata, in the
/// order of their keys (as [`CodeObject::validate`] visits the tree).
fn check_typed(
    text: &[u8],
    functions: &[FuncSymbol],
    relocations: &[Relocation],
    md: &PalMetadata,
) -> Result<()> {
    let names = check_code(text, functions, relocations)?;
    for stage in HW_BY_KEY {
        if let Some(hw) = md.pipeline.hardware_stages.get(&stage) {
            check_entry_point(&names, stage.key_str(), &hw.entry_point)?;
        }
    }
    Ok(())
}

/// Section names, in `.strtab` order after the leading NUL (`.rel.text` only with
/// relocations).
const SECTION_NAMES: [&str; 5] = [".strtab", ".text", ".rel.text", ".note", ".symtab"];

/// The ELF image of checked code ([`check_code`]) whose metadata payload `metadata`
/// appends to the buffer it is handed, assembled in one buffer sized up front.
///
/// `.strtab` holds each distinct name once, in first-use order: the section names, then
/// the functions, then the undefined relocation targets. Function names are distinct
/// (`check_code`) and undefined targets are distinct from them and from each other, so
/// only a section name can repeat as a symbol name; that is the one lookup made.
pub(crate) fn write_elf(
    gen: Gen,
    text: &[u8],
    functions: &[FuncSymbol],
    relocations: &[Relocation],
    metadata: &dyn Fn(&mut Vec<u8>) -> Result<()>,
) -> Result<Vec<u8>> {
    let mut relocs: Vec<&Relocation> = relocations.iter().collect();
    relocs.sort_by_key(|r| r.offset);
    let has_rel = !relocs.is_empty();
    // Symbols: null, functions, then undefined relocation targets sorted by name.
    let mut defined: Vec<(&str, usize)> = Vec::new();
    let mut undefined: Vec<&str> = Vec::new();
    if has_rel {
        defined = functions
            .iter()
            .enumerate()
            .map(|(i, f)| (f.name.as_str(), i + 1))
            .collect();
        defined.sort_unstable();
        undefined = relocs
            .iter()
            .map(|r| r.symbol.as_str())
            .filter(|s| defined.binary_search_by(|d| d.0.cmp(s)).is_err())
            .collect();
        undefined.sort_unstable();
        undefined.dedup();
    }
    let sym_index = |name: &str| -> u64 {
        match defined.binary_search_by(|d| d.0.cmp(name)) {
            Ok(i) => defined[i].1 as u64,
            Err(_) => {
                let u = undefined.binary_search(&name).expect("collected above");
                (functions.len() + 1 + u) as u64
            }
        }
    };

    // .strtab and .symtab.
    let names_len: usize = functions.iter().map(|f| f.name.len() + 1).sum::<usize>()
        + undefined.iter().map(|n| n.len() + 1).sum::<usize>();
    let mut strtab = Vec::with_capacity(48 + names_len);
    strtab.push(0);
    let mut section_at = [0u32; 5];
    for (i, n) in SECTION_NAMES.iter().enumerate() {
        if has_rel || i != 2 {
            section_at[i] = strtab.len() as u32;
            strtab.extend_from_slice(n.as_bytes());
            strtab.push(0);
        }
    }
    let mut add = |name: &str| -> u32 {
        if let Some(i) = SECTION_NAMES
            .iter()
            .enumerate()
            .position(|(i, &n)| n == name && (has_rel || i != 2))
        {
            return section_at[i];
        }
        let at = strtab.len() as u32;
        strtab.extend_from_slice(name.as_bytes());
        strtab.push(0);
        at
    };
    let mut symtab = Vec::with_capacity(24 * (1 + functions.len() + undefined.len()));
    symtab.resize(24, 0);
    const TEXT_IDX: u16 = 2;
    for f in functions {
        let name = add(&f.name);
        let kind = if f.name.ends_with(CONST_DATA_SUFFIX) {
            STT_OBJECT
        } else {
            STT_FUNC
        };
        push_sym(
            &mut symtab,
            name,
            STB_GLOBAL << 4 | kind,
            TEXT_IDX,
            f.offset,
            f.size,
        );
    }
    for name in &undefined {
        let n = add(name);
        push_sym(
            &mut symtab,
            n,
            STB_GLOBAL << 4 | STT_NOTYPE,
            SHN_UNDEF,
            0,
            0,
        );
    }
    let note_idx = if has_rel { 4 } else { 3 };
    let symtab_idx = note_idx + 1;
    let n_headers = symtab_idx as usize + 1;

    // One buffer: header, .text, .rel.text, .note, .symtab, .strtab, section headers
    // (the metadata's size is a guess; it is the only part that may grow the buffer).
    let isa = gen.isa_name();
    let capacity = 0x100
        + text.len()
        + 8
        + 16 * relocs.len()
        + 32
        + isa.len()
        + 2048
        + 8
        + symtab.len()
        + strtab.len()
        + 8
        + 64 * n_headers;
    let mut out = Vec::with_capacity(capacity);
    out.resize(0x100, 0);
    let align = |out: &mut Vec<u8>, a: u64| out.resize(align_up(out.len() as u64, a) as usize, 0);

    // .text with every REL addend stored in its field.
    align(&mut out, TEXT_ALIGN);
    let text_off = out.len() as u64;
    out.extend_from_slice(text);
    for r in &relocs {
        let enc = r.kind.encode_addend(r.addend)?;
        let at = (text_off + r.offset) as usize;
        out[at..at + enc.len()].copy_from_slice(&enc);
    }
    let mut rel_off = 0;
    if has_rel {
        align(&mut out, 8);
        rel_off = out.len() as u64;
        for r in &relocs {
            out.extend_from_slice(&r.offset.to_le_bytes());
            let info = sym_index(&r.symbol) << 32 | r.kind.number() as u64;
            out.extend_from_slice(&info.to_le_bytes());
        }
    }
    let rel_len = out.len() as u64 - rel_off;

    // .note: the ISA name, then the metadata written in place.
    align(&mut out, 4);
    let note_off = out.len() as u64;
    note(&mut out, "AMD", NT_AMD_HSA_ISA_NAME, &|o| {
        o.extend_from_slice(isa.as_bytes());
        Ok(())
    })?;
    note(&mut out, "AMDGPU", NT_AMDGPU_METADATA, metadata)?;
    let note_len = out.len() as u64 - note_off;

    align(&mut out, 8);
    let symtab_off = out.len() as u64;
    out.extend_from_slice(&symtab);
    let strtab_off = out.len() as u64;
    out.extend_from_slice(&strtab);

    let [n_strtab, n_text, n_rel, n_note, n_symtab] = section_at;
    let mut headers = vec![
        SectionHeader::default(),
        SectionHeader {
            name: n_strtab,
            ty: SHT_STRTAB,
            offset: strtab_off,
            size: strtab.len() as u64,
            align: 1,
            ..SectionHeader::default()
        },
        SectionHeader {
            name: n_text,
            ty: SHT_PROGBITS,
            flags: SHF_ALLOC | SHF_EXECINSTR,
            offset: text_off,
            size: text.len() as u64,
            align: TEXT_ALIGN,
            ..SectionHeader::default()
        },
    ];
    if has_rel {
        headers.push(SectionHeader {
            name: n_rel,
            ty: SHT_REL,
            flags: SHF_INFO_LINK,
            offset: rel_off,
            size: rel_len,
            link: symtab_idx,
            info: TEXT_IDX as u32,
            align: 8,
            entsize: 16,
        });
    }
    headers.push(SectionHeader {
        name: n_note,
        ty: SHT_NOTE,
        offset: note_off,
        size: note_len,
        align: 4,
        ..SectionHeader::default()
    });
    headers.push(SectionHeader {
        name: n_symtab,
        ty: SHT_SYMTAB,
        offset: symtab_off,
        size: symtab.len() as u64,
        link: 1,
        info: 1, // one past the last local symbol (only the null symbol is local)
        align: 8,
        entsize: 24,
        ..SectionHeader::default()
    });
    debug_assert_eq!(headers.len(), n_headers);

    align(&mut out, 8);
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
    let eh = &mut out[..64];
    eh[..9].copy_from_slice(&[0x7f, b'E', b'L', b'F', 2, 1, 1, ELFOSABI_AMDGPU_PAL, 0]);
    let fields: [&[u8]; 13] = [
        &ET_REL.to_le_bytes(),
        &EM_AMDGPU.to_le_bytes(),
        &1u32.to_le_bytes(), // e_version
        &0u64.to_le_bytes(), // e_entry
        &0u64.to_le_bytes(), // e_phoff
        &shoff.to_le_bytes(),
        &gen.e_flags().to_le_bytes(),
        &64u16.to_le_bytes(), // e_ehsize
        &0u16.to_le_bytes(),  // e_phentsize
        &0u16.to_le_bytes(),  // e_phnum
        &64u16.to_le_bytes(), // e_shentsize
        &(n_headers as u16).to_le_bytes(),
        &1u16.to_le_bytes(), // e_shstrndx: .strtab
    ];
    let mut at = 16;
    for f in fields {
        eh[at..at + f.len()].copy_from_slice(f);
        at += f.len();
    }
    Ok(out)
}

/// Appends one note whose descriptor `desc` writes in place (its size patched after).
fn note(
    out: &mut Vec<u8>,
    owner: &str,
    ty: u32,
    desc: &dyn Fn(&mut Vec<u8>) -> Result<()>,
) -> Result<()> {
    let start = out.len();
    out.extend_from_slice(&(owner.len() as u32 + 1).to_le_bytes());
    out.extend_from_slice(&0u32.to_le_bytes()); // descsz, patched below
    out.extend_from_slice(&ty.to_le_bytes());
    out.extend_from_slice(owner.as_bytes());
    out.push(0);
    out.resize(align_up(out.len() as u64, 4) as usize, 0);
    let desc_at = out.len();
    desc(out)?;
    let desc_len = (out.len() - desc_at) as u32;
    out[start + 4..start + 8].copy_from_slice(&desc_len.to_le_bytes());
    out.resize(align_up(out.len() as u64, 4) as usize, 0);
    Ok(())
}

fn push_sym(out: &mut Vec<u8>, name: u32, info: u8, shndx: u16, value: u64, size: u64) {
    out.extend_from_slice(&name.to_le_bytes());
    out.push(info);
    out.push(0); // st_other: default visibility
    out.extend_from_slice(&shndx.to_le_bytes());
    out.extend_from_slice(&value.to_le_bytes());
    out.extend_from_slice(&size.to_le_bytes());
}
