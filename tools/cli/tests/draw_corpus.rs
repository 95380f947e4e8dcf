//! The graphics corpus: every draw description in tests/shaders/draw/ (GLSL vertex and
//! fragment shaders of that directory, SPIR-V built by scripts/build-shaders.sh) compiled
//! by `gcnc draw` and run on the emulator with every strict check, on gfx900 wave64
//! (hardware VS), gfx1030 wave32 and wave64, gfx1100 wave32 and wave64 (NGG vertex
//! stages), each attachment (and depth) equal to lavapipe's image of the same
//! description within docs/draw.md's tolerances.

mod draw_support;

use draw_support::{compare_outputs, gcnc_draw, DRAW_CONFIGS};
use gcnc_emu::draw::Desc;
use std::path::{Path, PathBuf};

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/shaders/draw")
}

fn descriptions() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(corpus())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    v.sort();
    v
}

#[test]
fn every_corpus_pipeline_draws_what_lavapipe_draws() {
    if vkref::oracle::lavapipe().is_none() {
        return;
    }
    let descs = descriptions();
    assert!(descs.len() >= 30, "{} pipelines in the corpus", descs.len());
    let tmp = std::env::temp_dir().join(format!("gcnc-draw-corpus-{}", std::process::id()));
    let mut failures = Vec::new();
    for path in &descs {
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        let d = Desc::load(path).unwrap_or_else(|e| panic!("{name}: {e}"));
        let want = vkref::draw::run_draw(&d).unwrap_or_else(|e| panic!("{name}: lavapipe: {e}"));
        // lavapipe must draw something, or equality proves nothing
        let clear: Vec<u8> = gcnc_emu::draw::output::encode(
            d.desc.color_attachments[0].format,
            d.desc.color_attachments[0].clear.map(|x| x as f32),
        );
        let drawn = want.color[0]
            .chunks(clear.len())
            .filter(|p| *p != clear.as_slice())
            .count();
        assert!(drawn >= 20, "{name}: lavapipe drew only {drawn} pixels");
        for (target, wave) in DRAW_CONFIGS {
            let out = tmp.join(format!("{name}-{target}-w{wave}"));
            let result = gcnc_draw(path, target, wave, &out);
            if let Err(e) = result.and_then(|()| compare_outputs(&d, &out, &want)) {
                failures.push(format!("{name} on {target} w{wave}: {e}"));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} pipeline runs differ (outputs in {}):\n{}",
        failures.len(),
        descs.len() * DRAW_CONFIGS.len(),
        tmp.display(),
        failures.join("\n")
    );
}
