//! The alpha test of the colour-export epilog (GL-style state, an extension beyond Vulkan;
//! docs/link.md "Graphics parts"), whole-pipeline and linked from unlinked stages, on every
//! draw configuration, against lavapipe: lavapipe cannot run an alpha test, so the
//! expected image is lavapipe's image of the same draw without it, each pixel whose own
//! alpha fails `alpha <func> reference` replaced by the clear colour. The attachment is
//! R32G32B32A32_SFLOAT, so the alpha lavapipe stored is the alpha the shader exported.
//!
//! The draw (`vs_color` / `fs_color` of tests/shaders/draw): a triangle whose alpha runs
//! from 0 to 1 across it and one of constant alpha 0.5 (exactly 0.5 everywhere, so
//! `equal` and `not_equal` against 0.5 have pixels on both sides). A pixel whose lavapipe
//! alpha lies within 2^-10 of the reference but is not exactly it is not compared: the
//! emulator's interpolation may round it to the other side.

mod draw_support;

use draw_support::{config_target, DRAW_CONFIGS};
use gcnc::amdgpu::abi_graphics::{AlphaTest, CompareFunc, GraphicsState};
use gcnc::compile_graphics::compile_pipeline;
use gcnc::compile_graphics_unlinked::compile_stage_unlinked;
use gcnc::ir::Stage;
use gcnc_emu::draw::{self, Desc, Draw, Options, Pipeline};
use std::path::Path;

const W: u32 = 32;
const H: u32 = 16;
const CLEAR: [f32; 4] = [0.1, 0.2, 0.3, -1.0];

fn corpus() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/shaders/draw")
}

fn description() -> Draw {
    // (x, y, z, w, r, g, b, a) per vertex
    let v: [[f32; 8]; 6] = [
        [-0.95, -0.9, 0.5, 1.0, 1.0, 0.0, 0.0, 0.0],
        [0.6, -0.95, 0.5, 1.0, 0.0, 1.0, 0.0, 1.0],
        [-0.9, 0.95, 0.5, 1.0, 0.0, 0.0, 1.0, 0.5],
        [0.1, 0.9, 0.4, 1.0, 0.5, 0.5, 0.0, 0.5],
        [0.95, -0.2, 0.4, 1.0, 0.0, 0.5, 0.5, 0.5],
        [0.95, 0.95, 0.4, 1.0, 0.5, 0.0, 0.5, 0.5],
    ];
    let f32s: Vec<String> = v.iter().flatten().map(|x| format!("{x}")).collect();
    let json = format!(
        r#"{{
  "vertex": {{"spv": "vs_color.spv"}},
  "fragment": {{"spv": "fs_color.spv"}},
  "vertex_buffers": [{{"binding": 0, "stride": 32, "f32": [{}]}}],
  "attributes": [
    {{"location": 0, "binding": 0, "format": "R32G32B32A32_SFLOAT", "offset": 0}},
    {{"location": 1, "binding": 0, "format": "R32G32B32A32_SFLOAT", "offset": 16}}
  ],
  "draw": {{"vertex_count": 6}},
  "viewport": {{"width": {W}, "height": {H}}},
  "color_attachments": [{{"format": "R32G32B32A32_SFLOAT", "clear": [{}, {}, {}, {}]}}]
}}"#,
        f32s.join(", "),
        CLEAR[0],
        CLEAR[1],
        CLEAR[2],
        CLEAR[3]
    );
    Desc::parse(&json)
        .and_then(|d| d.resolve(&corpus()))
        .unwrap_or_else(|e| panic!("{e}\n{json}"))
}

fn pixels(bytes: &[u8]) -> Vec<[f32; 4]> {
    bytes
        .chunks(16)
        .map(|p| {
            let c = |k: usize| f32::from_le_bytes(p[4 * k..4 * k + 4].try_into().unwrap());
            [c(0), c(1), c(2), c(3)]
        })
        .collect()
}

