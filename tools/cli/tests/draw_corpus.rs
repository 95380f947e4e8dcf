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

/// `gcnc compile a.vert b.frag --state PIPELINE.json` compiles the pair with the
/// description's state (vertex inputs, attachment formats, descriptors as the layout,
/// specialization constants): the ELF, drawn with `gcnc draw --elf`, gives lavapipe's
/// image, on a pipeline with spec constants and push constants and on one with a sampled
/// image, a sampler and a storage image. --state with --spec, or for one shader, is an
/// error naming --state.
#[test]
fn compile_with_a_draw_description_as_state_builds_the_drawn_pipeline() {
    if vkref::oracle::lavapipe().is_none() {
        return;
    }
    let tmp = std::env::temp_dir().join(format!("gcnc-compile-state-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let gcnc = |args: &[&std::ffi::OsStr]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_gcnc"))
            .args(args)
            .output()
            .unwrap()
    };
    for name in ["uniforms_push_spec", "tex_explicit_fetch_lod"] {
        let path = corpus().join(format!("{name}.json"));
        let d = Desc::load(&path).unwrap();
        let want = vkref::draw::run_draw(&d).unwrap();
        for (target, wave) in [("gfx900", 64), ("gfx1100", 32)] {
            let elf = tmp.join(format!("{name}-{target}.elf"));
            let out = tmp.join(format!("{name}-{target}"));
            let w = wave.to_string();
            let o = gcnc(&[
                "compile".as_ref(),
                d.vertex_spv.as_os_str(),
                d.fragment_spv.as_os_str(),
                "--state".as_ref(),
                path.as_os_str(),
                "--target".as_ref(),
                target.as_ref(),
                "--wave".as_ref(),
                w.as_ref(),
                "-o".as_ref(),
                elf.as_os_str(),
            ]);
            assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
            let o = gcnc(&[
                "draw".as_ref(),
                path.as_os_str(),
                "--elf".as_ref(),
                elf.as_os_str(),
                "--target".as_ref(),
                target.as_ref(),
                "--wave".as_ref(),
                w.as_ref(),
                "--out".as_ref(),
                out.as_os_str(),
            ]);
            assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
            compare_outputs(&d, &out, &want).unwrap_or_else(|e| panic!("{name} on {target}: {e}"));
        }
    }
    let path = corpus().join("uniforms_push_spec.json");
    let d = Desc::load(&path).unwrap();
    let with_spec = gcnc(&[
        "compile".as_ref(),
        d.vertex_spv.as_os_str(),
        d.fragment_spv.as_os_str(),
        "--state".as_ref(),
        path.as_os_str(),
        "--spec".as_ref(),
        "3=1".as_ref(),
        "--target".as_ref(),
        "gfx1030".as_ref(),
    ]);
    let one_shader = gcnc(&[
        "compile".as_ref(),
        d.fragment_spv.as_os_str(),
        "--state".as_ref(),
        path.as_os_str(),
        "--target".as_ref(),
        "gfx1030".as_ref(),
    ]);
    for o in [with_spec, one_shader] {
        assert!(!o.status.success());
        assert!(String::from_utf8_lossy(&o.stderr).contains("--state"));
    }
}

/// `subpassLoad` (fs_subpass, the image bound as an `input_attachment`) draws what
/// lavapipe draws for subpass_same_fs, the same read as `imageLoad` at FragCoord.xy of
/// the same image (lavapipe's draws have no render pass, so no input attachments), on
/// every configuration.
#[test]
fn subpass_loads_read_the_fragments_pixel() {
    if vkref::oracle::lavapipe().is_none() {
        return;
    }
    let same = corpus().join("subpass_same_fs.json");
    let want = vkref::draw::run_draw(&Desc::load(&same).unwrap()).unwrap();
    let text = std::fs::read_to_string(&same).unwrap();
    let subpass = text
        .replace("fs_subpass_same.spv", "fs_subpass.spv")
        .replace("\"storage_image\"", "\"input_attachment\"");
    assert_ne!(subpass, text);
    // beside the corpus (relative paths), not named .json (the corpus would run it)
    let path = corpus().join(format!("subpass-{}.tmp", std::process::id()));
    std::fs::write(&path, subpass).unwrap();
    let d = Desc::load(&path).unwrap();
    assert!(vkref::draw::run_draw(&d)
        .unwrap_err()
        .to_string()
        .contains("input attachments need a render pass"));
    let tmp = std::env::temp_dir().join(format!("gcnc-subpass-{}", std::process::id()));
    let mut failures = Vec::new();
    for (target, wave) in DRAW_CONFIGS {
        let out = tmp.join(format!("{target}-w{wave}"));
        if let Err(e) =
            gcnc_draw(&path, target, wave, &out).and_then(|()| compare_outputs(&d, &out, &want))
        {
            failures.push(format!("{target} w{wave}: {e}"));
        }
    }
    std::fs::remove_file(&path).unwrap();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
