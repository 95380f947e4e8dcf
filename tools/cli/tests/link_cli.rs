//! `gcnc link` on files: the output equals the library's link, the part cache directory is
//! filled and reused, and bad input is a message naming the file and the place.

mod cli_support;

use cli_support::gcnc_output as gcnc;

#[path = "../../../tests/link_support/mod.rs"]
mod link_support;

use gcnc::binary::prelink::UserSgpr;
use link_support::*;

const STATE: &str = r#"{
  "descriptor_layout": [{"set": 0, "binding": 0, "kind": "buffer", "offset": 16}],
  "user_data": {"sgprs": [{"item": "descriptor_table", "entry": 0}],
                "table": [{"descriptor_set": 0}]}
}"#;

#[test]
fn link_files_with_a_part_cache() {
    let t = Gen::Gfx11;
    let mp = MainPart::new(t, vec![UserSgpr::DescriptorSet(0)]);
    let mut lines = vec![(
        "s_add_u32 s4, s0, 0x5eed0000",
        Some("gcnc.desc.0.0.buffer.offset"),
    )];
    lines.extend(endpgm(t));
    let elf = mp.elf(&lines);
    let a = temp_path("cli_a.elf");
    let st = temp_path("cli_state.json");
    let out = temp_path("cli_out.elf");
    let cache = temp_path("cli_cache");
    let _ = std::fs::remove_dir_all(&cache);
    std::fs::write(&a, &elf).unwrap();
    std::fs::write(&st, STATE).unwrap();
    let args = [
        "link",
        a.to_str().unwrap(),
        "--state",
        st.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--cache-dir",
        cache.to_str().unwrap(),
        "-v",
    ];
    for round in 0..2 {
        let r = gcnc(&args);
        assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
        let err = String::from_utf8_lossy(&r.stderr);
        assert!(
            err.contains("gcnc.part.cs_prolog.") && err.contains("falls through"),
            "{err}"
        );
        let want = link(&[&elf], &state(STATE)).unwrap().elf;
        assert_eq!(std::fs::read(&out).unwrap(), want, "round {round}");
        let parts: Vec<_> = std::fs::read_dir(&cache).unwrap().collect();
        assert_eq!(parts.len(), 1, "one part entry");
    }
}

