//! The link stage on hand-built unlinked compute shaders, for gfx900, gfx1030 and gfx1100:
//! a CS prolog is generated when the final user-data layout differs from the assumed one,
//! falls through into the main part (no branch between them), sits behind s_nop padding so
//! the main part stays 256-byte aligned, relocations carry the state's values, and the
//! merged metadata is what llvm-readelf-19 shows. llvm-objdump-19 must decode every word.

mod link_support;

use gcnc::binary::prelink::UserSgpr;
use gcnc::binary::{ElfFile, HwStage, PalMetadata, UserData};
use link_support::*;

/// Main part: reads dword `desc offset` of descriptor set 0, adds push constant 0, the
/// workgroup id x and spec constant 0, leaves the sum in s7.
pub fn main_lines(t: Gen) -> Vec<(&'static str, Option<&'static str>)> {
    let load = if t == Gen::Gfx11 {
        "s_load_b32 s6, s[4:5], 0x0"
    } else {
        "s_load_dword s6, s[4:5], 0x0"
    };
    let mut v = vec![
        ("s_getpc_b64 s[4:5]", None),
        (
            "s_add_u32 s4, s0, 0x5eed0000",
            Some("gcnc.desc.0.0.buffer.offset"),
        ),
        ("s_addc_u32 s5, s5, 0", None),
        (load, None),
        ("s_waitcnt lgkmcnt(0)", None),
        ("s_add_u32 s7, s6, s1", None),
        ("s_add_u32 s7, s7, s2", None),
        ("s_add_u32 s7, s7, 0x5eed0000", Some("gcnc.spec.0")),
    ];
    v.extend(endpgm(t));
    v
}

pub const STATE: &str = r#"{
  "descriptor_layout": [{"set": 0, "binding": 0, "kind": "buffer", "offset": 48, "stride": 16}],
  "user_data": {
    "sgprs": [{"item": {"push_constant": 1}, "entry": 0},
              {"item": {"push_constant": 0}, "entry": 1},
              {"item": "descriptor_table", "entry": 2}],
    "table": [{"descriptor_set": 1}, {"descriptor_set": 0}]
  },
  "spec_constants": {"0": 5}
}"#;

fn main_part(t: Gen) -> MainPart {
    MainPart::new(
        t,
        vec![UserSgpr::DescriptorSet(0), UserSgpr::PushConstant(0)],
    )
}

#[test]
fn prolog_falls_through_into_an_aligned_main_part() {
    for t in Gen::ALL {
        let mp = main_part(t);
        let lines = main_lines(t);
        let unlinked = mp.object(&lines);
        let linked = link(&[&mp.elf(&lines)], &state(STATE)).unwrap();

        // Layout: [s_branch + s_nop padding][prolog][main at 256].
        assert_eq!(linked.placed.len(), 2, "{t}");
        let (prolog, main) = (&linked.placed[0], &linked.placed[1]);
        assert!(prolog.symbol.starts_with("gcnc.part.cs_prolog."), "{t}");
        assert!(
            prolog.fell_through,
            "{t}: the prolog's s_branch must be removed"
        );
        assert_eq!(main.offset, 256, "{t}: main part 256-byte aligned");
        assert_eq!(prolog.offset + prolog.size, main.offset, "{t}: adjacent");
        assert_eq!(prolog.padding_before, 256 - prolog.size, "{t}");
        let f = |n: &str| {
            linked
                .object
                .functions
                .iter()
                .find(|f| f.name == n)
                .unwrap()
                .clone()
        };
        let entry = f("_amdgpu_cs_main");
        assert_eq!(entry.offset, 0, "{t}");
        assert_eq!(entry.size, 256 + unlinked.functions[0].size, "{t}");

        // Relocations resolved to the state's values, none left.
        let read = gcnc::binary::ElfFile::parse(&linked.elf).unwrap();
        assert!(read.relocations.is_empty(), "{t}: relocations left");
        for r in &unlinked.relocations {
            let at = (main.offset + r.offset) as usize;
            let v = u32::from_le_bytes(linked.object.text[at..at + 4].try_into().unwrap());
            let want = if r.symbol == "gcnc.spec.0" { 5 } else { 48 };
            assert_eq!(v, want, "{t}: {}", r.symbol);
        }

        let Some(insts) = objdump(&linked.elf, &format!("prolog_{t}.elf")) else {
            continue;
        };
        let at = |off: u64| -> &str {
            &insts
                .iter()
                .find(|(o, _)| *o == off)
                .unwrap_or_else(|| panic!("{t}: {off:#x}"))
                .1
        };
        // Padding: a branch over it, then s_nop.
        assert_eq!(
            at(0),
            format!("s_branch {}", (prolog.padding_before / 4) - 1),
            "{t}"
        );
        assert_eq!(at(4), "s_nop 0", "{t}");
        // The prolog: table address, the system SGPR move, the table load, the wait.
        let load = if t == Gen::Gfx11 {
            "s_load_b32"
        } else {
            "s_load_dword"
        };
        let p = prolog.offset;
        let got: Vec<&str> = (0..5).map(|i| at(p + [0, 4, 8, 12, 20][i])).collect();
        assert_eq!(
            got,
            [
                "s_getpc_b64 s[4:5]",
                "s_mov_b32 s4, s2",
                "s_mov_b32 s2, s3",
                &format!("{load} s0, s[4:5], 0x4"),
                "s_waitcnt lgkmcnt(0)",
            ],
            "{t}"
        );
        // Fall-through: the instruction before the main part is the wait, not a branch.
        let before: Vec<_> = insts.iter().filter(|(o, _)| *o < 256).collect();
        assert_eq!(before.last().unwrap().1, "s_waitcnt lgkmcnt(0)", "{t}");
        assert_eq!(at(256), "s_getpc_b64 s[4:5]", "{t}");
        // No s_branch anywhere after the padding.
        assert!(
            !insts
                .iter()
                .any(|(o, s)| *o > 0 && s.starts_with("s_branch")),
            "{t}: {insts:?}"
        );
    }
}

