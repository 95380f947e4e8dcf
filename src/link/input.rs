//! Reading one unlinked input: the checks that turn a byte buffer into a main part the
//! layout can place. Everything is range-checked; problems are `link::Error`s that name
//! the input and the byte offset or metadata path.
//!
//! Three sources give the same [`Input`] for the same shader: the ELF bytes
//! ([`read_input`]), a code object still in memory with its metadata as a tree
//! ([`object_input`]) or typed ([`typed_input`], the whole-pipeline compile's main part:
//! no metadata tree is built or read). Each reads its metadata into a `Meta` and then
//! makes the same checks (`checked_input`).

use super::error::{Error, Result};
use crate::binary::merge::take_prelink;
use crate::binary::prelink::PreLinkMetadata;
use crate::binary::registers::{self, Rsrc2};
use crate::binary::{CodeObject, ElfFile, HwStage, PalMetadata, Relocation, TypedObject, Value};
use crate::compile_graphics_unlinked::StageInterface;
use crate::isa::Gen;
use crate::isa::Target;

/// One unlinked shader, ready for layout.
#[derive(Clone, Debug)]
pub struct Input {
    /// Index among the inputs.
    pub index: usize,
    /// Target (generation from `e_flags`, wave size from the metadata).
    pub target: Target,
    /// Hardware stage.
    pub stage: HwStage,
    /// Where the part's constant data starts in `code`, if it has any.
    pub data_at: Option<u64>,
    /// The main part's code: the entry symbol's bytes, without the trailing padding — or,
    /// when constant data follows (`gcnc.prelink.part_bytes`), up to the data's end.
    pub code: Vec<u8>,
    /// Its relocations, offsets relative to `code`.
    pub relocations: Vec<Relocation>,
    /// The typed metadata without `gcnc.prelink` (read once, merged by the link).
    pub metadata: PalMetadata,
    /// The pre-link section.
    pub prelink: PreLinkMetadata,
    /// System SGPRs after the user SGPRs (CS: TGID x/y/z, TG_SIZE, scratch offset).
    pub system_sgprs: u16,
    /// A graphics stage's interface, decoded from `prelink` once (or why it cannot be).
    pub(crate) interface: Option<std::result::Result<StageInterface, String>>,
    /// A compute-path input's metadata tree when the typed model does not give it back
    /// exactly (a foreign tree lacking keys the model always writes): the link then merges
    /// trees, so its output keeps the input's keys as they were.
    pub(crate) tree: Option<Value>,
}

impl Input {
    /// The symbol of the main part inside the linked object (`gcnc.main.<stage>`).
    pub fn main_symbol(&self) -> &'static str {
        match self.stage {
            HwStage::Ls => "gcnc.main.ls",
            HwStage::Hs => "gcnc.main.hs",
            HwStage::Es => "gcnc.main.es",
            HwStage::Gs => "gcnc.main.gs",
            HwStage::Vs => "gcnc.main.vs",
            HwStage::Ps => "gcnc.main.ps",
            HwStage::Cs => "gcnc.main.cs",
        }
    }
}

/// Reads input `index`.
pub fn read_input(index: usize, bytes: &[u8]) -> Result<Input> {
    let elf_err = |source| Error::Elf {
        input: index,
        source,
    };
    let not = |reason: String| Error::NotUnlinked {
        input: index,
        reason,
    };
    let mut elf = ElfFile::parse(bytes).map_err(elf_err)?;
    let gen = elf.gen().ok_or_else(|| Error::TargetMismatch {
        input: index,
        reason: format!(
            "e_flags {:#x} names no target gcnc links for (gfx900, gfx1030, gfx1100)",
            elf.e_flags
        ),
    })?;
    // moved out, not cloned: the parsed ELF is dropped after this read
    let tree = elf
        .metadata
        .take()
        .ok_or_else(|| not("no NT_AMDGPU_METADATA note".into()))?;
    let text_sec = elf.section_by_name(".text").map(|s| s.index);
    let relocs = || {
        let mut relocations = Vec::new();
        for r in &elf.relocations {
            if Some(r.target_section) != text_sec {
                return Err(Error::BadRelocation {
                    input: index,
                    offset: r.offset,
                    reason: format!(
                        "relocation of section {} (only .text is relocated)",
                        r.target_section
                    ),
                });
            }
            relocations.push(Relocation {
                offset: r.offset,
                kind: r.kind,
                symbol: r.symbol_name.clone(),
                addend: r.addend,
            });
        }
        Ok(relocations)
    };
    let entry = |stage: HwStage| elf.entry(stage).map(|e| (e.name.clone(), e.value, e.size));
    checked_input(
        index,
        gen,
        tree_metadata(index, tree)?,
        text_sec.map(|t| elf.section_data(t)),
        &entry,
        &relocs,
    )
}

