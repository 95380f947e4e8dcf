//! The AMDGPU ELF reader: sections, symbols, relocations, notes and the PAL metadata tree,
//! for the disassembler, the emulator and the link stage.
//!
//! Accepts little-endian ELF64 with `e_machine == EM_AMDGPU` (any OS/ABI: PAL objects from
//! us or llc, HSA objects for inspection). Every offset, size, index and count is checked
//! against the file before it is used; a malformed file gives a [`Error`] naming the byte
//! offset and the reason, never a panic. The reader copies the input, so an [`ElfFile`]
//! has no lifetime.
//!
//! Relocations: `SHT_REL` records read their implicit addend from the field bytes
//! ([`RelocKind::implicit_addend`], REL16 zero-extended as PAL reads it); `SHT_RELA` records
//! carry it explicitly. Notes: owner names lose their trailing NUL; the `"AMDGPU"` type-32
//! note is decoded as msgpack (at most one per file).

use super::elf::*;
use super::elf_write::{CodeObject, FuncSymbol, Relocation};
use super::error::{Error, Result};
use super::metadata::{HwStage, PalMetadata};
use super::msgpack::{self, Value};
use crate::isa::Gen;

/// A section header.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Section {
    /// Index in the section table.
    pub index: usize,
    /// Name from the section-name string table.
    pub name: String,
    /// `sh_type`.
    pub sh_type: u32,
    /// `sh_flags`.
    pub flags: u64,
    /// `sh_addr`.
    pub addr: u64,
    /// `sh_offset`.
    pub offset: u64,
    /// `sh_size`.
    pub size: u64,
    /// `sh_link`.
    pub link: u32,
    /// `sh_info`.
    pub info: u32,
    /// `sh_addralign`.
    pub align: u64,
    /// `sh_entsize`.
    pub entsize: u64,
}

/// Where a symbol is defined.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SymbolSection {
    /// `SHN_UNDEF`.
    Undefined,
    /// `SHN_ABS`.
    Absolute,
    /// `SHN_COMMON`.
    Common,
    /// A section index.
    Section(usize),
}

/// A symbol table entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Symbol {
    /// Index in `.symtab`.
    pub index: usize,
    /// Name.
    pub name: String,
    /// `st_value`.
    pub value: u64,
    /// `st_size`.
    pub size: u64,
    /// `STT_*`.
    pub kind: u8,
    /// `STB_*`.
    pub bind: u8,
    /// Defining section.
    pub section: SymbolSection,
}

/// A relocation record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reloc {
    /// Index of the REL/RELA section it came from.
    pub rel_section: usize,
    /// Index of the section it applies to (`sh_info`).
    pub target_section: usize,
    /// `r_offset` in the target section.
    pub offset: u64,
    /// Type.
    pub kind: RelocKind,
    /// Symbol index.
    pub symbol: usize,
    /// Symbol name (empty for symbol 0; the section's name for a section symbol).
    pub symbol_name: String,
    /// Addend: the implicit one for REL, `r_addend` for RELA.
    pub addend: i64,
    /// Whether it came from a RELA section.
    pub explicit_addend: bool,
}

/// A note record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Note {
    /// File offset of the note header.
    pub offset: u64,
    /// Owner name without its NUL.
    pub owner: String,
    /// `n_type`.
    pub ty: u32,
    /// Descriptor bytes.
    pub desc: Vec<u8>,
    /// File offset of the descriptor.
    pub desc_offset: u64,
}

