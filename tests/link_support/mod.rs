//! Shared by the `link_*` tests: hand-built unlinked main parts (assembled with gcnc's own
//! ISA layer into a `binary::CodeObject` with relocations and `gcnc.prelink` metadata),
//! and the oracle lookup of `tests/support` (one place decides fail vs skip).
#![allow(dead_code)]

#[path = "../binary_support/mod.rs"]
pub mod binary_support;

pub use binary_support::{oracle, run, temp_path};

use gcnc::binary::prelink::{PreLinkMetadata, UserSgpr};
use gcnc::binary::{CodeObject, ComputeShaderInfo, HwStage, RelocKind, Relocation, UserData};
pub use gcnc::isa::{self, Gen, Operand, Target};
use gcnc::link::{state::PipelineState, Linked};
use gcnc::parts::PartCache;

/// The literal that marks a relocated field in test assembly: `s_add_u32 s4, s0, 0x5eed0000`
/// becomes a literal with an `R_AMDGPU_ABS32_LO` relocation against the line's symbol.
pub const RELOC_MARK: u32 = 0x5eed_0000;

/// Assembles `lines`: each is `(text, Some(symbol))` for an instruction whose `RELOC_MARK`
/// literal is relocated against `symbol`, or `(text, None)`. Returns code and relocations.
pub fn assemble(t: isa::Target, lines: &[(&str, Option<&str>)]) -> (Vec<u8>, Vec<Relocation>) {
    let mut words = Vec::new();
    let mut relocs = Vec::new();
    for (i, (text, sym)) in lines.iter().enumerate() {
        let mut inst = isa::parse_line(text, i as u32 + 1, t)
            .unwrap_or_else(|e| panic!("{text}: {e:?}"))
            .unwrap_or_else(|| panic!("{text}: empty"));
        if sym.is_some() {
            for o in inst.operands.iter_mut() {
                if *o == Operand::Literal(RELOC_MARK) {
                    *o = Operand::Symbol(0);
                }
            }
        }
        let start = words.len() * 4;
        let mut fixups = Vec::new();
        isa::encode_into(&inst, t, &mut words, &mut fixups)
            .unwrap_or_else(|e| panic!("{text}: {e:?}"));
        if let Some(s) = sym {
            assert_eq!(fixups.len(), 1, "{text}: one relocated literal");
            relocs.push(Relocation {
                offset: (start + fixups[0].offset) as u64,
                kind: RelocKind::Abs32Lo,
                symbol: s.to_string(),
                addend: 0,
            });
        }
    }
    let bytes = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    (bytes, relocs)
}

/// An unlinked compute main part.
pub struct MainPart {
    /// Generation and wave size (the generation's default unless a test changes it).
    pub target: Target,
    /// What the compile assumed each user SGPR holds.
    pub assumed: Vec<UserSgpr>,
    pub tgid_en: [bool; 3],
    pub workgroup: [u32; 3],
    pub sgprs: u32,
    pub vgprs: u32,
}

impl MainPart {
    pub fn new(gen: Gen, assumed: Vec<UserSgpr>) -> MainPart {
        MainPart {
            target: Target::new(gen),
            assumed,
            tgid_en: [true, false, false],
            workgroup: [64, 1, 1],
            sgprs: 16,
            vgprs: 4,
        }
    }

    /// The unlinked code object for `lines` (padded with s_code_end like the backend does).
    pub fn object(&self, lines: &[(&str, Option<&str>)]) -> CodeObject {
        let (mut text, relocs) = assemble(self.target, lines);
        let size = text.len() as u64;
        binary_support::pad_with_code_end(&mut text, self.target.gen);
        let mut info = ComputeShaderInfo::new(self.target);
        info.vgprs = self.vgprs;
        info.sgprs = self.sgprs;
        info.tgid_en = self.tgid_en;
        info.workgroup_size = self.workgroup;
        // The unlinked compile's own guess at the PAL mapping: entry i in user SGPR i.
        info.user_data = (0..self.assumed.len() as u32)
            .map(UserData::Entry)
            .collect();
        let mut obj = CodeObject::compute(&info, text, size, relocs).expect("code object");
        let mut pl = PreLinkMetadata::new(HwStage::Cs);
        pl.user_sgprs = self.assumed.clone();
        pl.missing_state = vec!["descriptor_layout".into(), "user_data_layout".into()];
        obj.metadata.as_map_mut().unwrap().insert(
            gcnc::binary::msgpack::Key::str("gcnc.prelink"),
            pl.to_value(),
        );
        obj
    }

    pub fn elf(&self, lines: &[(&str, Option<&str>)]) -> Vec<u8> {
        self.object(lines).write().expect("write")
    }
}

/// The end of a compute program on `t` (GFX11: dealloc VGPRs first, as llc does).
pub fn endpgm(t: Gen) -> Vec<(&'static str, Option<&'static str>)> {
    match t {
        Gen::Gfx11 => vec![
            ("s_nop 0", None),
            ("s_sendmsg sendmsg(MSG_DEALLOC_VGPRS)", None),
            ("s_endpgm", None),
        ],
        _ => vec![("s_endpgm", None)],
    }
}

pub fn link(elfs: &[&[u8]], state: &PipelineState) -> gcnc::link::Result<Linked> {
    gcnc::link::link(elfs, state, &PartCache::new())
}

pub fn state(json: &str) -> PipelineState {
    PipelineState::from_json(json).unwrap_or_else(|e| panic!("{e}"))
}

/// llvm-objdump-19 -d of an ELF: instruction lines as (offset, text), comments stripped.
pub fn objdump(elf: &[u8], name: &str) -> Option<Vec<(u64, String)>> {
    let tool = oracle("llvm-objdump-19")?;
    let path = temp_path(name);
    std::fs::write(&path, elf).unwrap();
    let out = run(&tool, &["-d", path.to_str().unwrap()]);
    let mut insts = Vec::new();
    for l in out.lines() {
        // "  s_mov_b32 s2, s0     // 000000000100: BE820000"
        let Some((text, rest)) = l.split_once("//") else {
            continue;
        };
        let Some((off, _)) = rest.trim().split_once(':') else {
            continue;
        };
        let Ok(off) = u64::from_str_radix(off.trim(), 16) else {
            continue;
        };
        insts.push((off, text.trim().to_string()));
    }
    assert!(
        !out.contains("<unknown>"),
        "objdump found undecodable words:\n{out}"
    );
    Some(insts)
}