/// The main part of a code object the backend has just built, without writing and
/// reading back its ELF: the same checks and the same [`Input`] as [`read_input`] of
/// `obj.write()`, whose `.text` carries each relocation's addend in its field.
pub fn object_input(index: usize, obj: CodeObject) -> Result<Input> {
    obj.validate().map_err(|source| Error::Elf {
        input: index,
        source,
    })?;
    code_input(index, obj, |tree| tree_metadata(index, tree))
}

/// [`object_input`] of a code object whose metadata is still the typed model (the
/// whole-pipeline compile's main part): the model is the input's metadata as it is, with
/// no tree built, compared or read back. The same checks and the same [`Input`] as
/// [`object_input`] of `obj.into_code_object()`: the typed model gives its own tree back
/// exactly, so the input carries no foreign tree.
pub fn typed_input(index: usize, obj: TypedObject) -> Result<Input> {
    obj.validate().map_err(|source| Error::Elf {
        input: index,
        source,
    })?;
    code_input(index, obj, |mut md| {
        let prelink = md.prelink.take().ok_or_else(|| Error::NotUnlinked {
            input: index,
            reason: "no gcnc.prelink section in the metadata".into(),
        })?;
        Ok((md, prelink, None))
    })
}

/// The input of a checked code object whose metadata `meta` reads.
fn code_input<M>(
    index: usize,
    obj: CodeObject<M>,
    meta: impl FnOnce(M) -> Result<Meta>,
) -> Result<Input> {
    let CodeObject {
        gen,
        mut text,
        functions,
        mut relocations,
        metadata,
    } = obj;
    write_addends(index, &mut text, &mut relocations)?;
    let entry = |stage: HwStage| {
        functions
            .iter()
            .find(|f| f.name == stage.entry_symbol_str())
            .map(|f| (f.name.clone(), f.offset, f.size))
    };
    checked_input(index, gen, meta(metadata)?, Some(&text), &entry, &|| {
        Ok(relocations.clone())
    })
}

/// Sorts `relocations` by offset and writes each one's addend into its field of `text`,
/// as the ELF writer does.
fn write_addends(index: usize, text: &mut [u8], relocations: &mut [Relocation]) -> Result<()> {
    relocations.sort_by_key(|r| r.offset);
    for r in relocations.iter() {
        let enc = r
            .kind
            .encode_addend(r.addend)
            .map_err(|source| Error::Elf {
                input: index,
                source,
            })?;
        let at = r.offset as usize;
        let field = text
            .get_mut(at..at.saturating_add(enc.len()))
            .ok_or_else(|| Error::BadRelocation {
                input: index,
                offset: r.offset,
                reason: format!("{} field lies outside .text", r.kind.name()),
            })?;
        field.copy_from_slice(&enc);
    }
    Ok(())
}

/// The typed metadata, the pre-link section and (when the model does not give it back
/// exactly: compute inputs only) the input's own tree, read from the whole metadata tree.
type Meta = (PalMetadata, PreLinkMetadata, Option<Value>);

/// [`Meta`] of input `index`'s metadata tree (with `gcnc.prelink`).
fn tree_metadata(index: usize, mut tree: Value) -> Result<Meta> {
    let elf_err = |source| Error::Elf {
        input: index,
        source,
    };
    let prelink = take_prelink(&mut tree)
        .map_err(elf_err)?
        .ok_or_else(|| Error::NotUnlinked {
            input: index,
            reason: "no gcnc.prelink section in the metadata".into(),
        })?;
    let graphics = matches!(prelink.stage, HwStage::Vs | HwStage::Gs | HwStage::Ps);
    let kept = (!graphics).then(|| tree.clone());
    let md = PalMetadata::from_owned_value(tree).map_err(elf_err)?;
    let tree = kept.filter(|t| md.to_value() != *t);
    Ok((md, prelink, tree))
}

