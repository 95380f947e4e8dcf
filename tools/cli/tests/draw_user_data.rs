//! Graphics user-data layouts at link time (issue 14, docs/link.md "Graphics user data"):
//! the push-constant- and descriptor-reading `vs_uniforms` + `fs_uniforms` pipeline, each
//! stage compiled alone with the backend's user-data placement, linked with the layouts
//! of a draw description's `link_user_data`:
//! - `uniforms_layout_sgprs`: every pointer in another user SGPR and entry, the global
//!   table in s0, BaseVertex / BaseInstance / the vertex-buffer table reordered, and a
//!   fragment layout one SGPR longer than the compiled one (an inline push dword nothing
//!   reads), so PRIM_MASK moves down;
//! - `uniforms_layout_table`: both stages' pointers loaded from their own descriptor
//!   tables, the fragment stage's user SGPRs down to the table pointer (PRIM_MASK moves
//!   up).
//!
//! Each draws, on gfx900 w64, gfx1030 w32/w64 and gfx1100 w32/w64 under the emulator's
//! strict checks, the image lavapipe draws (which knows no layout: the layout changes
//! where values arrive, never what the pipeline computes) and byte for byte the
//! whole-pipeline compile's. The linked ELF's user-data registers, read with
//! llvm-readelf-19, are the layouts' PAL values, and each stage's chain starts with the
//! user-data prolog. Layouts a stage cannot run with are `State` errors naming the stage.

mod draw_support;

use draw_support::{draws_as_lavapipe, gcnc, oracle_output, pal_register};
use gcnc::binary::HwStage;
use std::path::{Path, PathBuf};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/shaders/draw")
}

#[test]
fn stage_layouts_draw_what_the_whole_pipeline_and_lavapipe_draw() {
    draws_as_lavapipe(
        &dir(),
        "user-data",
        &[("uniforms_layout_sgprs", 3), ("uniforms_layout_table", 3)],
    );
}

const GLOBAL_TABLE: u32 = 0x1000_0000;
const BASE_VERTEX: u32 = 0x1000_0003;
const BASE_INSTANCE: u32 = 0x1000_0004;
const VB_TABLE: u32 = 0x1000_000f;

/// Unlinked stages of the pipeline on `target`, linked with `state` by `gcnc link`.
fn link(tmp: &Path, target: &str, state: &Path) -> Result<PathBuf, String> {
    let v = tmp.join(format!("v-{target}.elf"));
    let f = tmp.join(format!("f-{target}.elf"));
    for (spv, out) in [("vs_uniforms.spv", &v), ("fs_uniforms.spv", &f)] {
        let spv = dir().join(spv);
        gcnc(&[
            "compile".as_ref(),
            spv.as_os_str(),
            "--target".as_ref(),
            target.as_ref(),
            "--unlinked".as_ref(),
            "-o".as_ref(),
            out.as_os_str(),
        ])
        .unwrap();
    }
    let p = tmp.join(format!(
        "p-{target}-{}.elf",
        state.file_stem().unwrap().to_string_lossy()
    ));
    gcnc(&[
        "link".as_ref(),
        v.as_os_str(),
        f.as_os_str(),
        "--state".as_ref(),
        state.as_os_str(),
        "-o".as_ref(),
        p.as_os_str(),
    ])?;
    Ok(p)
}

