//! Our PAL-ABI ELFs as LLVM 19's tools see them, and LLVM-written ELFs as our reader sees
//! them. Every test needs an oracle; see `support::oracle` for the skip/fail rule.

mod binary_support;

use binary_support::*;
use gcnc::binary::elf::{SHT_NOTE, SHT_REL};
use gcnc::binary::metadata::PalMetadata;
use gcnc::binary::msgpack::{self, Key, Value};
use gcnc::binary::registers::Rsrc1;
use gcnc::binary::{ElfFile, RelocKind};
use gcnc::isa::{Gen, Target, Wave};
use std::collections::BTreeMap;
use std::path::PathBuf;

fn write_sample(t: Target) -> (PathBuf, Vec<u8>) {
    let bytes = sample_object(t).write().unwrap();
    let path = temp_path(&format!("sample_{}_w{}.o", t.gen, t.wave.lanes()));
    std::fs::write(&path, &bytes).unwrap();
    (path, bytes)
}

/// Tokens of the `llvm-readelf -S` line of section `name`, with the flag column made
/// explicit: [type, addr, off, size, es, flags, lk, inf, al].
fn section_row(out: &str, name: &str) -> Vec<String> {
    let line = out
        .lines()
        .find(|l| l.split_whitespace().nth(2) == Some(name) && l.trim_start().starts_with('['))
        .unwrap_or_else(|| panic!("no section {name} in:\n{out}"));
    let t: Vec<String> = line.split_whitespace().skip(3).map(String::from).collect();
    match t.len() {
        9 => t,
        8 => {
            let mut t = t;
            t.insert(5, String::new());
            t
        }
        _ => panic!("unexpected section row {line:?}"),
    }
}

/// `(value, size, type, bind, ndx)` of a symbol in `llvm-readelf -s` output.
fn symbol_row(out: &str, name: &str) -> (u64, u64, String, String, String) {
    let line = out
        .lines()
        .find(|l| l.split_whitespace().last() == Some(name) && l.contains(':'))
        .unwrap_or_else(|| panic!("no symbol {name} in:\n{out}"));
    let t: Vec<&str> = line.split_whitespace().collect();
    (
        u64::from_str_radix(t[1], 16).unwrap(),
        t[2].parse().unwrap(),
        t[3].into(),
        t[4].into(),
        t[6].into(),
    )
}

/// `(offset, type, symbol)` of every relocation in `llvm-readelf -r` output.
fn relocation_rows(out: &str) -> Vec<(u64, String, String)> {
    out.lines()
        .filter(|l| l.contains("R_AMDGPU_"))
        .map(|l| {
            let t: Vec<&str> = l.split_whitespace().collect();
            (
                u64::from_str_radix(t[0], 16).unwrap(),
                t[2].to_string(),
                t[4].to_string(),
            )
        })
        .collect()
}

/// The `.registers` block of the metadata YAML that `llvm-readelf --notes` prints.
fn yaml_registers(out: &str) -> BTreeMap<u32, u32> {
    let mut regs = BTreeMap::new();
    let mut inside = false;
    for line in out.lines() {
        if line.trim() == ".registers:" {
            inside = true;
            continue;
        }
        if inside {
            let indent = line.len() - line.trim_start().len();
            if indent <= 4 {
                break;
            }
            let (k, v) = line.trim().split_once(':').unwrap();
            regs.insert(k.trim().parse().unwrap(), v.trim().parse().unwrap());
        }
    }
    regs
}

/// The scalar after `key:` on the first line that starts with it.
fn yaml_scalar(out: &str, key: &str) -> String {
    out.lines()
        .map(|l| l.trim().trim_start_matches("- "))
        .find_map(|l| l.strip_prefix(&format!("{key}:")))
        .unwrap_or_else(|| panic!("no {key} in:\n{out}"))
        .trim()
        .to_string()
}

/// The list items under `key:`.
fn yaml_list(out: &str, key: &str) -> Vec<String> {
    let mut lines = out.lines().skip_while(|l| l.trim() != format!("{key}:"));
    lines
        .next()
        .unwrap_or_else(|| panic!("no {key} in:\n{out}"));
    lines
        .map(str::trim)
        .map_while(|l| l.strip_prefix("- "))
        .map(String::from)
        .collect()
}