/// A parsed AMDGPU ELF file.
#[derive(Clone, Debug)]
pub struct ElfFile {
    bytes: Vec<u8>,
    /// `e_type`.
    pub e_type: u16,
    /// `EI_OSABI`.
    pub osabi: u8,
    /// `EI_ABIVERSION`.
    pub abi_version: u8,
    /// `e_flags`.
    pub e_flags: u32,
    /// Section table, index 0 included.
    pub sections: Vec<Section>,
    /// `.symtab` entries, index 0 included (empty if there is no symbol table).
    pub symbols: Vec<Symbol>,
    /// Relocations of every REL/RELA section, in file order.
    pub relocations: Vec<Reloc>,
    /// Notes of every SHT_NOTE section, in file order.
    pub notes: Vec<Note>,
    /// Decoded NT_AMDGPU_METADATA tree, if the note exists.
    pub metadata: Option<Value>,
}

fn truncated(what: &'static str, offset: u64, needed: u64, len: usize) -> Error {
    Error::Truncated {
        what,
        offset,
        needed,
        len: len as u64,
    }
}

struct Bytes<'a>(&'a [u8]);

impl Bytes<'_> {
    fn range(&self, what: &'static str, offset: u64, size: u64) -> Result<&[u8]> {
        match offset.checked_add(size) {
            Some(end) if end <= self.0.len() as u64 => Ok(&self.0[offset as usize..end as usize]),
            _ => Err(truncated(what, offset, size, self.0.len())),
        }
    }
    fn u16(&self, what: &'static str, at: u64) -> Result<u16> {
        let b = self.range(what, at, 2)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }
    fn u32(&self, what: &'static str, at: u64) -> Result<u32> {
        let b = self.range(what, at, 4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
    fn u64(&self, what: &'static str, at: u64) -> Result<u64> {
        let b = self.range(what, at, 8)?;
        let mut a = [0u8; 8];
        a.copy_from_slice(b);
        Ok(u64::from_le_bytes(a))
    }
}

/// Reads a NUL-terminated name at `offset` of string-table bytes.
fn name_at(table: &[u8], offset: u32) -> std::result::Result<String, String> {
    let start = offset as usize;
    if start >= table.len() && !(start == 0 && table.is_empty()) {
        return Err(format!(
            "name offset {offset:#x} is outside the string table ({} bytes)",
            table.len()
        ));
    }
    let rest = &table[start.min(table.len())..];
    let end = rest
        .iter()
        .position(|&b| b == 0)
        .ok_or_else(|| format!("name at {offset:#x} is not NUL-terminated"))?;
    String::from_utf8(rest[..end].to_vec()).map_err(|_| format!("name at {offset:#x} is not UTF-8"))
}

impl ElfFile {
    /// Parses and checks an ELF image.
    pub fn parse(input: &[u8]) -> Result<ElfFile> {
        let b = Bytes(input);
        if input.len() < 4 {
            return Err(truncated("ELF identification", 0, 64, input.len()));
        }
        if &input[..4] != b"\x7fELF" {
            return Err(Error::BadMagic);
        }
        let ident = b.range("ELF header", 0, 64)?;
        if ident[4] != 2 {
            return Err(Error::BadHeader {
                offset: 4,
                reason: format!("EI_CLASS {} is not ELFCLASS64", ident[4]),
            });
        }
        if ident[5] != 1 {
            return Err(Error::BadHeader {
                offset: 5,
                reason: format!("EI_DATA {} is not little-endian", ident[5]),
            });
        }
        let osabi = ident[7];
        let abi_version = ident[8];
        let e_type = b.u16("e_type", 16)?;
        let machine = b.u16("e_machine", 18)?;
        if machine != EM_AMDGPU {
            return Err(Error::WrongMachine { found: machine });
        }
        let e_flags = b.u32("e_flags", 48)?;
        let shoff = b.u64("e_shoff", 40)?;
        let shentsize = b.u16("e_shentsize", 58)?;
        let shnum = b.u16("e_shnum", 60)? as u64;
        let shstrndx = b.u16("e_shstrndx", 62)? as u64;
        if shnum > 0 && shentsize != 64 {
            return Err(Error::BadHeader {
                offset: 58,
                reason: format!("e_shentsize {shentsize}, expected 64"),
            });
        }
        if shnum > 0 && shstrndx >= shnum {
            return Err(Error::BadHeader {
                offset: 62,
                reason: format!("e_shstrndx {shstrndx} is not below e_shnum {shnum}"),
            });
        }
        b.range("section header table", shoff, shnum * 64)?;

        // Raw headers first, then names (they need the name table's header).
        let mut sections = Vec::with_capacity(shnum as usize);
        for i in 0..shnum {
            let at = shoff + i * 64;
            let s = Section {
                index: i as usize,
                name: String::new(),
                sh_type: b.u32("sh_type", at + 4)?,
                flags: b.u64("sh_flags", at + 8)?,
                addr: b.u64("sh_addr", at + 16)?,
                offset: b.u64("sh_offset", at + 24)?,
                size: b.u64("sh_size", at + 32)?,
                link: b.u32("sh_link", at + 40)?,
                info: b.u32("sh_info", at + 44)?,
                align: b.u64("sh_addralign", at + 48)?,
                entsize: b.u64("sh_entsize", at + 56)?,
            };
            let bad = |reason: String| Error::BadSection {
                index: i as usize,
                offset: at,
                reason,
            };
            if s.sh_type != SHT_NOBITS && s.sh_type != SHT_NULL {
                let fits = s
                    .offset
                    .checked_add(s.size)
                    .is_some_and(|e| e <= input.len() as u64);
                if !fits {
                    return Err(bad(format!(
                        "data at {:#x}+{:#x} runs past the end of the file ({:#x} bytes)",
                        s.offset,
                        s.size,
                        input.len()
                    )));
                }
            }
            if s.align > 1 && !s.align.is_power_of_two() {
                return Err(bad(format!("alignment {} is not a power of two", s.align)));
            }
            sections.push(s);
        }
        if shnum > 0 {
            let st = &sections[shstrndx as usize];
            if st.sh_type != SHT_STRTAB {
                return Err(Error::BadHeader {
                    offset: 62,
                    reason: format!("e_shstrndx {shstrndx} is not a string table"),
                });
            }
            let names = b.range("section names", st.offset, st.size)?.to_vec();
            for (i, section) in sections.iter_mut().enumerate() {
                let at = shoff + i as u64 * 64;
                let off = b.u32("sh_name", at)?;
                section.name = name_at(&names, off).map_err(|reason| Error::BadSection {
                    index: i,
                    offset: at,
                    reason,
                })?;
            }
        }

        let mut file = ElfFile {
            bytes: input.to_vec(),
            e_type,
            osabi,
            abi_version,
            e_flags,
            sections,
            symbols: Vec::new(),
            relocations: Vec::new(),
            notes: Vec::new(),
            metadata: None,
        };
        file.read_symbols(shoff)?;
        file.read_relocations(shoff)?;
        file.read_notes(shoff)?;
        Ok(file)
    }

    fn section_error(&self, index: usize, shoff: u64, reason: String) -> Error {
        Error::BadSection {
            index,
            offset: shoff + index as u64 * 64,
            reason,
        }
    }

    fn read_symbols(&mut self, shoff: u64) -> Result<()> {
        let tabs: Vec<usize> = self
            .sections
            .iter()
            .filter(|s| s.sh_type == SHT_SYMTAB)
            .map(|s| s.index)
            .collect();
        let Some(&idx) = tabs.first() else {
            return Ok(());
        };
        if tabs.len() > 1 {
            return Err(self.section_error(tabs[1], shoff, "a second SHT_SYMTAB".into()));
        }
        let s = self.sections[idx].clone();
        if s.entsize != 24 || !s.size.is_multiple_of(24) {
            return Err(self.section_error(
                idx,
                shoff,
                format!(
                    "symbol table entsize {} size {:#x}; expected 24-byte entries",
                    s.entsize, s.size
                ),
            ));
        }
        let link = s.link as usize;
        if link >= self.sections.len() || self.sections[link].sh_type != SHT_STRTAB {
            return Err(self.section_error(
                idx,
                shoff,
                format!("sh_link {link} is not a string table"),
            ));
        }
        let strs = self.section_data(link).to_vec();
        let data = self.section_data(idx).to_vec();
        let n = data.len() / 24;
        let mut syms = Vec::with_capacity(n);
        for i in 0..n {
            let e = &data[i * 24..i * 24 + 24];
            let at = s.offset + i as u64 * 24;
            let bad = |reason: String| Error::BadSymbol {
                index: i,
                offset: at,
                reason,
            };
            let name_off = u32::from_le_bytes([e[0], e[1], e[2], e[3]]);
            let name = name_at(&strs, name_off).map_err(bad)?;
            let info = e[4];
            let shndx = u16::from_le_bytes([e[6], e[7]]);
            let value = u64::from_le_bytes(e[8..16].try_into().unwrap_or([0; 8]));
            let size = u64::from_le_bytes(e[16..24].try_into().unwrap_or([0; 8]));
            let section = match shndx {
                SHN_UNDEF => SymbolSection::Undefined,
                SHN_ABS => SymbolSection::Absolute,
                SHN_COMMON => SymbolSection::Common,
                x if (x as usize) < self.sections.len() => SymbolSection::Section(x as usize),
                x => {
                    return Err(bad(format!(
                        "st_shndx {x} is not a section ({} sections)",
                        self.sections.len()
                    )))
                }
            };
            if let SymbolSection::Section(sec) = section {
                let ss = &self.sections[sec];
                let end = value.checked_add(size);
                if ss.sh_type != SHT_NOBITS && end.is_none_or(|e| e > ss.size) {
                    return Err(bad(format!(
                        "value {value:#x} size {size:#x} runs past section {sec} ({:#x} bytes)",
                        ss.size
                    )));
                }
            }
            // Section symbols are nameless; call them by their section, as readelf does.
            let name = match section {
                SymbolSection::Section(sec) if name.is_empty() && info & 0xf == STT_SECTION => {
                    self.sections[sec].name.clone()
                }
                _ => name,
            };
            syms.push(Symbol {
                index: i,
                name,
                value,
                size,
                kind: info & 0xf,
                bind: info >> 4,
                section,
            });
        }
        self.symbols = syms;
        Ok(())
    }

    fn read_relocations(&mut self, shoff: u64) -> Result<()> {
        for idx in 0..self.sections.len() {
            let s = self.sections[idx].clone();
            let rela = match s.sh_type {
                SHT_REL => false,
                SHT_RELA => true,
                _ => continue,
            };
            let ent = if rela { 24 } else { 16 };
            if s.entsize != ent || !s.size.is_multiple_of(ent) {
                return Err(self.section_error(
                    idx,
                    shoff,
                    format!(
                        "relocation entsize {} size {:#x}; expected {ent}-byte entries",
                        s.entsize, s.size
                    ),
                ));
            }
            let target = s.info as usize;
            if target == 0 || target >= self.sections.len() {
                return Err(self.section_error(
                    idx,
                    shoff,
                    format!("sh_info {target} does not name a section to relocate"),
                ));
            }
            let link = s.link as usize;
            if link >= self.sections.len() || self.sections[link].sh_type != SHT_SYMTAB {
                return Err(self.section_error(
                    idx,
                    shoff,
                    format!("sh_link {link} is not the symbol table"),
                ));
            }
            let data = self.section_data(idx).to_vec();
            let tdata = self.section_data(target).to_vec();
            for i in 0..(data.len() / ent as usize) {
                let e = &data[i * ent as usize..(i + 1) * ent as usize];
                let at = s.offset + i as u64 * ent;
                let bad = |reason: String| Error::BadRelocation {
                    section: idx,
                    index: i,
                    offset: at,
                    reason,
                };
                let r_offset = u64::from_le_bytes(e[0..8].try_into().unwrap_or([0; 8]));
                let r_info = u64::from_le_bytes(e[8..16].try_into().unwrap_or([0; 8]));
                let ty = r_info as u32;
                let sym = (r_info >> 32) as usize;
                let kind = RelocKind::from_number(ty)
                    .ok_or_else(|| bad(format!("unknown relocation type {ty}")))?;
                if sym >= self.symbols.len() {
                    return Err(bad(format!(
                        "symbol index {sym} is outside the symbol table ({} entries)",
                        self.symbols.len()
                    )));
                }
                let width = kind.field_size() as u64;
                let in_range = r_offset
                    .checked_add(width)
                    .is_some_and(|e| e <= tdata.len() as u64);
                if !in_range {
                    return Err(bad(format!(
                        "{}-byte field at {r_offset:#x} runs past section {target} ({:#x} bytes)",
                        width,
                        tdata.len()
                    )));
                }
                let addend = if rela {
                    i64::from_le_bytes(e[16..24].try_into().unwrap_or([0; 8]))
                } else {
                    kind.implicit_addend(&tdata[r_offset as usize..(r_offset + width) as usize])
                };
                self.relocations.push(Reloc {
                    rel_section: idx,
                    target_section: target,
                    offset: r_offset,
                    kind,
                    symbol: sym,
                    symbol_name: self.symbols[sym].name.clone(),
                    addend,
                    explicit_addend: rela,
                });
            }
        }
        Ok(())
    }

    fn read_notes(&mut self, _shoff: u64) -> Result<()> {
        for idx in 0..self.sections.len() {
            if self.sections[idx].sh_type != SHT_NOTE {
                continue;
            }
            let base = self.sections[idx].offset;
            let data = self.section_data(idx).to_vec();
            let mut pos = 0u64;
            let len = data.len() as u64;
            while pos < len {
                let at = base + pos;
                let bad = |reason: String| Error::BadNote { offset: at, reason };
                if len - pos < 12 {
                    return Err(bad(format!(
                        "{} bytes left, a note header needs 12",
                        len - pos
                    )));
                }
                let p = pos as usize;
                let rd =
                    |o: usize| u32::from_le_bytes([data[o], data[o + 1], data[o + 2], data[o + 3]]);
                let (namesz, descsz, ty) = (rd(p) as u64, rd(p + 4) as u64, rd(p + 8));
                let name_start = pos + 12;
                let desc_start = name_start + align_up(namesz, 4);
                let desc_end = desc_start.checked_add(descsz);
                if desc_start > len || desc_end.is_none_or(|e| e > len) {
                    return Err(bad(format!(
                        "name size {namesz} and descriptor size {descsz} run past the section ({len} bytes)"
                    )));
                }
                let desc_end = desc_end.unwrap_or(len);
                let mut name = &data[name_start as usize..(name_start + namesz) as usize];
                while let [rest @ .., 0] = name {
                    name = rest;
                }
                let owner = String::from_utf8(name.to_vec())
                    .map_err(|_| bad("owner name is not UTF-8".into()))?;
                let desc = data[desc_start as usize..desc_end as usize].to_vec();
                if owner == "AMDGPU" && ty == NT_AMDGPU_METADATA {
                    if self.metadata.is_some() {
                        return Err(bad("a second NT_AMDGPU_METADATA note".into()));
                    }
                    let desc_file = base + desc_start;
                    let tree = msgpack::decode(&desc).map_err(|e| match e {
                        Error::Msgpack { offset, reason } => Error::Msgpack {
                            offset: desc_file + offset,
                            reason: format!(
                                "{reason} (NT_AMDGPU_METADATA payload at file offset {desc_file:#x})"
                            ),
                        },
                        other => other,
                    })?;
                    self.metadata = Some(tree);
                }
                self.notes.push(Note {
                    offset: at,
                    owner,
                    ty,
                    desc,
                    desc_offset: base + desc_start,
                });
                pos = align_up(desc_end, 4);
            }
        }
        Ok(())
    }

    /// The whole file.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// A section's bytes (empty for NOBITS and NULL sections).
    pub fn section_data(&self, index: usize) -> &[u8] {
        match self.sections.get(index) {
            Some(s) if s.sh_type != SHT_NOBITS && s.sh_type != SHT_NULL => {
                // Ranges were checked in `parse`.
                &self.bytes[s.offset as usize..(s.offset + s.size) as usize]
            }
            _ => &[],
        }
    }

    /// First section with this name.
    pub fn section_by_name(&self, name: &str) -> Option<&Section> {
        self.sections.iter().find(|s| s.name == name)
    }

    /// `.text` bytes, if present.
    pub fn text(&self) -> Option<&[u8]> {
        self.section_by_name(".text")
            .map(|s| self.section_data(s.index))
    }

    /// The generation named by `e_flags`, if it is one we know (the wave size is in the
    /// metadata, not the header).
    pub fn gen(&self) -> Option<Gen> {
        Gen::from_e_flags(self.e_flags)
    }

    /// The ISA-name note's string.
    pub fn isa_name(&self) -> Option<String> {
        self.notes
            .iter()
            .find(|n| n.owner == "AMD" && n.ty == NT_AMD_HSA_ISA_NAME)
            .map(|n| {
                String::from_utf8_lossy(&n.desc)
                    .trim_end_matches('\0')
                    .to_string()
            })
    }

    /// A symbol by name.
    pub fn symbol(&self, name: &str) -> Option<&Symbol> {
        self.symbols.iter().find(|s| s.name == name && s.index != 0)
    }

    /// The entry symbol of a hardware stage (`_amdgpu_<stage>_main`): a FUNC defined in
    /// `.text`. Gives its offset in `.text` and its size without padding.
    pub fn entry(&self, stage: HwStage) -> Option<&Symbol> {
        let text = self.section_by_name(".text")?.index;
        self.symbols.iter().find(|s| {
            s.name == stage.entry_symbol()
                && s.kind == STT_FUNC
                && s.section == SymbolSection::Section(text)
        })
    }

    /// The typed PAL metadata, if the note exists.
    pub fn pal_metadata(&self) -> Result<Option<PalMetadata>> {
        self.metadata
            .as_ref()
            .map(PalMetadata::from_value)
            .transpose()
    }

    /// Rebuilds the writer's input from a PAL object: `.text` (relocation fields keep their
    /// addends), its FUNC symbols, its relocations and the metadata tree.
    pub fn to_code_object(&self) -> Result<CodeObject> {
        let gen = self.gen().ok_or_else(|| Error::BadHeader {
            offset: 48,
            reason: format!("e_flags {:#x} is not a target we know", self.e_flags),
        })?;
        let text_sec = self
            .section_by_name(".text")
            .ok_or_else(|| Error::invalid("code object", "no .text section"))?;
        let ti = text_sec.index;
        let functions = self
            .symbols
            .iter()
            .filter(|s| s.kind == STT_FUNC && s.section == SymbolSection::Section(ti))
            .map(|s| FuncSymbol {
                name: s.name.clone(),
                offset: s.value,
                size: s.size,
            })
            .collect();
        let mut relocations = Vec::new();
        for r in self.relocations.iter().filter(|r| r.target_section == ti) {
            relocations.push(Relocation {
                offset: r.offset,
                kind: r.kind,
                symbol: r.symbol_name.clone(),
                addend: r.addend,
            });
        }
        Ok(CodeObject {
            gen,
            text: self.section_data(ti).to_vec(),
            functions,
            relocations,
            metadata: self
                .metadata
                .clone()
                .ok_or_else(|| Error::invalid("code object", "no NT_AMDGPU_METADATA note"))?,
        })
    }
}
