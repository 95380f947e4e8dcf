//! Bad input to the link stage gets a typed `link::Error` that says where and why: missing
//! symbol, relocation out of range or of the wrong kind, mismatched targets, corrupt
//! msgpack, truncated ELF, a shader that is not unlinked, a layout that cannot supply what
//! the shader assumed. Every prefix and every single-byte corruption of a valid input
//! returns (Ok or Err) without panicking.

mod link_support;

use gcnc::binary::prelink::UserSgpr;
use gcnc::binary::{ComputeShaderInfo, ElfFile, RelocKind, Relocation};
use gcnc::link::Error;
use link_support::*;

const STATE: &str = r#"{
  "descriptor_layout": [{"set": 0, "binding": 0, "kind": "buffer", "offset": 16}],
  "user_data": {"sgprs": [{"item": "descriptor_table", "entry": 0}],
                "table": [{"descriptor_set": 0}]},
  "spec_constants": {"0": 1}
}"#;

fn lines(t: Gen) -> Vec<(&'static str, Option<&'static str>)> {
    let mut v = vec![
        (
            "s_add_u32 s4, s0, 0x5eed0000",
            Some("gcnc.desc.0.0.buffer.offset"),
        ),
        ("s_add_u32 s4, s4, 0x5eed0000", Some("gcnc.spec.0")),
    ];
    v.extend(endpgm(t));
    v
}

fn main_part(t: Gen) -> MainPart {
    MainPart::new(t, vec![UserSgpr::DescriptorSet(0)])
}

fn good(t: Gen) -> Vec<u8> {
    main_part(t).elf(&lines(t))
}

#[test]
fn the_good_input_links() {
    for t in Gen::ALL {
        link(&[&good(t)], &state(STATE)).unwrap();
    }
}

#[test]
fn missing_symbol() {
    let st = state(
        r#"{"descriptor_layout": [{"set": 0, "binding": 0, "kind": "buffer", "offset": 16}]}"#,
    );
    let e = link(&[&good(Gen::Gfx10)], &st).unwrap_err();
    assert_eq!(
        e,
        Error::MissingSymbol {
            input: 0,
            offset: 12,
            symbol: "gcnc.spec.0".into()
        }
    );
    assert!(e.to_string().contains("gcnc.spec.0"), "{e}");
    // A descriptor of another kind is a different symbol.
    let st = state(
        r#"{"descriptor_layout": [{"set": 0, "binding": 0, "kind": "image", "offset": 16}],
                      "spec_constants": {"0": 1}}"#,
    );
    let e = link(&[&good(Gen::Gfx9)], &st).unwrap_err();
    assert!(
        matches!(e, Error::MissingSymbol { ref symbol, offset: 4, .. } if symbol == "gcnc.desc.0.0.buffer.offset"),
        "{e}"
    );
}

/// A main part of `nops` s_nop words followed by `s_branch` (REL16 to `symbol`; for other
/// kinds a zero dword field relocated against `symbol`) and s_endpgm.
fn branchy(t: Gen, nops: usize, kind: RelocKind, symbol: &str) -> Vec<u8> {
    let mp = main_part(t);
    let mut obj = mp.object(&[("s_endpgm", None)]);
    let nop = gcnc::isa::buffer::nop_word(mp.target.gen);
    let mut text: Vec<u8> = std::iter::repeat_n(nop, nops)
        .flat_map(|w| w.to_le_bytes())
        .collect();
    let at = text.len() as u64;
    if kind == RelocKind::Rel16 {
        text.extend(gcnc::isa::buffer::branch_word(mp.target.gen, 0).to_le_bytes());
    } else {
        text.extend(0u32.to_le_bytes()); // a zero 32-bit field (the REL addend)
    }
    text.extend(&obj.text[..4]); // s_endpgm
    let size = text.len() as u64;
    obj.text = text;
    obj.functions[0].size = size;
    obj.relocations = vec![Relocation {
        offset: at,
        kind,
        symbol: symbol.into(),
        addend: 0,
    }];
    obj.write().unwrap()
}

