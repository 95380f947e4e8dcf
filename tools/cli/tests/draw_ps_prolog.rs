//! The PS prolog and the per-sample choice of the fragment stage (docs/link.md "The PS
//! prolog"), whole-pipeline and linked from unlinked stages, on every draw configuration,
//! with the emulator's strict checks (no unwritten-register read, hazard or outstanding
//! counter across the prolog's splice), against lavapipe, sample by sample (4x).
//!
//! - Forced per-sample interpolation (GL-style state beyond Vulkan, so lavapipe cannot
//!   be asked for it): `fs_force_sample` (a centre, a noperspective-centre and a centroid
//!   input, and gl_FrontFacing, which the prolog moves down) with the state on equals
//!   lavapipe's image of `fs_force_sample_ref`, the same shader with every input
//!   `sample`-decorated; with the state off it equals lavapipe's image of
//!   `fs_force_sample` itself. The two lavapipe images differ in hundreds of samples, so
//!   either comparison fails if the prolog does the other thing.
//! - Vulkan's sample shading (`min_sample_shading`): `fs_sample_mask_in` (gl_SampleMaskIn,
//!   not a sample-rate shader) compiled once; the link's `gcnc.choice.per_sample` gives
//!   each invocation its own sample's bit with sample shading and the pixel's coverage
//!   without, equal to lavapipe's image of the same description either way.

mod draw_support;

use draw_support::{compare_attachment, config_target, lavapipe_required, DRAW_CONFIGS};
use gcnc::amdgpu::abi_graphics::GraphicsState;
use gcnc::compile_graphics::compile_pipeline;
use gcnc::compile_graphics_unlinked::compile_stage_unlinked;
use gcnc::ir::Stage;
use gcnc::link::state::GraphicsLinkState;
use gcnc::link::PipelineState;
use gcnc_emu::draw::{self, Desc, Draw, Options, Pipeline};
use std::path::{Path, PathBuf};

const W: u32 = 20;
const H: u32 = 16;

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/shaders/draw")
}

/// Two triangles of a 4x RGBA32F draw, one facing each way, with slanted edges (partly
/// covered pixels, where centroid and sample locations differ). w = 1: with other w
/// lavapipe 22.3's `sample` perspective inputs divide by 1/w at the pixel centre rather
/// than at the sample (docs/link.md "The PS prolog", open questions), so perspective and
/// linear barycentrics agree here and the test tells them apart by their VGPRs only.
fn description(vs: &str, fs: &str, min_sample_shading: f32) -> Draw {
    // (x, y, z, w, r, g, b, a)
    let v: [[f32; 8]; 6] = [
        [-0.9, -0.85, 0.5, 1.0, 1.0, 0.0, 0.0, 1.0],
        [0.85, -0.6, 0.5, 1.0, 0.0, 1.0, 0.0, 0.5],
        [-0.7, 0.9, 0.5, 1.0, 0.0, 0.0, 1.0, 0.25],
        [0.9, 0.95, 0.4, 1.0, 0.5, 0.5, 0.0, 1.0],
        [0.1, 0.85, 0.4, 1.0, 0.0, 0.5, 0.5, 1.0],
        [0.95, -0.9, 0.4, 1.0, 0.5, 0.0, 0.5, 1.0],
    ];
    let f32s: Vec<String> = v.iter().flatten().map(|x| format!("{x}")).collect();
    let json = format!(
        r#"{{
  "vertex": {{"spv": "{vs}"}},
  "fragment": {{"spv": "{fs}"}},
  "vertex_buffers": [{{"binding": 0, "stride": 32, "f32": [{}]}}],
  "attributes": [
    {{"location": 0, "binding": 0, "format": "R32G32B32A32_SFLOAT", "offset": 0}},
    {{"location": 1, "binding": 0, "format": "R32G32B32A32_SFLOAT", "offset": 16}}
  ],
  "draw": {{"vertex_count": 6}},
  "viewport": {{"width": {W}, "height": {H}}},
  "samples": 4,
  "min_sample_shading": {min_sample_shading},
  "color_attachments": [{{"format": "R32G32B32A32_SFLOAT", "clear": [0.1, 0.2, 0.3, 0.4]}}]
}}"#,
        f32s.join(", ")
    );
    Desc::parse(&json)
        .and_then(|d| d.resolve(&corpus()))
        .unwrap_or_else(|e| panic!("{e}\n{json}"))
}