#[test]
fn metadata_is_merged_and_prelink_removed() {
    for t in Gen::ALL {
        let mp = main_part(t);
        let linked = link(&[&mp.elf(&main_lines(t))], &state(STATE)).unwrap();
        let elf = ElfFile::parse(&linked.elf).unwrap();
        let md = elf.pal_metadata().unwrap().unwrap();
        assert!(md.prelink.is_none());
        let p = &md.pipeline;
        assert_eq!(
            p.user_data_map(HwStage::Cs).unwrap(),
            vec![UserData::Entry(0), UserData::Entry(1), UserData::Entry(2)]
        );
        assert_eq!(p.user_data_limit, 3);
        let rsrc2 = p.registers[&gcnc::binary::registers::COMPUTE_PGM_RSRC2];
        assert_eq!((rsrc2 >> 1) & 0x1f, 3, "{t}: USER_SGPR");
        assert_eq!((rsrc2 >> 7) & 1, 1, "{t}: TGID_X_EN kept");
        let cs = &p.hardware_stages[&HwStage::Cs];
        assert_eq!(cs.sgpr_count, 16, "{t}: max(main 16, prolog 6)");
        assert_eq!(cs.entry_point, "_amdgpu_cs_main");
        if t == Gen::Gfx11 {
            // INST_PREF_SIZE (RSRC3 9:4, 128-byte units) covers the linked entry.
            let entry = elf.entry(HwStage::Cs).unwrap().size;
            let r3 = p.registers[&gcnc::binary::registers::COMPUTE_PGM_RSRC3];
            assert_eq!(
                (r3 >> 4) & 0x3f,
                entry.div_ceil(128) as u32,
                "entry {entry} bytes"
            );
        }

        let Some(readelf) = oracle("llvm-readelf-19") else {
            continue;
        };
        let path = temp_path(&format!("md_{t}.elf"));
        std::fs::write(&path, &linked.elf).unwrap();
        let notes = run(&readelf, &["--notes", path.to_str().unwrap()]);
        assert!(!notes.contains("gcnc.prelink"), "{notes}");
        // llvm-readelf prints register numbers in decimal: 11840 = COMPUTE_USER_DATA_0
        // (0x2E40), 11795 = COMPUTE_PGM_RSRC2; 134 = USER_SGPR 3 | TGID_X_EN.
        let squash: String = notes.split_whitespace().collect::<Vec<_>>().join(" ");
        for want in [
            "11840: 0 11841: 1 11842: 2",
            "11795: 134",
            ".user_data_limit: 3",
            ".entry_point: _amdgpu_cs_main",
            ".sgpr_count: 16",
        ] {
            assert!(squash.contains(want), "{t}: {want} missing in\n{notes}");
        }
        assert!(!notes.contains("11843:"), "{notes}");
        let relocs = run(&readelf, &["-r", path.to_str().unwrap()]);
        assert!(!relocs.contains("R_AMDGPU"), "{relocs}");
        // The round trip through our reader agrees with llvm-readelf on the registers.
        let typed = PalMetadata::from_value(elf.metadata.as_ref().unwrap()).unwrap();
        assert_eq!(typed.pipeline.registers, p.registers);
    }
}

