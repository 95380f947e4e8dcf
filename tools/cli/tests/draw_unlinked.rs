//! Graphics parts end to end (issue 14, docs/link.md "Graphics parts"): every draw
//! description of tests/shaders/draw/ run with `gcnc draw --unlinked` — each stage compiled
//! alone, linked with the description's state (vertex-fetch prolog, parameter-export and
//! colour-export epilogs) — on every draw configuration (gfx900 wave64, gfx1030 and
//! gfx1100 wave32 and wave64), under every strict check of the emulator (unwritten
//! registers, missing waits, hazards: the splices between parts included). Each image
//! must be byte-identical to the whole-pipeline compile's and equal to lavapipe's within
//! docs/draw.md's tolerances. A pipeline that cannot go unlinked yet is named, with its
//! reason, in `NOT_UNLINKED`, and must fail there.

mod draw_support;

use draw_support::{compare_outputs, gcnc, gcnc_draw, gcnc_draw_with, DRAW_CONFIGS};
use gcnc_emu::draw::Desc;
use std::path::{Path, PathBuf};

/// Pipelines that cannot be linked from unlinked stages yet: (name, the error they
/// must fail with).
/// (None since the link places the sample locations an unlinked fragment shader reads:
/// docs/abi.md "Multisampling".)
const NOT_UNLINKED: &[(&str, &str)] = &[];

fn descriptions() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/shaders/draw");
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    v.sort();
    v
}

/// The attachment files of an output directory, by name.
fn raw_files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut v: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "raw"))
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&p).unwrap())
        })
        .collect();
    v.sort();
    v
}

#[test]
fn every_corpus_pipeline_links_from_unlinked_stages_and_draws_the_same_image() {
    let descs = descriptions();
    assert!(descs.len() >= 30, "{} pipelines in the corpus", descs.len());
    let lavapipe = vkref::oracle::lavapipe().is_some();
    if !lavapipe {
        assert!(
            std::env::var("GCNC_REQUIRE_ORACLES").is_err(),
            "lavapipe is required"
        );
    }
    let tmp = std::env::temp_dir().join(format!("gcnc-draw-unlinked-{}", std::process::id()));
    let mut failures = Vec::new();
    let mut linked = 0;
    for path in &descs {
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        let d = Desc::load(path).unwrap_or_else(|e| panic!("{name}: {e}"));
        let want = lavapipe
            .then(|| vkref::draw::run_draw(&d).unwrap_or_else(|e| panic!("{name}: lavapipe: {e}")));
        let pending = NOT_UNLINKED.iter().find(|p| p.0 == name);
        for (target, wave) in DRAW_CONFIGS {
            let cfg = format!("{name} on {target} w{wave}");
            let u = tmp.join(format!("{name}-{target}-w{wave}-unlinked"));
            let w = tmp.join(format!("{name}-{target}-w{wave}-whole"));
            let result = gcnc_draw_with(path, target, wave, &u, &["--unlinked"]);
            match (pending, result) {
                (Some((_, why)), Ok(())) => failures.push(format!(
                    "{cfg}: listed as not unlinked ({why}) but links and draws"
                )),
                (Some((_, why)), Err(e)) if !e.contains(why) => {
                    failures.push(format!("{cfg}: fails other than as listed ({why}): {e}"))
                }
                (Some(_), Err(_)) => {}
                (None, Err(e)) => failures.push(format!("{cfg}: {e}")),
                (None, Ok(())) => {
                    linked += 1;
                    if let Err(e) = gcnc_draw(path, target, wave, &w) {
                        failures.push(format!("{cfg}: whole pipeline: {e}"));
                        continue;
                    }
                    let (a, b) = (raw_files(&u), raw_files(&w));
                    if a.is_empty() || a != b {
                        failures.push(format!(
                            "{cfg}: the unlinked pipeline's attachments differ from the whole pipeline's"
                        ));
                    }
                    if let Some(want) = &want {
                        if let Err(e) = compare_outputs(&d, &u, want) {
                            failures.push(format!("{cfg}: against lavapipe: {e}"));
                        }
                    }
                }
            }
        }
    }
    draw_support::assert_no_failures(&failures, &tmp);
    assert_eq!(
        linked,
        (descs.len() - NOT_UNLINKED.len()) * DRAW_CONFIGS.len()
    );
}

#[test]
fn the_command_line_compiles_each_stage_alone_and_links_them_with_a_draw_description() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/shaders/draw");
    let desc = dir.join("instanced_first_instance.json");
    let tmp = std::env::temp_dir().join(format!("gcnc-link-draw-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let p = |n: &str| tmp.join(n).to_string_lossy().into_owned();
    for (target, wave) in DRAW_CONFIGS {
        let w = wave.to_string();
        let common = ["--target", target, "--wave", &w];
        for (spv, elf) in [("vs_instanced.spv", "vs.elf"), ("fs_color.spv", "fs.elf")] {
            let src = dir.join(spv).to_string_lossy().into_owned();
            let mut a = vec!["compile", &src];
            a.extend(common);
            let out = p(elf);
            a.extend(["-o", &out]);
            gcnc(&a).unwrap_or_else(|e| panic!("{spv} on {target} w{wave}: {e}"));
        }
        let (vs, fs, pipe) = (p("vs.elf"), p("fs.elf"), p("pipeline.elf"));
        let d = desc.to_string_lossy().into_owned();
        gcnc(&["link", &vs, &fs, "--state", &d, "-o", &pipe])
            .unwrap_or_else(|e| panic!("link on {target} w{wave}: {e}"));
        let (a, b) = (tmp.join("elf"), tmp.join("unlinked"));
        gcnc_draw_with(&desc, target, wave, &a, &["--elf", &pipe]).unwrap();
        gcnc_draw_with(&desc, target, wave, &b, &["--unlinked"]).unwrap();
        assert!(!raw_files(&a).is_empty());
        assert_eq!(raw_files(&a), raw_files(&b), "{target} w{wave}");
    }
    // a stage the link lacks: a typed error naming it
    let d = desc.to_string_lossy().into_owned();
    let e = gcnc(&["link", &p("fs.elf"), "--state", &d, "-o", &p("x.elf")]).unwrap_err();
    assert!(e.contains("needs a vertex stage"), "{e}");
}