#[test]
fn readelf_sees_header_sections_symbols_relocations_and_metadata() {
    let Some(readelf) = oracle("llvm-readelf-19") else {
        return;
    };
    for tw in configurations() {
        let (target, wave) = (tw.gen, tw.wave);
        let (path, bytes) = write_sample(tw);
        let out = run(
            &readelf,
            &["-h", "-S", "-s", "-r", "--notes", path.to_str().unwrap()],
        );
        let ctx = format!("{target} wave{}", wave.lanes());

        // Header (pal-abi.md §1.1, §1.2).
        assert_eq!(yaml_scalar(&out, "OS/ABI"), "AMDGPU - PAL", "{ctx}");
        assert_eq!(yaml_scalar(&out, "ABI Version"), "0", "{ctx}");
        assert!(yaml_scalar(&out, "Type").starts_with("REL"), "{ctx}");
        assert_eq!(yaml_scalar(&out, "Machine"), "EM_AMDGPU", "{ctx}");
        let flags = yaml_scalar(&out, "Flags");
        let expected_flags = match target {
            Gen::Gfx9 => "0x12C, gfx900, xnack",
            Gen::Gfx10 => "0x36, gfx1030",
            Gen::Gfx11 => "0x41, gfx1100",
        };
        assert_eq!(flags, expected_flags, "{ctx}");
        assert_eq!(yaml_scalar(&out, "Section header string table index"), "1");

        // Sections (§1.3): .text AX align 256 at a 256-aligned offset; .rel.text REL with
        // 16-byte entries, SHF_INFO_LINK, linked to .symtab (5) and .text (2); .note unflagged.
        let text = section_row(&out, ".text");
        assert_eq!(
            (text[0].as_str(), text[5].as_str(), text[8].as_str()),
            ("PROGBITS", "AX", "256")
        );
        assert_eq!(u64::from_str_radix(&text[2], 16).unwrap() % 256, 0);
        assert_eq!(
            u64::from_str_radix(&text[3], 16).unwrap(),
            sample_text(target).len() as u64
        );
        let rel = section_row(&out, ".rel.text");
        assert_eq!(rel[0], "REL");
        assert_eq!((rel[4].as_str(), rel[5].as_str()), ("10", "I"));
        assert_eq!(
            (rel[6].as_str(), rel[7].as_str(), rel[8].as_str()),
            ("5", "2", "8")
        );
        let note = section_row(&out, ".note");
        assert_eq!(
            (note[0].as_str(), note[5].as_str(), note[8].as_str()),
            ("NOTE", "", "4")
        );
        let strtab = section_row(&out, ".strtab");
        assert_eq!(strtab[0], "STRTAB");
        assert!(
            !out.contains(".shstrtab"),
            "one string table, as llc writes"
        );

        // Symbols (§1.4): entry size excludes the s_code_end padding.
        assert_eq!(
            symbol_row(&out, "_amdgpu_cs_main"),
            (0, MAIN_SIZE, "FUNC".into(), "GLOBAL".into(), "2".into())
        );
        assert_eq!(
            symbol_row(&out, "_gcnc_cs_epilog"),
            (
                EPILOG_OFFSET,
                EPILOG_SIZE,
                "FUNC".into(),
                "GLOBAL".into(),
                "2".into()
            )
        );
        assert_eq!(
            symbol_row(&out, "_gcnc_reloc_table"),
            (0, 0, "NOTYPE".into(), "GLOBAL".into(), "UND".into())
        );

        // Relocations (§5), sorted by offset.
        assert_eq!(
            relocation_rows(&out),
            vec![
                (4, "R_AMDGPU_ABS32_LO".into(), "_gcnc_reloc_table".into()),
                (0xc, "R_AMDGPU_ABS32_HI".into(), "_gcnc_reloc_table".into()),
                (0x14, "R_AMDGPU_REL16".into(), "_gcnc_cs_epilog".into()),
            ],
            "{ctx}"
        );
        // REL implicit addends live in the fields: 16 for ABS32_HI, 0 for REL16 (PAL's
        // zero-extended reading; not LLVM's 0xFFFF).
        let t = 0x100usize;
        assert_eq!(bytes[t + 0xc..t + 0x10], 16u32.to_le_bytes());
        assert_eq!(bytes[t + 0x14..t + 0x16], [0, 0]);

        // Notes (§1.5) and the decoded metadata.
        assert!(out.contains("NT_AMD_HSA_ISA_NAME"), "{ctx}");
        assert!(
            out.contains(&format!("amdgcn-unknown-amdpal--{target}")),
            "{ctx}"
        );
        assert!(
            out.contains("NT_AMDGPU_METADATA (AMDGPU Metadata)"),
            "{ctx}"
        );
        let info = pal2_info(tw);
        assert_eq!(yaml_registers(&out), info.registers().unwrap(), "{ctx}");
        assert_eq!(yaml_scalar(&out, ".entry_point"), "_amdgpu_cs_main");
        assert_eq!(
            yaml_scalar(&out, ".wavefront_size"),
            wave.lanes().to_string()
        );
        assert_eq!(yaml_scalar(&out, ".sgpr_count"), "12");
        assert_eq!(yaml_scalar(&out, ".vgpr_count"), "2");
        assert_eq!(yaml_scalar(&out, ".lds_size"), "0");
        assert_eq!(yaml_scalar(&out, ".scratch_memory_size"), "0");
        assert_eq!(yaml_list(&out, ".threadgroup_dimensions"), ["8", "8", "1"]);
        assert_eq!(yaml_list(&out, ".hardware_mapping"), [".cs"]);
        assert_eq!(yaml_list(&out, "amdpal.version"), ["2", "6"]);
        assert_eq!(yaml_scalar(&out, ".type"), "Cs");
        assert_eq!(yaml_scalar(&out, ".api"), "Vulkan");
        assert_eq!(yaml_scalar(&out, ".user_data_limit"), "5");
        assert_eq!(yaml_scalar(&out, ".spill_threshold"), "65535");
    }
}