#[test]
fn bad_input_names_the_file() {
    let a = temp_path("cli_bad.elf");
    std::fs::write(&a, b"\x7fELF\x02\x01").unwrap();
    let st = temp_path("cli_bad_state.json");
    std::fs::write(&st, STATE).unwrap();
    let out = temp_path("cli_bad_out.elf");
    let r = gcnc(&[
        "link",
        a.to_str().unwrap(),
        "--state",
        st.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(!r.status.success());
    let err = String::from_utf8_lossy(&r.stderr);
    assert!(
        err.contains("cli_bad.elf") && err.contains("truncated"),
        "{err}"
    );

    std::fs::write(&st, "{\n  \"spec_constants\": [1,\n").unwrap();
    let r = gcnc(&[
        "link",
        a.to_str().unwrap(),
        "--state",
        st.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(!r.status.success());
    let err = String::from_utf8_lossy(&r.stderr);
    assert!(
        err.contains("cli_bad_state.json") && err.contains("JSON 2:"),
        "{err}"
    );
}

#[test]
fn compile_unlinked_then_link() {
    let spv = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/shaders/link/spec_choice.spv"
    );
    let u = temp_path("cli_unlinked.elf");
    let st = temp_path("cli_unlinked_state.json");
    let out = temp_path("cli_unlinked_out.elf");
    let r = gcnc(&[
        "compile",
        spv,
        "--target",
        "gfx1030",
        "--unlinked",
        "--link-spec",
        "0",
        "--link-spec",
        "1",
        "-o",
        u.to_str().unwrap(),
    ]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let state_text = r#"{
      "descriptor_layout": [
        {"set": 0, "binding": 0, "kind": "buffer", "offset": 64, "stride": 32},
        {"set": 1, "binding": 2, "kind": "buffer", "offset": 128, "stride": 32}],
      "user_data": {"sgprs": [{"item": "descriptor_table", "entry": 0},
                              {"item": {"descriptor_set_hi": 1}, "entry": 1},
                              {"item": {"descriptor_set": 1}, "entry": 2}],
                    "table": [{"descriptor_set": 0}, {"descriptor_set_hi": 0}]},
      "spec_constants": {"0": 1, "1": 5}
    }"#;
    std::fs::write(&st, state_text).unwrap();
    let r = gcnc(&[
        "link",
        u.to_str().unwrap(),
        "--state",
        st.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let unlinked = std::fs::read(&u).unwrap();
    let want = link(&[&unlinked], &state(state_text)).unwrap().elf;
    assert_eq!(std::fs::read(&out).unwrap(), want);

    // a spec constant that sizes an array cannot be left open: a clear error, no output
    let spv = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/shaders/link/spec_array.spv"
    );
    let bad = temp_path("cli_unlinked_bad.elf");
    let _ = std::fs::remove_file(&bad);
    let r = gcnc(&[
        "compile",
        spv,
        "--target",
        "gfx900",
        "--unlinked",
        "--link-spec",
        "0",
        "-o",
        bad.to_str().unwrap(),
    ]);
    let err = String::from_utf8_lossy(&r.stderr);
    assert!(!r.status.success());
    assert!(
        err.contains("NeedsWholePipeline") && err.contains("compile the whole pipeline"),
        "{err}"
    );
    assert!(!bad.exists(), "no output for a refused compile");
    // --link-spec without --unlinked is refused
    let r = gcnc(&["compile", spv, "--target", "gfx900", "--link-spec", "0"]);
    assert!(!r.status.success());
}

/// The state JSON of docs/link.md's example (its first `json` block naming a descriptor
/// table), read from the document so the test follows it.
fn docs_example_state() -> String {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/link.md"))
        .expect("docs/link.md");
    doc.split("```json\n")
        .skip(1)
        .filter_map(|b| b.split("```").next())
        .find(|b| b.contains("\"descriptor_table\""))
        .expect("docs/link.md has a json example with a descriptor table")
        .to_string()
}

/// docs/link.md's example state linked onto a main part that reads set 0 through its
/// 32-bit pointer (high half from the PC), push constants 0 and 1 and spec constant 0,
/// and stores them to set 0 binding 1. `gcnc run --state` fills the user-data entries as
/// the state says and places the descriptor table where the CS prolog reads it (the
/// code's 4 GiB); without the state the run stops with an error asking for it.
#[test]
fn a_linked_elf_with_a_descriptor_table_runs_with_its_state() {
    let state_json = docs_example_state();
    let st = temp_path("docs_state.json");
    std::fs::write(&st, &state_json).unwrap();
    for t in Gen::ALL {
        let gfx11 = t == Gen::Gfx11;
        let (load, store) = if gfx11 {
            ("s_load_b128 s[8:11], s[4:5], 0x0", "buffer_store_b32")
        } else {
            ("s_load_dwordx4 s[8:11], s[4:5], 0x0", "buffer_store_dword")
        };
        let st0 = format!("{store} v1, v2, s[8:11], 0 offen");
        let st1 = format!("{store} v3, v2, s[8:11], 0 offen offset:4");
        let st2 = format!("{store} v4, v2, s[8:11], 0 offen offset:8");
        let mut lines: Vec<(&str, Option<&str>)> = vec![
            ("s_getpc_b64 s[4:5]", None),
            (
                "s_add_u32 s4, s0, 0x5eed0000",
                Some("gcnc.desc.0.1.buffer.offset"),
            ),
            ("s_addc_u32 s5, s5, 0", None),
            (load, None),
            ("s_waitcnt lgkmcnt(0)", None),
            ("s_add_u32 s12, s1, 0x5eed0000", Some("gcnc.spec.0")),
            ("v_mov_b32_e32 v2, 0", None),
            ("v_mov_b32_e32 v1, s1", None),
            ("v_mov_b32_e32 v3, s2", None),
            ("v_mov_b32_e32 v4, s12", None),
            (&st0, None),
            (&st1, None),
            (&st2, None),
        ];
        lines.extend(endpgm(t));
        let mut mp = MainPart::new(
            t,
            vec![
                UserSgpr::DescriptorSet(0),
                UserSgpr::PushConstant(0),
                UserSgpr::PushConstant(1),
            ],
        );
        mp.vgprs = 8;
        let a = temp_path(&format!("docs_main_{t}.elf"));
        let out = temp_path(&format!("docs_linked_{t}.elf"));
        std::fs::write(&a, mp.elf(&lines)).unwrap();
        let (a, out, st) = (
            a.to_str().unwrap(),
            out.to_str().unwrap(),
            st.to_str().unwrap(),
        );
        let r = gcnc(&["link", a, "--state", st, "-o", out]);
        assert!(
            r.status.success(),
            "{t}: {}",
            String::from_utf8_lossy(&r.stderr)
        );

        // push constant 0 = 0x11, 1 = 0x22; spec constant 0 = 5 (the example's)
        let run = [
            "run",
            out,
            "--push",
            "1100000022000000",
            "--bind",
            "0:1=@16",
        ];
        let r = gcnc(&run);
        let err = String::from_utf8_lossy(&r.stderr);
        assert_eq!(r.status.code(), Some(1), "{t}: {err}");
        assert!(
            err.contains("pass that state (gcnc run --state)"),
            "{t}: {err}"
        );

        let with_state: Vec<&str> = run
            .iter()
            .copied()
            .chain(["--state", st, "--print", "0:1:u32"])
            .collect();
        let r = gcnc(&with_state);
        let stdout = String::from_utf8_lossy(&r.stdout);
        assert!(
            r.status.success(),
            "{t}: {}",
            String::from_utf8_lossy(&r.stderr)
        );
        assert!(stdout.contains("0x0000: 17 34 22 0"), "{t}: {stdout}");
    }
}
