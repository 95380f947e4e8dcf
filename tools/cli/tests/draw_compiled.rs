//! Pipelines the compiler builds from the GLSL test shaders (tests/shaders/vert/gfx_vs_*,
//! tests/shaders/frag/gfx_fs_*) drawn on the emulator, with every strict check on, equal
//! lavapipe's image of the same draw description: gfx900 wave64 (hardware VS), gfx1030
//! and gfx1100 wave32 and wave64 (NGG vertex stage; GFX11 attributes through the
//! attribute ring). Float channels within 2^-10 relative (docs/draw.md).

use gcnc_emu::draw::{self, Desc, Pipeline};
use std::path::{Path, PathBuf};

fn shader(dir: &str, name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/shaders")
        .join(dir)
        .join(format!("{name}.spv"))
}

fn words(p: &Path) -> Vec<u32> {
    gcnc::front::spirv::words_from_bytes(&std::fs::read(p).unwrap()).unwrap()
}

/// One triangle (back-facing with counter-clockwise front faces) of gfx_vs_basic's
/// default-state vertex layout: vec3 position at offset 0, vec4 colour at 12, stride 28.
fn description(vs: &Path, fs: &Path) -> String {
    format!(
        r#"{{
  "vertex": {{"spv": "{}", "entry": "main"}},
  "fragment": {{"spv": "{}", "entry": "main"}},
  "vertex_buffers": [{{"binding": 0, "stride": 28, "rate": "vertex", "f32": [
     -0.8, -0.8, 0.25,  1, 0, 0, 1,
      0.8, -0.6, 0.5,   0, 1, 0, 1,
      0.0,  0.9, 0.75,  0, 0, 1, 1]}}],
  "attributes": [{{"location": 0, "binding": 0, "format": "R32G32B32_SFLOAT", "offset": 0}},
                 {{"location": 1, "binding": 0, "format": "R32G32B32A32_SFLOAT", "offset": 12}}],
  "draw": {{"vertex_count": 3}},
  "viewport": {{"width": 32, "height": 32}},
  "rasterization": {{"cull_mode": "none", "front_face": "counter_clockwise", "polygon_mode": "fill"}},
  "color_attachments": [{{"format": "R32G32B32A32_SFLOAT", "clear": [0, 0, 0, 0], "blend": null, "write_mask": 15}}],
  "depth_attachment": null
}}"#,
        vs.display(),
        fs.display()
    )
}

#[test]
fn compiled_pipelines_draw_what_lavapipe_draws() {
    if vkref::oracle::lavapipe().is_none() {
        return;
    }
    let dir = std::env::temp_dir().join(format!("gcnc-draw-compiled-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    use gcnc::isa::{Gen, Target, Wave};
    let targets = [
        (Gen::Gfx9, Wave::W64),
        (Gen::Gfx10, Wave::W32),
        (Gen::Gfx10, Wave::W64),
        (Gen::Gfx11, Wave::W32),
        (Gen::Gfx11, Wave::W64),
    ];
    let vs = shader("vert", "gfx_vs_basic");
    // FragCoord + FrontFacing; sample-rate interpolation + SampleID + SampleMaskIn
    for fs_name in ["gfx_fs_fragcoord", "gfx_fs_sample"] {
        let fs = shader("frag", fs_name);
        let path = dir.join(format!("{fs_name}.json"));
        std::fs::write(&path, description(&vs, &fs)).unwrap();
        let d = Desc::load(&path).unwrap();
        let want = vkref::draw::run_draw(&d).unwrap_or_else(|e| panic!("{fs_name}: lavapipe: {e}"));
        for (gen, wave) in targets {
            let c = gcnc::compile_graphics::compile_pipeline(
                &words(&vs),
                &words(&fs),
                &gcnc::Options::new(Target::with_wave(gen, wave).unwrap()),
                &Default::default(),
            )
            .unwrap_or_else(|e| panic!("{fs_name} on {gen:?}/{wave:?}: {e}"));
            let p = Pipeline::from_elf(&c.elf, None)
                .unwrap_or_else(|e| panic!("{fs_name} on {gen:?}/{wave:?}: {e}"));
            let (got, _) = draw::run(&p, &d, &[], &draw::Options::default())
                .unwrap_or_else(|e| panic!("{fs_name} on {gen:?}/{wave:?}: {e}"));
            let f32s = |b: &[u8]| -> Vec<f32> {
                b.chunks(4)
                    .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                    .collect()
            };
            let (a, b) = (f32s(&got.color[0]), f32s(&want.color[0]));
            assert_eq!(a.len(), b.len());
            let covered = b.chunks(4).filter(|p| p.iter().any(|v| *v != 0.0)).count();
            assert!(
                covered > 100,
                "{fs_name}: lavapipe drew only {covered} pixels"
            );
            for (k, (x, y)) in a.iter().zip(&b).enumerate() {
                assert!(
                    (x - y).abs() <= (2f32).powi(-10) * y.abs().max(1.0),
                    "{fs_name} on {gen:?}/{wave:?}: pixel {} channel {}: emulator {x}, lavapipe {y}",
                    k / 4,
                    k % 4
                );
            }
        }
    }
}