#[test]
fn matching_layout_needs_no_prolog() {
    let same = r#"{
      "descriptor_layout": [{"set": 0, "binding": 0, "kind": "buffer", "offset": 0}],
      "user_data": {"sgprs": [{"item": {"descriptor_set": 0}, "entry": 4},
                              {"item": {"push_constant": 0}, "entry": 5}]},
      "spec_constants": {"0": 1}
    }"#;
    for t in Gen::ALL {
        let mp = main_part(t);
        let linked = link(&[&mp.elf(&main_lines(t))], &state(same)).unwrap();
        assert_eq!(linked.placed.len(), 1, "{t}");
        assert_eq!(linked.placed[0].offset, 0);
        let md = ElfFile::parse(&linked.elf)
            .unwrap()
            .pal_metadata()
            .unwrap()
            .unwrap();
        assert_eq!(
            md.pipeline.user_data_map(HwStage::Cs).unwrap(),
            vec![UserData::Entry(4), UserData::Entry(5)],
            "{t}: the map is rewritten even without a prolog"
        );
        if let Some(insts) = objdump(&linked.elf, &format!("noprolog_{t}.elf")) {
            assert_eq!(insts[0], (0, "s_getpc_b64 s[4:5]".to_string()));
        }
    }
}

#[test]
fn parts_are_built_once_per_key() {
    let cache = gcnc::parts::PartCache::new();
    let t = Gen::Gfx10;
    let mp = main_part(t);
    let elf = mp.elf(&main_lines(t));
    let a = gcnc::link::link(&[&elf], &state(STATE), &cache).unwrap();
    let b = gcnc::link::link(&[&elf], &state(STATE), &cache).unwrap();
    assert_eq!(a.elf, b.elf, "deterministic");
    assert_eq!(cache.stats(), (1, 1), "built once, then a hit");
}

#[test]
fn concurrent_links_build_each_part_once() {
    let cache = gcnc::parts::PartCache::new();
    let elfs: Vec<Vec<u8>> = Gen::ALL
        .iter()
        .map(|&t| main_part(t).elf(&main_lines(t)))
        .collect();
    let st = state(STATE);
    std::thread::scope(|s| {
        for _ in 0..4 {
            s.spawn(|| {
                for e in &elfs {
                    gcnc::link::link(&[e], &st, &cache).unwrap();
                }
            });
        }
    });
    assert_eq!(cache.stats(), (3, 9), "one prolog per target, built once");
}

/// The CS prolog as instruction text: a cyclic permutation of user SGPRs goes through one
/// scratch SGPR, and the part ends in an `s_branch` with a REL16 relocation to its next part.
#[test]
fn a_swap_goes_through_one_scratch_sgpr_and_ends_in_a_relocated_branch() {
    use gcnc::binary::prelink::Item::PushConstant;
    let k = gcnc::parts::CsPrologKey {
        target: gcnc::isa::Target::new(Gen::Gfx10),
        inputs: vec![PushConstant(1), PushConstant(0)],
        table: vec![],
        outputs: vec![PushConstant(0), PushConstant(1)],
        system_sgprs: 0,
        next: "next".into(),
    };
    let p = k.build("me").unwrap();
    let t = k.target;
    let text: Vec<String> = gcnc::isa::decode_all(&p.code, t)
        .unwrap()
        .iter()
        .map(|(_, i)| gcnc::isa::print(i, t).unwrap())
        .collect();
    assert_eq!(
        text,
        [
            "s_mov_b32 s2, s0",
            "s_mov_b32 s0, s1",
            "s_mov_b32 s1, s2",
            "s_branch 0"
        ]
    );
    assert_eq!(p.relocations.len(), 1);
    assert_eq!(p.relocations[0].offset, 12);
    assert_eq!(p.relocations[0].symbol, "next");
    assert_eq!(p.sgprs, 3);
    assert_eq!(k.build("me").unwrap(), p, "deterministic");
}