#[test]
fn relocation_out_of_range() {
    // 33000 dwords back to the entry: beyond REL16's ±32 K dwords.
    let elf = branchy(Gen::Gfx11, 33000, RelocKind::Rel16, "_amdgpu_cs_main");
    let e = link(&[&elf], &state(STATE)).unwrap_err();
    match &e {
        Error::BadRelocation {
            input: 0,
            offset,
            reason,
        } => {
            assert_eq!(*offset, 33000 * 4);
            assert!(reason.contains("128 KiB"), "{reason}");
        }
        other => panic!("{other}"),
    }
    // In range it resolves: a backward branch to the chain start.
    let elf = branchy(Gen::Gfx11, 10, RelocKind::Rel16, "_amdgpu_cs_main");
    let l = link(&[&elf], &state(STATE)).unwrap();
    let main = &l.placed[1];
    let at = (main.offset + 40) as usize;
    let simm = i16::from_le_bytes([l.object.text[at], l.object.text[at + 1]]);
    assert_eq!(simm as i64, -((main.offset as i64 + 40 + 4) / 4));
}

#[test]
fn relocations_of_the_wrong_kind() {
    let st = state(STATE);
    let e = link(
        &[&branchy(Gen::Gfx9, 1, RelocKind::Rel16, "gcnc.spec.0")],
        &st,
    )
    .unwrap_err();
    assert!(
        matches!(e, Error::BadRelocation { ref reason, .. } if reason.contains("state value")),
        "{e}"
    );
    let e = link(&[&branchy(Gen::Gfx9, 1, RelocKind::Rel16, "nowhere")], &st).unwrap_err();
    assert!(
        matches!(e, Error::MissingSymbol { ref symbol, .. } if symbol == "nowhere"),
        "{e}"
    );
    // A code address as an absolute literal: PAL picks the address later.
    let e = link(
        &[&branchy(
            Gen::Gfx9,
            1,
            RelocKind::Abs32Lo,
            "_amdgpu_cs_main",
        )],
        &st,
    )
    .unwrap_err();
    assert!(
        matches!(e, Error::BadRelocation { ref reason, .. } if reason.contains("load address")),
        "{e}"
    );
    let e = link(
        &[&branchy(Gen::Gfx9, 1, RelocKind::Rel32, "gcnc.spec.0")],
        &st,
    )
    .unwrap_err();
    assert!(
        matches!(e, Error::BadRelocation { ref reason, .. } if reason.contains("R_AMDGPU_REL32")),
        "{e}"
    );
}

#[test]
fn mismatched_targets() {
    let e = link(&[&good(Gen::Gfx9), &good(Gen::Gfx10)], &state(STATE)).unwrap_err();
    assert!(matches!(e, Error::TargetMismatch { input: 1, .. }), "{e}");
    assert!(
        e.to_string().contains("gfx1030") && e.to_string().contains("gfx900"),
        "{e}"
    );
    // Two compute shaders in one pipeline.
    let e = link(&[&good(Gen::Gfx9), &good(Gen::Gfx9)], &state(STATE)).unwrap_err();
    assert!(matches!(e, Error::NotUnlinked { input: 1, .. }), "{e}");
}