/// Compares the emulated image with lavapipe's under the test; the numbers of drawn
/// pixels compared and of those that passed.
fn check(got: &[u8], want: &[[f32; 4]], t: AlphaTest) -> Result<(usize, usize), String> {
    let reference = f32::from_bits(t.reference);
    let (mut compared, mut passed) = (0, 0);
    for (i, (g, w)) in pixels(got).iter().zip(want).enumerate() {
        let drawn = *w != CLEAR;
        let a = w[3];
        if drawn && a != reference && (a - reference).abs() < 2f32.powi(-10) {
            continue;
        }
        let keep = drawn && t.func.passes(a, reference);
        compared += drawn as usize;
        passed += keep as usize;
        let expect = if keep { *w } else { CLEAR };
        let close = g
            .iter()
            .zip(&expect)
            .all(|(x, y)| (x - y).abs() <= 2f32.powi(-10) * y.abs().max(1.0));
        if !close {
            return Err(format!(
                "pixel ({}, {}): {g:?}, expected {expect:?} (lavapipe alpha {a})",
                i as u32 % W,
                i as u32 / W
            ));
        }
    }
    Ok((compared, passed))
}

#[test]
fn the_alpha_test_kills_what_fails_it_whole_pipeline_and_linked() {
    if vkref::oracle::lavapipe().is_none() {
        assert!(
            std::env::var("GCNC_REQUIRE_ORACLES").is_err(),
            "lavapipe is required"
        );
        return;
    }
    let d = description();
    let want = vkref::draw::run_draw(&d).expect("lavapipe");
    let want = pixels(&want.color[0]);
    let drawn = want.iter().filter(|p| **p != CLEAR).count();
    assert!(drawn > 200, "{drawn} pixels drawn");
    let words = |name: &str| {
        let bytes = std::fs::read(corpus().join(name)).unwrap();
        gcnc::front::spirv::words_from_bytes(&bytes).unwrap()
    };
    let (vs, fs) = (words("vs_color.spv"), words("fs_color.spv"));
    let tests: Vec<AlphaTest> = CompareFunc::ALL
        .into_iter()
        .flat_map(|func| {
            // equality only against the constant triangle's 0.5
            let refs: &[f32] = match func {
                CompareFunc::Equal | CompareFunc::NotEqual => &[0.5],
                _ => &[0.5, 0.25],
            };
            refs.iter().map(move |r| AlphaTest {
                func,
                reference: r.to_bits(),
            })
        })
        .collect();
    let mut failures = Vec::new();
    let mut draws = 0;
    for (gen, wave) in DRAW_CONFIGS {
        let t = config_target(gen, wave);
        let opts = gcnc::Options::new(t);
        let v = compile_stage_unlinked(&vs, Stage::Vertex, &opts).unwrap();
        let f = compile_stage_unlinked(&fs, Stage::Fragment, &opts).unwrap();
        for &at in &tests {
            let mut st: GraphicsState = d.graphics_state();
            st.alpha_test = Some(at);
            let whole = compile_pipeline(&vs, &fs, &opts, &st).map(|p| p.elf);
            let state = gcnc::link::PipelineState {
                graphics: Some(gcnc::link::state::GraphicsLinkState::from_state(&st)),
                ..Default::default()
            };
            let linked =
                gcnc::link::link(&[&v.elf, &f.elf], &state, gcnc::parts::PartCache::global())
                    .map(|l| l.elf);
            for (how, elf) in [
                ("whole", whole.map_err(|e| e.to_string())),
                ("linked", linked.map_err(|e| e.to_string())),
            ] {
                let cfg = format!(
                    "{} {:?} on {gen} w{wave} ({how})",
                    at.func.name(),
                    f32::from_bits(at.reference)
                );
                let run = elf.and_then(|elf| {
                    let p = Pipeline::from_elf(&elf, Some(t.wave)).map_err(|e| e.to_string())?;
                    draw::run(&p, &d, &draw::launch::entries(&d), &Options::default())
                        .map_err(|e| e.to_string())
                });
                match run.and_then(|(img, _)| check(&img.color[0], &want, at)) {
                    Ok((compared, passed)) => {
                        draws += 1;
                        // the test neither keeps nor kills everything unless it must
                        let expect_some = at.func != CompareFunc::Never;
                        let expect_all = at.func == CompareFunc::Always;
                        if expect_some != (passed > 0) || expect_all != (passed == compared) {
                            failures.push(format!("{cfg}: {passed} of {compared} pixels passed"));
                        }
                    }
                    Err(e) => failures.push(format!("{cfg}: {e}")),
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(draws, 2 * tests.len() * DRAW_CONFIGS.len());
}