fn words(name: &str) -> Vec<u32> {
    let bytes = std::fs::read(corpus().join(name)).unwrap();
    gcnc::front::spirv::words_from_bytes(&bytes).unwrap()
}

fn lavapipe(d: &Draw) -> Vec<u8> {
    vkref::draw::run_draw(d).expect("lavapipe").color.remove(0)
}

/// Samples (RGBA32F) that differ between two images by more than the tolerance.
fn differing(a: &[u8], b: &[u8]) -> usize {
    let f = |x: &[u8]| f32::from_le_bytes(x.try_into().unwrap());
    a.chunks(16)
        .zip(b.chunks(16))
        .filter(|(p, q)| {
            (0..4).any(|k| (f(&p[4 * k..4 * k + 4]) - f(&q[4 * k..4 * k + 4])).abs() > 2e-3)
        })
        .count()
}

/// Draws `d` with `vs` + `fs` under `st` on every configuration, whole-pipeline and
/// linked, and compares each image with `want`; the failures.
fn draw_both_ways(
    d: &Draw,
    vs: &[u32],
    fs: &[u32],
    st: &GraphicsState,
    want: &[u8],
    what: &str,
) -> Vec<String> {
    let mut failures = Vec::new();
    let format = d.desc.color_attachments[0].format;
    for (gen, wave) in DRAW_CONFIGS {
        let t = config_target(gen, wave);
        let opts = gcnc::Options::new(t);
        let v = compile_stage_unlinked(vs, Stage::Vertex, &opts).unwrap();
        let f = compile_stage_unlinked(fs, Stage::Fragment, &opts).unwrap();
        let whole = compile_pipeline(vs, fs, &opts, st).map(|p| p.elf);
        let state = PipelineState {
            graphics: Some(GraphicsLinkState::from_state(st)),
            ..Default::default()
        };
        let linked = gcnc::link::link(&[&v.elf, &f.elf], &state, gcnc::parts::PartCache::global())
            .map(|l| l.elf);
        for (how, elf) in [
            ("whole", whole.map_err(|e| e.to_string())),
            ("linked", linked.map_err(|e| e.to_string())),
        ] {
            let run = elf.and_then(|elf| {
                let p = Pipeline::from_elf(&elf, Some(t.wave)).map_err(|e| e.to_string())?;
                draw::run(&p, d, &draw::launch::entries(d), &Options::default())
                    .map_err(|e| e.to_string())
            });
            if let Err(e) =
                run.and_then(|(img, _)| compare_attachment(format, W, &img.color[0], want))
            {
                failures.push(format!("{what} on {gen} w{wave} ({how}): {e}"));
            }
        }
    }
    failures
}

#[test]
fn forced_per_sample_interpolation_equals_sample_inputs_and_off_equals_centre_inputs() {
    if !lavapipe_required() {
        return;
    }
    let d = description("vs_interp.spv", "fs_force_sample.spv", 0.0);
    let centre = lavapipe(&d);
    let sample = lavapipe(&description(
        "vs_interp.spv",
        "fs_force_sample_ref.spv",
        0.0,
    ));
    let apart = differing(&centre, &sample);
    assert!(
        apart > 200,
        "centre and sample images differ in {apart} samples only"
    );
    let (vs, fs) = (words("vs_interp.spv"), words("fs_force_sample.spv"));
    let mut failures = Vec::new();
    for (force, want) in [(true, &sample), (false, &centre)] {
        let mut st = d.graphics_state();
        st.force_sample_interpolation = force;
        failures.extend(draw_both_ways(
            &d,
            &vs,
            &fs,
            &st,
            want,
            &format!("force_sample_interpolation={force}"),
        ));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn sample_shading_chooses_the_per_sample_mask_at_link() {
    if !lavapipe_required() {
        return;
    }
    let (vs, fs) = (words("vs_color.spv"), words("fs_sample_mask_in.spv"));
    let mut images = Vec::new();
    let mut failures = Vec::new();
    for min in [1.0, 0.0] {
        let d = description("vs_color.spv", "fs_sample_mask_in.spv", min);
        let st = d.graphics_state();
        assert_eq!(st.sample_shading, min > 0.0);
        let want = lavapipe(&d);
        failures.extend(draw_both_ways(
            &d,
            &vs,
            &fs,
            &st,
            &want,
            &format!("min_sample_shading={min}"),
        ));
        images.push(want);
    }
    let apart = differing(&images[0], &images[1]);
    assert!(apart > 200, "the two masks differ in {apart} samples only");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