/// The checks after the metadata is read ([`Meta`]): `text` is the `.text` bytes (if there
/// is a `.text`), `entry` finds a stage's entry symbol (name, offset, size) and `relocs`
/// gives `.text`'s relocations (or the error for one that is not of `.text`).
fn checked_input(
    index: usize,
    gen: Gen,
    meta: Meta,
    text: Option<&[u8]>,
    entry: &dyn Fn(HwStage) -> Option<(String, u64, u64)>,
    relocs: &dyn Fn() -> Result<Vec<Relocation>>,
) -> Result<Input> {
    let not = |reason: String| Error::NotUnlinked {
        input: index,
        reason,
    };
    let (md, prelink, tree) = meta;
    let graphics = matches!(prelink.stage, HwStage::Vs | HwStage::Gs | HwStage::Ps);
    let stage = prelink.stage;
    let (name, value, size) =
        entry(stage).ok_or_else(|| not(format!("no {} entry symbol", stage.entry_symbol())))?;
    let text = text.ok_or_else(|| not("no .text section".into()))?;
    let (start, end) = (value, value.checked_add(size));
    let end = match end {
        Some(e) if e <= text.len() as u64 && start % 4 == 0 && size % 4 == 0 => e,
        _ => {
            return Err(not(format!(
                "entry {name} at {start:#x} size {size:#x} is not a dword range inside .text ({:#x} bytes)",
                text.len()
            )))
        }
    };
    if size == 0 {
        return Err(not(format!("entry {name} is empty")));
    }
    // constant data after the code (and its padding) travels with the part: the code
    // reads it PC-relative
    let constant_data = prelink.constant_data().map_err(|source| Error::Elf {
        input: index,
        source,
    })?;
    let part_end = match constant_data {
        None => end,
        Some((d, n)) => match start.checked_add(n) {
            Some(e) if n >= size && e <= text.len() as u64 && n % 4 == 0 && d >= size && d <= n => {
                e
            }
            _ => {
                return Err(not(format!(
                    "gcnc.prelink constant data {d:#x}..{n:#x} of entry {name} at {start:#x} is not a dword range inside .text ({:#x} bytes) after the entry's code",
                    text.len()
                )))
            }
        },
    };
    let code = text[start as usize..part_end as usize].to_vec();
    let mut relocations = Vec::new();
    for r in relocs()? {
        let fend = r.offset + r.kind.field_size() as u64;
        if r.offset < start || fend > end {
            return Err(Error::BadRelocation {
                input: index,
                offset: r.offset,
                reason: format!(
                    "{} field lies outside the entry's code [{start:#x}, {end:#x})",
                    r.kind.name()
                ),
            });
        }
        relocations.push(Relocation {
            offset: r.offset - start,
            ..r
        });
    }
    let wave = md.pipeline.wave(stage);
    let target = Target { gen, wave }
        .check_wave()
        .map_err(|_| Error::TargetMismatch {
            input: index,
            reason: format!("{wave} on {gen}"),
        })?;
    let mut system_sgprs = 0;
    if stage == HwStage::Cs {
        let r2 = md
            .pipeline
            .registers
            .get(&registers::COMPUTE_PGM_RSRC2)
            .copied()
            .ok_or_else(|| not("no COMPUTE_PGM_RSRC2 register".into()))?;
        let r2 = Rsrc2::unpack(r2);
        if r2.user_sgprs as usize != prelink.user_sgprs.len() {
            return Err(not(format!(
                "RSRC2.USER_SGPR is {} but gcnc.prelink.user_sgprs lists {}",
                r2.user_sgprs,
                prelink.user_sgprs.len()
            )));
        }
        // TGID x/y/z, TG_SIZE, and on GFX9/10 the scratch wave offset (pal-abi §4.2).
        system_sgprs = r2.tgid_en.iter().filter(|&&e| e).count() as u16
            + r2.tg_size_en as u16
            + (r2.scratch_en && gen < crate::isa::Gen::Gfx11) as u16;
    }
    let interface = graphics.then(|| {
        StageInterface::from_prelink(&prelink)
            .unwrap_or_else(|| Err("no gcnc.prelink.graphics interface".into()))
    });
    Ok(Input {
        index,
        target,
        stage,
        data_at: constant_data.map(|(d, _)| d),
        code,
        relocations,
        metadata: md,
        prelink,
        system_sgprs,
        interface,
        tree,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::binary::prelink::UserSgpr;
    use crate::binary::{ComputeShaderInfo, RelocKind, UserData};
    use crate::isa::Target;

    /// An unlinked compute main part: two user SGPRs, a workgroup id, LDS, scratch, and a
    /// descriptor-offset literal relocated at byte 8 (with a non-zero addend).
    fn main_part(gen: Gen) -> TypedObject {
        let mut info = ComputeShaderInfo::new(Target::new(gen));
        info.vgprs = 7;
        info.sgprs = 19;
        info.user_data = vec![UserData::Entry(0), UserData::Entry(1)];
        info.tgid_en = [true, true, false];
        info.lds_bytes = 512;
        info.scratch_bytes_per_lane = 20;
        info.workgroup_size = [64, 2, 1];
        let mut text = vec![0u8; 16];
        text[12..].copy_from_slice(&0xBF81_0000u32.to_le_bytes()); // s_endpgm
        text.resize(256, 0);
        let reloc = Relocation {
            offset: 8,
            kind: RelocKind::Abs32Lo,
            symbol: "gcnc.desc.0.0.buffer.offset".into(),
            addend: 16,
        };
        let mut obj = TypedObject::compute_typed(&info, text, 16, vec![reloc]).unwrap();
        let mut pl = PreLinkMetadata::new(HwStage::Cs);
        pl.user_sgprs = vec![UserSgpr::DescriptorSet(0), UserSgpr::DescriptorSetHi(0)];
        pl.missing_state = vec!["descriptor_layout".into()];
        obj.metadata.prelink = Some(pl);
        obj
    }

    #[test]
    fn typed_input_is_the_input_of_the_written_elf() {
        for gen in [Gen::Gfx9, Gen::Gfx10, Gen::Gfx11] {
            let obj = main_part(gen);
            let elf = obj.write().unwrap();
            let read = read_input(0, &elf).unwrap();
            let typed = typed_input(0, obj.clone()).unwrap();
            let tree = object_input(0, obj.into_code_object()).unwrap();
            // `Input` is compared as a whole through its Debug form (it holds no floats
            // and no maps with unstable order)
            assert_eq!(format!("{typed:?}"), format!("{read:?}"), "{gen:?}");
            assert_eq!(format!("{tree:?}"), format!("{read:?}"), "{gen:?}");
            assert!(typed.tree.is_none() && typed.metadata.prelink.is_none());
            assert_eq!(
                &typed.code[8..12],
                &16u32.to_le_bytes(),
                "the addend in its field"
            );
        }
    }

    #[test]
    fn typed_input_checks_what_read_input_checks() {
        // no pre-link section: not an unlinked shader
        let mut obj = main_part(Gen::Gfx11);
        obj.metadata.prelink = None;
        let e = typed_input(3, obj).unwrap_err();
        assert!(
            matches!(&e, Error::NotUnlinked { input: 3, reason } if reason.contains("gcnc.prelink")),
            "{e}"
        );
        // the pre-link section lists one user SGPR, RSRC2 two
        let mut obj = main_part(Gen::Gfx11);
        obj.metadata.prelink.as_mut().unwrap().user_sgprs.pop();
        let e = typed_input(0, obj.clone()).unwrap_err();
        let r = read_input(0, &obj.write().unwrap()).unwrap_err();
        assert_eq!(e.to_string(), r.to_string());
        // a relocation outside the entry's code
        let mut obj = main_part(Gen::Gfx9);
        obj.relocations[0].offset = 64;
        let e = typed_input(0, obj.clone()).unwrap_err();
        let r = read_input(0, &obj.write().unwrap()).unwrap_err();
        assert!(matches!(e, Error::BadRelocation { offset: 64, .. }), "{e}");
        assert_eq!(e.to_string(), r.to_string());
        // an object that breaks the writer's invariants (a relocation field past .text)
        let mut obj = main_part(Gen::Gfx10);
        obj.relocations[0].offset = 254;
        assert!(matches!(
            typed_input(0, obj).unwrap_err(),
            Error::Elf { input: 0, .. }
        ));
    }
}
