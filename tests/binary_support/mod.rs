//! Shared by the `binary_*` tests: the sample code objects. The oracle lookup (fail vs
//! skip when an LLVM tool is missing) and the tool/temp helpers come from `tests/support`.
#![allow(dead_code)]

#[path = "../support/mod.rs"]
pub mod support;

#[allow(unused_imports)]
pub use support::{oracle, run, temp_path};

use gcnc::binary::registers::UserData;
use gcnc::binary::ComputeShaderInfo;
use gcnc::binary::{CodeObject, FuncSymbol, RelocKind, Relocation};
use gcnc::isa::{Gen, Target, Wave};

fn words(ws: &[u32]) -> Vec<u8> {
    ws.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// s_code_end padding the way llc emits it (pal-abi.md §6): none on GFX9; on GFX10 align to
/// 64 bytes then 48 more words; on GFX11 align to 128 bytes then 96 more words.
pub fn pad_with_code_end(text: &mut Vec<u8>, gen: Gen) {
    let (line, extra) = match gen {
        Gen::Gfx9 => return,
        Gen::Gfx10 => (64, 48),
        Gen::Gfx11 => (128, 96),
    };
    while !text.len().is_multiple_of(line) {
        text.extend_from_slice(&0xBF9F_0000u32.to_le_bytes());
    }
    for _ in 0..extra {
        text.extend_from_slice(&0xBF9F_0000u32.to_le_bytes());
    }
}

/// Main part length in bytes (through its s_branch), and the epilog part's offset/length.
pub const MAIN_SIZE: u64 = 0x18;
pub const EPILOG_OFFSET: u64 = 0x18;
pub const EPILOG_SIZE: u64 = 8;

/// The sample code, encodings checked with llvm-mc-19:
/// ```text
/// 0x00 s_mov_b32 s2, ext@abs32@lo        ; literal at 0x04: R_AMDGPU_ABS32_LO ext
/// 0x08 s_mov_b32 s3, ext@abs32@hi + 16   ; literal at 0x0c: R_AMDGPU_ABS32_HI ext, A=16
/// 0x10 v_mov_b32 v0, 1.0
/// 0x14 s_branch _gcnc_cs_epilog          ; R_AMDGPU_REL16, simm16 = 0 (PAL's REL reading)
/// 0x18 _gcnc_cs_epilog: s_nop 0
/// 0x1c s_endpgm
/// ```
/// then s_code_end padding.
pub fn sample_text(gen: Gen) -> Vec<u8> {
    let (smov, sbranch, endpgm) = match gen {
        Gen::Gfx9 => (0xBE80_00FF, 0xBF82_0000, 0xBF81_0000),
        Gen::Gfx10 => (0xBE80_03FF, 0xBF82_0000, 0xBF81_0000),
        Gen::Gfx11 => (0xBE80_00FF, 0xBFA0_0000, 0xBFB0_0000),
    };
    let mut text = words(&[
        smov | 2 << 16,
        0,
        smov | 3 << 16,
        0,
        0x7E00_02F2,
        sbranch,
        0xBF80_0000,
        endpgm,
    ]);
    pad_with_code_end(&mut text, gen);
    text
}

/// The relocations of [`sample_text`], in a scrambled order (the writer sorts them).
pub fn sample_relocations() -> Vec<Relocation> {
    vec![
        Relocation {
            offset: 0x14,
            kind: RelocKind::Rel16,
            symbol: "_gcnc_cs_epilog".into(),
            addend: 0,
        },
        Relocation {
            offset: 0x04,
            kind: RelocKind::Abs32Lo,
            symbol: "_gcnc_reloc_table".into(),
            addend: 0,
        },
        Relocation {
            offset: 0x0c,
            kind: RelocKind::Abs32Hi,
            symbol: "_gcnc_reloc_table".into(),
            addend: 16,
        },
    ]
}

/// The inputs of the llc sample `cs_pal2` (pal-abi.md §2.6 / pal-samples/cs_pal2.txt):
/// user SGPRs = [global table, entries 0..4], TGID X and Y, an 8x8x1 workgroup, 2 VGPRs and
/// 12 SGPRs. TIDIG_COMP_CNT stays 0 because the sample's RSRC2 (0x18c) has it 0.
pub fn pal2_info(target: Target) -> ComputeShaderInfo {
    let mut info = ComputeShaderInfo::new(target);
    info.vgprs = 2;
    info.sgprs = 12;
    info.user_data = vec![
        UserData::GlobalTable,
        UserData::Entry(0),
        UserData::Entry(1),
        UserData::Entry(2),
        UserData::Entry(3),
        UserData::Entry(4),
    ];
    info.tgid_en = [true, true, false];
    info.workgroup_size = [8, 8, 1];
    info.code_bytes = MAIN_SIZE;
    info.api_shader_hash = [0xabcdef, 0];
    info.pipeline_hash = [0x1111_2222_3333_4444, 0x5555_6666_7777_8888];
    info
}

/// A complete compute code object for `target`.
pub fn sample_object(target: Target) -> CodeObject {
    let md = pal2_info(target).to_metadata().unwrap();
    CodeObject {
        gen: target.gen,
        text: sample_text(target.gen),
        functions: vec![
            FuncSymbol {
                name: "_amdgpu_cs_main".into(),
                offset: 0,
                size: MAIN_SIZE,
            },
            FuncSymbol {
                name: "_gcnc_cs_epilog".into(),
                offset: EPILOG_OFFSET,
                size: EPILOG_SIZE,
            },
        ],
        relocations: sample_relocations(),
        metadata: md.to_value(),
    }
}

/// `gen` with wave size `wave`, unchecked (tests of the packers' checks build wave32 on
/// GFX9 with it).
pub fn target_of(gen: Gen, wave: Wave) -> Target {
    Target { gen, wave }
}

/// Every (generation, wave size) pair we support.
pub fn configurations() -> Vec<Target> {
    vec![
        target_of(Gen::Gfx9, Wave::W64),
        target_of(Gen::Gfx10, Wave::W32),
        target_of(Gen::Gfx10, Wave::W64),
        target_of(Gen::Gfx11, Wave::W32),
        target_of(Gen::Gfx11, Wave::W64),
    ]
}