#[test]
fn corrupt_msgpack() {
    let mut elf = good(Gen::Gfx11);
    let parsed = ElfFile::parse(&elf).unwrap();
    let note = parsed.notes.iter().find(|n| n.owner == "AMDGPU").unwrap();
    elf[note.desc_offset as usize] = 0xc1; // never used in msgpack
    let e = link(&[&elf], &state(STATE)).unwrap_err();
    match e {
        Error::Elf {
            input: 0,
            source: gcnc::binary::Error::Msgpack { .. },
        } => {}
        other => panic!("{other}"),
    }
    // A well-formed tree of the wrong shape is a metadata error, also typed.
    let mut obj = main_part(Gen::Gfx11).object(&lines(Gen::Gfx11));
    obj.metadata.as_map_mut().unwrap().insert(
        gcnc::binary::msgpack::Key::str("gcnc.prelink"),
        gcnc::binary::Value::from(7u32),
    );
    let e = link(&[&obj.write().unwrap()], &state(STATE)).unwrap_err();
    assert!(
        matches!(
            e,
            Error::Elf {
                source: gcnc::binary::Error::Metadata { .. },
                ..
            }
        ),
        "{e}"
    );
}

#[test]
fn truncated_elf_at_every_length() {
    let elf = good(Gen::Gfx10);
    let st = state(STATE);
    for len in 0..elf.len() {
        match link(&[&elf[..len]], &st) {
            Err(Error::Elf { input: 0, .. }) => {}
            other => panic!("prefix {len}: {other:?}"),
        }
    }
}

#[test]
fn single_byte_corruptions_never_panic() {
    let elf = good(Gen::Gfx9);
    let st = state(STATE);
    let mut errors = 0;
    for i in 0..elf.len() {
        for x in [0x00u8, 0xff, 0x80] {
            let mut e = elf.clone();
            if e[i] == x {
                continue;
            }
            e[i] = x;
            if link(&[&e], &st).is_err() {
                errors += 1;
            }
        }
    }
    assert!(errors > 0);
}

#[test]
fn not_an_unlinked_shader() {
    let info = ComputeShaderInfo::new(Target::new(Gen::Gfx10));
    let mut text = gcnc::isa::buffer::nop_word(gcnc::isa::Gen::Gfx10)
        .to_le_bytes()
        .to_vec();
    text.resize(256, 0);
    let obj = gcnc::binary::CodeObject::compute(&info, text, 4, vec![]).unwrap();
    let e = link(&[&obj.write().unwrap()], &state(STATE)).unwrap_err();
    assert!(
        matches!(e, Error::NotUnlinked { ref reason, .. } if reason.contains("gcnc.prelink")),
        "{e}"
    );
    let e = link(&[], &state(STATE)).unwrap_err();
    assert!(matches!(e, Error::NotUnlinked { .. }), "{e}");
}

#[test]
fn layout_that_cannot_supply_the_assumed_data() {
    let st = state(
        r#"{"user_data": {"sgprs": [{"item": {"push_constant": 0}, "entry": 0}]},
                      "descriptor_layout": [{"set": 0, "binding": 0, "kind": "buffer", "offset": 16}],
                      "spec_constants": {"0": 1}}"#,
    );
    let e = link(&[&good(Gen::Gfx10)], &st).unwrap_err();
    match &e {
        Error::State { path, reason } => {
            assert_eq!(path, "user_data");
            assert!(
                reason.contains("descriptor_set:0") && reason.contains("user SGPR 0"),
                "{reason}"
            );
        }
        other => panic!("{other}"),
    }
}

/// An unlinked ELF from the backend (tests/shaders/link/spec_choice.comp: two descriptor
/// offsets, two spec constants left to the link), as a code object to damage.
fn backend_unlinked() -> gcnc::binary::CodeObject {
    let words =
        gcnc::front::spirv::words_from_bytes(include_bytes!("shaders/link/spec_choice.spv"))
            .unwrap();
    let mut o = gcnc::Options::new(Target::new(Gen::Gfx10));
    o.missing = gcnc::Missing::all();
    o.missing.spec_constants = [0, 1].into_iter().collect();
    let u = gcnc::compile_spirv_unlinked(&words, &o).unwrap();
    ElfFile::parse(&u.elf).unwrap().to_code_object().unwrap()
}

const BACKEND_STATE: &str = r#"{
  "descriptor_layout": [{"set": 0, "binding": 0, "kind": "buffer", "offset": 64},
                        {"set": 1, "binding": 2, "kind": "buffer", "offset": 128}],
  "spec_constants": {"0": 1, "1": 3}
}"#;