#[test]
fn objdump_disassembles_all_of_text_with_relocations() {
    let Some(objdump) = oracle("llvm-objdump-19") else {
        return;
    };
    for tw in configurations() {
        let (target, wave) = (tw.gen, tw.wave);
        let (path, _) = write_sample(tw);
        let out = run(&objdump, &["-dr", path.to_str().unwrap()]);
        let ctx = format!("{target} wave{}", wave.lanes());
        assert!(
            !out.contains("<unknown>") && !out.contains(".long"),
            "{ctx}:\n{out}"
        );
        // Every instruction line ends in "// ADDR: WORD [WORD...]"; they must tile .text.
        let mut next = 0u64;
        for line in out.lines().filter(|l| l.contains("// ")) {
            let (_, enc) = line.rsplit_once("// ").unwrap();
            let (addr, words) = enc.split_once(':').unwrap();
            let addr = u64::from_str_radix(addr.trim(), 16).unwrap();
            let words = words
                .split_whitespace()
                .take_while(|w| w.len() == 8)
                .count();
            assert_eq!(addr, next, "{ctx}: gap or overlap at {addr:#x}");
            next += 4 * words as u64;
        }
        let text_len = sample_text(target).len() as u64;
        assert_eq!(next, text_len, "{ctx}: disassembly covers all of .text");
        let code_end = out.lines().filter(|l| l.contains("s_code_end")).count() as u64;
        assert_eq!(code_end, (text_len - 0x20) / 4, "{ctx}: padding words");
        assert!(out.contains("<_amdgpu_cs_main>:") && out.contains("<_gcnc_cs_epilog>:"));
        assert!(
            out.contains("R_AMDGPU_ABS32_LO\t_gcnc_reloc_table"),
            "{ctx}"
        );
        assert!(
            out.contains("R_AMDGPU_ABS32_HI\t_gcnc_reloc_table"),
            "{ctx}"
        );
        assert!(out.contains("R_AMDGPU_REL16\t_gcnc_cs_epilog"), "{ctx}");
        assert!(
            out.contains("s_mov_b32 s3, 16"),
            "{ctx}: implicit addend in the literal"
        );
        assert!(out.contains("s_branch"), "{ctx}");
        assert!(out.contains("s_endpgm"), "{ctx}");
    }
}

