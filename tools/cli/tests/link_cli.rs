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