#[test]
fn backend_relocations_link_and_name_what_is_missing() {
    let obj = backend_unlinked();
    let elf = obj.write().unwrap();
    link(&[&elf], &state(BACKEND_STATE)).unwrap();
    // the state lacks a binding the shader's relocation names
    let st = state(
        r#"{"descriptor_layout": [{"set": 0, "binding": 0, "kind": "buffer", "offset": 64}],
            "spec_constants": {"0": 1, "1": 3}}"#,
    );
    let e = link(&[&elf], &st).unwrap_err();
    assert!(
        matches!(e, Error::MissingSymbol { ref symbol, .. } if symbol == "gcnc.desc.1.2.buffer.offset"),
        "{e}"
    );
    // a spec constant the state does not give
    let st = state(
        r#"{"descriptor_layout": [{"set": 0, "binding": 0, "kind": "buffer", "offset": 64},
                                  {"set": 1, "binding": 2, "kind": "buffer", "offset": 128}],
            "spec_constants": {"0": 1}}"#,
    );
    let e = link(&[&elf], &st).unwrap_err();
    assert!(
        matches!(e, Error::MissingSymbol { ref symbol, .. } if symbol == "gcnc.spec.1"),
        "{e}"
    );
}

#[test]
fn unknown_prelink_symbol() {
    for bad in [
        "gcnc.desc.0.0.bogus.offset",
        "gcnc.desc.0.x.buffer.offset",
        "gcnc.nothing.0",
        "gcnc.spec.",
    ] {
        let mut obj = backend_unlinked();
        let at = obj.relocations[0].offset;
        obj.relocations[0].symbol = bad.into();
        let elf = obj.write().unwrap();
        let e = link(&[&elf], &state(BACKEND_STATE)).unwrap_err();
        assert_eq!(
            e,
            Error::MissingSymbol {
                input: 0,
                offset: at,
                symbol: bad.into()
            },
            "{bad}"
        );
        assert!(e.to_string().contains(bad), "{e}");
    }
}

#[test]
fn relocated_offset_out_of_range() {
    // the relocated field beyond the main part's code (the writer refuses to produce
    // that, so the REL record's r_offset is patched in the file)
    let obj = backend_unlinked();
    let size = obj.functions[0].size;
    let mut elf = obj.write().unwrap();
    let rel = ElfFile::parse(&elf)
        .unwrap()
        .section_by_name(".rel.text")
        .expect(".rel.text")
        .offset as usize;
    elf[rel..rel + 8].copy_from_slice(&size.to_le_bytes());
    let e = link(&[&elf], &state(BACKEND_STATE)).unwrap_err();
    assert!(
        matches!(e, Error::BadRelocation { offset, .. } if offset == size),
        "{e}"
    );
    assert!(e.to_string().contains("outside"), "{e}");
    // a descriptor offset or stride the literal must not carry: misaligned or beyond the
    // set's descriptor memory
    for (json, path) in [
        (
            r#"{"descriptor_layout": [{"set": 0, "binding": 0, "kind": "buffer", "offset": 66}]}"#,
            "descriptor_layout[0].offset",
        ),
        (
            r#"{"descriptor_layout": [{"set": 0, "binding": 0, "kind": "buffer", "offset": 1048576}]}"#,
            "descriptor_layout[0].offset",
        ),
        (
            r#"{"descriptor_layout": [{"set": 0, "binding": 0, "kind": "buffer", "offset": 0, "stride": 6}]}"#,
            "descriptor_layout[0].stride",
        ),
    ] {
        let e = gcnc::link::PipelineState::from_json(json).unwrap_err();
        assert!(
            matches!(e, Error::State { path: ref p, .. } if p == path),
            "{e}"
        );
        assert!(e.to_string().contains("out of range"), "{e}");
    }
}