#[test]
fn the_linked_pipeline_maps_each_stage_as_its_layout_says() {
    let tmp = std::env::temp_dir().join(format!("gcnc-user-data-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let cases: [(&str, [&[u32]; 2]); 2] = [
        (
            "uniforms_layout_sgprs",
            [
                &[
                    GLOBAL_TABLE,
                    33,
                    BASE_INSTANCE,
                    32,
                    35,
                    VB_TABLE,
                    34,
                    BASE_VERTEX,
                ],
                &[40, 37, 34, 36, 35],
            ],
        ),
        (
            "uniforms_layout_table",
            [
                &[GLOBAL_TABLE, 48, BASE_VERTEX, VB_TABLE, BASE_INSTANCE],
                &[49],
            ],
        ),
    ];
    for target in ["gfx900", "gfx1030", "gfx1100"] {
        let vs = if target == "gfx900" {
            HwStage::Vs
        } else {
            HwStage::Gs
        };
        for (name, maps) in cases {
            let elf = link(&tmp, target, &dir().join(format!("{name}.json"))).unwrap();
            let elf = elf.to_str().unwrap();
            let notes = oracle_output("llvm-readelf-19", &["--notes", elf]);
            for (stage, map) in [(vs, maps[0]), (HwStage::Ps, maps[1])] {
                let base = stage.user_data_base();
                let got: Vec<Option<u32>> = (0..=map.len() as u32)
                    .map(|i| pal_register(&notes, base + i))
                    .collect();
                let mut want: Vec<Option<u32>> = map.iter().map(|&v| Some(v)).collect();
                want.push(None);
                assert_eq!(got, want, "{name} on {target}: {stage:?} user data");
            }
            // each chain: [user-data prolog] [fetch prolog] main (symbols in address order)
            let syms = oracle_output("llvm-objdump-19", &["--syms", elf]);
            let mut funcs: Vec<(u64, String)> = syms
                .lines()
                .filter_map(|l| {
                    let name = l.split_whitespace().last()?;
                    let addr = u64::from_str_radix(l.split_whitespace().next()?, 16).ok()?;
                    (name.starts_with("gcnc.")).then(|| (addr, name.to_string()))
                })
                .collect();
            funcs.sort();
            let names: Vec<&str> = funcs
                .iter()
                .map(|f| f.1.rsplit_once('.').map_or(f.1.as_str(), |x| x.0))
                .collect();
            assert_eq!(
                names,
                [
                    "gcnc.part.user_data_prolog",
                    "gcnc.part.vs_prolog",
                    "gcnc.main",
                    "gcnc.part.vs_epilog",
                    "gcnc.part.user_data_prolog",
                    "gcnc.main",
                    "gcnc.part.ps_epilog",
                ],
                "{name} on {target}: {funcs:?}"
            );
        }
    }
}

#[test]
fn a_layout_without_what_a_stage_reads_is_a_state_error() {
    let tmp = std::env::temp_dir().join(format!("gcnc-user-data-err-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let text = std::fs::read_to_string(dir().join("uniforms_layout_sgprs.json")).unwrap();
    let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
    // the fragment stage reads set 1, which this layout no longer gives
    let sgprs = v["link_user_data"]["fragment"]["sgprs"]
        .as_array_mut()
        .unwrap();
    sgprs.retain(|s| s["item"].get("descriptor_set").is_none());
    for (k, x) in v["vertex"]["spv"]
        .clone()
        .as_str()
        .into_iter()
        .chain(v["fragment"]["spv"].clone().as_str())
        .enumerate()
    {
        let key = ["vertex", "fragment"][k];
        v[key]["spv"] = dir().join(x).to_string_lossy().into_owned().into();
    }
    let state = tmp.join("no_set1.json");
    std::fs::write(&state, v.to_string()).unwrap();
    let e = link(&tmp, "gfx1030", &state).unwrap_err();
    assert!(
        e.contains("stage_user_data.fragment") && e.contains("descriptor_set:1"),
        "{e}"
    );
    // the compute stage's key in a graphics link
    let state = tmp.join("compute_key.json");
    std::fs::write(
        &state,
        r#"{"graphics": {"vertex_bindings": [{"binding": 0, "stride": 32}],
            "vertex_attributes": [
              {"location": 0, "binding": 0, "offset": 0, "format": "R32G32B32A32_SFLOAT"},
              {"location": 1, "binding": 0, "offset": 16, "format": "R32G32B32A32_SFLOAT"}]},
            "user_data": {"sgprs": [{"item": "push_constant_pointer", "entry": 0}]}}"#,
    )
    .unwrap();
    let e = link(&tmp, "gfx900", &state).unwrap_err();
    assert!(e.contains("stage_user_data"), "{e}");
    // a launch value with an entry, and one in a table
    for (layout, why) in [
        (
            r#"{"sgprs": [{"item": "base_vertex", "entry": 3}]}"#,
            "set by the launch",
        ),
        (
            r#"{"sgprs": [{"item": "descriptor_table", "entry": 3}], "table": ["base_instance"]}"#,
            "not read from a table",
        ),
    ] {
        let text = format!(r#"{{"stage_user_data": {{"vertex": {layout}}}}}"#);
        let e = gcnc::link::PipelineState::from_json(&text).unwrap_err();
        assert!(e.to_string().contains(why), "{e}");
    }
    let e = gcnc::link::PipelineState::from_json(
        r#"{"stage_user_data": {"fragment": {"sgprs": [{"item": "draw_index"}]}}}"#,
    )
    .unwrap_err();
    assert!(e.to_string().contains("vertex-stage item"), "{e}");
}