/// JSON (a YAML subset) for `.amdgpu_pal_metadata`, so llvm-mc re-encodes our tree.
fn to_json(v: &Value) -> String {
    match v {
        Value::Nil => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::UInt(u) => u.to_string(),
        Value::Int(i) => i.to_string(),
        Value::Float(f) => format!("{f:?}"),
        Value::Str(s) => format!("\"{s}\""),
        Value::Bin(_) => panic!("no binary in PAL metadata"),
        Value::Array(a) => format!("[{}]", a.iter().map(to_json).collect::<Vec<_>>().join(", ")),
        Value::Map(m) => format!(
            "{{{}}}",
            m.iter()
                .map(|(k, v)| match k {
                    Key::UInt(u) => format!("{u}: {}", to_json(v)),
                    Key::Str(s) => format!("\"{s}\": {}", to_json(v)),
                })
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

#[test]
fn llvm_mc_encodes_our_metadata_tree_to_the_same_msgpack_bytes() {
    let Some(mc) = oracle("llvm-mc-19") else {
        return;
    };
    for tw in configurations() {
        let (target, wave) = (tw.gen, tw.wave);
        let mut info = pal2_info(tw);
        // Exercise wider integers too: a 64-bit hash, a 32-bit register value.
        info.pipeline_hash = [u64::MAX, 0x1_0000_0000];
        info.lds_bytes = 40000;
        info.scratch_bytes_per_lane = 272;
        let md = info.to_metadata().unwrap();
        let ours = md.to_msgpack().unwrap();
        let src = format!(
            ".text\ns_endpgm\n.amdgpu_pal_metadata\n{}\n.end_amdgpu_pal_metadata\n",
            to_json(&md.to_value())
        );
        let s_path = temp_path(&format!("mc_md_{target}_{}.s", wave.lanes()));
        let o_path = s_path.with_extension("o");
        std::fs::write(&s_path, src).unwrap();
        run(
            &mc,
            &[
                "-triple=amdgcn--amdpal",
                &format!("-mcpu={target}"),
                "-filetype=obj",
                s_path.to_str().unwrap(),
                "-o",
                o_path.to_str().unwrap(),
            ],
        );
        let elf = ElfFile::parse(&std::fs::read(&o_path).unwrap()).unwrap();
        let note = elf
            .notes
            .iter()
            .find(|n| n.owner == "AMDGPU" && n.ty == 32)
            .expect("llvm-mc wrote the metadata note");
        assert_eq!(note.desc, ours, "{target}: LLVM's msgpack bytes equal ours");
        assert_eq!(PalMetadata::from_msgpack(&note.desc).unwrap(), md);
    }
}

#[test]
fn reader_reads_llvm_mc_relocations_including_the_rel16_addend_quirk() {
    let Some(mc) = oracle("llvm-mc-19") else {
        return;
    };
    let src = "\
.text
.globl _amdgpu_cs_main
.p2align 8
_amdgpu_cs_main:
  s_mov_b32 s2, ext_table@abs32@lo
  s_mov_b32 s3, ext_table@abs32@hi
  .reloc ., R_AMDGPU_REL16, ext_epilog
  s_branch 0
  s_branch other_part
  s_endpgm
.section .text.other,\"ax\",@progbits
other_part:
  s_endpgm
";
    let s_path = temp_path("mc_relocs.s");
    let o_path = s_path.with_extension("o");
    std::fs::write(&s_path, src).unwrap();
    run(
        &mc,
        &[
            "-triple=amdgcn--amdpal",
            "-mcpu=gfx1030",
            "-filetype=obj",
            s_path.to_str().unwrap(),
            "-o",
            o_path.to_str().unwrap(),
        ],
    );
    let elf = ElfFile::parse(&std::fs::read(&o_path).unwrap()).unwrap();
    assert_eq!(elf.gen(), Some(Gen::Gfx10));
    let got: Vec<(u64, RelocKind, &str, i64)> = elf
        .relocations
        .iter()
        .map(|r| (r.offset, r.kind, r.symbol_name.as_str(), r.addend))
        .collect();
    // LLVM writes 0xFFFF into a REL16 field it resolves against another section; PAL
    // reads that as A = 65535 (pal-abi.md §5.3), and so does our reader. `.reloc` gives 0.
    // The branch to a local label goes through the section symbol, named for its section.
    assert_eq!(
        got,
        vec![
            (4, RelocKind::Abs32Lo, "ext_table", 0),
            (0xc, RelocKind::Abs32Hi, "ext_table", 0),
            (0x10, RelocKind::Rel16, "ext_epilog", 0),
            (0x14, RelocKind::Rel16, ".text.other", 0xFFFF),
        ]
    );
    assert!(elf.relocations.iter().all(|r| !r.explicit_addend));
    assert!(elf
        .sections
        .iter()
        .any(|s| s.sh_type == SHT_REL && s.name == ".rel.text"));
}

#[test]
fn reader_reads_llc_compute_objects() {
    let Some(llc) = oracle("llc-19") else {
        return;
    };
    let Some(readelf) = oracle("llvm-readelf-19") else {
        return;
    };
    // A compute shader of our own: user SGPRs a, buf[4]; local id in v0; one relocated
    // constant (llvm.amdgcn.reloc.constant -> R_AMDGPU_ABS32_LO).
    let ir = r#"
declare void @llvm.amdgcn.raw.buffer.store.i32(i32, <4 x i32>, i32, i32, i32)
declare i32 @llvm.amdgcn.reloc.constant(metadata)
define dllexport amdgpu_cs void @_amdgpu_cs_main(i32 inreg %a, <4 x i32> inreg %buf, i32 %tid) {
  %r = call i32 @llvm.amdgcn.reloc.constant(metadata !0)
  %s = add i32 %tid, %a
  %v = add i32 %s, %r
  %off = shl i32 %tid, 2
  call void @llvm.amdgcn.raw.buffer.store.i32(i32 %v, <4 x i32> %buf, i32 %off, i32 0, i32 0)
  ret void
}
!0 = !{!"gcnc_test_reloc"}
"#;
    let ll = temp_path("llc_cs.ll");
    std::fs::write(&ll, ir).unwrap();
    for target in Gen::ALL {
        let obj = temp_path(&format!("llc_cs_{target}.o"));
        run(
            &llc,
            &[
                "-mtriple=amdgcn--amdpal",
                &format!("-mcpu={target}"),
                "-filetype=obj",
                ll.to_str().unwrap(),
                "-o",
                obj.to_str().unwrap(),
            ],
        );
        let bytes = std::fs::read(&obj).unwrap();
        let elf = ElfFile::parse(&bytes).unwrap();
        let dump = run(&readelf, &["-s", "-r", obj.to_str().unwrap()]);
        assert_eq!(elf.gen(), Some(target));
        assert_eq!(elf.isa_name(), Some(target.isa_name()));
        let main = elf.symbol("_amdgpu_cs_main").unwrap();
        let (_, size, ..) = symbol_row(&dump, "_amdgpu_cs_main");
        assert_eq!(main.size, size, "{target}");
        let rows = relocation_rows(&dump);
        assert_eq!(rows.len(), 1);
        assert_eq!(elf.relocations.len(), 1);
        assert_eq!(elf.relocations[0].offset, rows[0].0);
        assert_eq!(elf.relocations[0].kind, RelocKind::Abs32Lo);
        assert_eq!(elf.relocations[0].symbol_name, "gcnc_test_reloc");
        assert!(elf.sections.iter().any(|s| s.sh_type == SHT_NOTE));
        // The typed model reads llc's metadata; RSRC1's VGPR allocation covers .vgpr_count.
        let md = elf.pal_metadata().unwrap().unwrap();
        assert_eq!(
            md.version, None,
            "llc writes no version without frontend metadata"
        );
        let cs = &md.pipeline.hardware_stages[&gcnc::binary::HwStage::Cs];
        assert_eq!(cs.entry_point, "_amdgpu_cs_main");
        let wave = if target.is_gfx10_plus() {
            Wave::W32
        } else {
            Wave::W64
        };
        let rsrc1 = Rsrc1::unpack(md.pipeline.registers[&0x2e12], target_of(target, wave));
        assert!(
            rsrc1.vgprs >= cs.vgpr_count && cs.vgpr_count > 0,
            "{target}"
        );
        assert_eq!(rsrc1.float_mode.0, 0xf0);
        // Re-encoding llc's tree gives llc's bytes (LLVM also writes minimal, sorted msgpack).
        let note = elf.notes.iter().find(|n| n.ty == 32).unwrap();
        assert_eq!(
            msgpack::encode(elf.metadata.as_ref().unwrap()).unwrap(),
            note.desc
        );
    }
}

#[test]
fn readelf_shows_several_entry_points_and_the_prelink_section() {
    use gcnc::binary::metadata::{HardwareStage, HwStage};
    use gcnc::binary::prelink::{PreLinkMetadata, UserSgpr};
    use gcnc::binary::{CodeObject, FuncSymbol};
    let Some(readelf) = oracle("llvm-readelf-19") else {
        return;
    };
    let Some(objdump) = oracle("llvm-objdump-19") else {
        return;
    };
    // A VS at 0 and a PS at 0x100 on gfx1030, each `s_endpgm`, the gap and the tail filled
    // with s_code_end.
    let target = Gen::Gfx10;
    let mut text = Vec::new();
    for _ in 0..2 {
        text.extend_from_slice(&0xBF81_0000u32.to_le_bytes());
        while text.len() % 256 != 0 {
            text.extend_from_slice(&0xBF9F_0000u32.to_le_bytes());
        }
    }
    let mut md = pal2_info(target_of(target, Wave::W32))
        .to_metadata()
        .unwrap();
    md.pipeline.pipeline_type = "VsPs".into();
    md.pipeline.registers.clear();
    md.pipeline.hardware_stages.clear();
    for stage in [HwStage::Vs, HwStage::Ps] {
        md.pipeline.hardware_stages.insert(
            stage,
            HardwareStage {
                entry_point: stage.entry_symbol(),
                scratch_memory_size: 0,
                lds_size: 0,
                sgpr_count: 4,
                vgpr_count: 4,
                wavefront_size: Some(Wave::W64),
                threadgroup_dimensions: None,
                extra: Default::default(),
            },
        );
    }
    let mut pl = PreLinkMetadata::new(HwStage::Ps);
    pl.user_sgprs = vec![UserSgpr::GlobalTable, UserSgpr::DescriptorSet(1)];
    pl.missing_state = vec!["color_export_formats".into()];
    md.prelink = Some(pl);
    let obj = CodeObject {
        gen: target,
        text,
        functions: vec![
            FuncSymbol {
                name: "_amdgpu_vs_main".into(),
                offset: 0,
                size: 4,
            },
            FuncSymbol {
                name: "_amdgpu_ps_main".into(),
                offset: 0x100,
                size: 4,
            },
        ],
        relocations: vec![],
        metadata: md.to_value(),
    };
    let path = temp_path("vs_ps.o");
    std::fs::write(&path, obj.write().unwrap()).unwrap();
    let out = run(
        &readelf,
        &["-S", "-s", "-r", "--notes", path.to_str().unwrap()],
    );
    assert_eq!(
        symbol_row(&out, "_amdgpu_vs_main"),
        (0, 4, "FUNC".into(), "GLOBAL".into(), "2".into())
    );
    assert_eq!(
        symbol_row(&out, "_amdgpu_ps_main"),
        (0x100, 4, "FUNC".into(), "GLOBAL".into(), "2".into())
    );
    assert!(out.contains("There are no relocations in this file."));
    assert!(
        !out.contains(".rel.text"),
        "no relocation section without relocations"
    );
    assert!(out.contains("gcnc.prelink:"));
    assert_eq!(yaml_scalar(&out, ".stage"), ".ps");
    assert_eq!(yaml_scalar(&out, ".index"), "0");
    assert!(out.contains("descriptor_set") && out.contains("color_export_formats"));
    let dis = run(&objdump, &["-d", path.to_str().unwrap()]);
    assert!(dis.contains("<_amdgpu_vs_main>:") && dis.contains("<_amdgpu_ps_main>:"));
    assert!(!dis.contains("<unknown>"));
}
