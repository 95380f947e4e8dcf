//! Multiview through the graphics link (docs/link.md "Multiview"): a view mask in the
//! draw description, gl_ViewIndex read by the vertex and the fragment stage
//! (tests/shaders/draw_vertex/vs_multiview, fs_multiview; descriptions written by
//! multiview.py). Each description is compiled as a whole pipeline and as two unlinked
//! stages linked with the description's state (what `gcnc draw` and `gcnc draw
//! --unlinked` do), drawn on the emulator under its strict checks on gfx900 wave64,
//! gfx1030 wave32 and wave64, gfx1100 wave32 and wave64, and compared with lavapipe's
//! draw of the same description (dynamic rendering with the view mask); the whole and the
//! linked images must be byte-identical:
//! - `multiview_01`: views 0 and 1 into a 2-layer attachment;
//! - `multiview_02`: views 0 and 2 into a 3-layer attachment. Layer 1 is not rendered
//!   and, as Vulkan's load operations apply to the views of the mask only, not cleared
//!   by lavapipe either (its contents are undefined there), so it is not compared;
//! - `multiview_off`: the same shaders without a view mask (gl_ViewIndex is 0), so the
//!   stages' `gcnc.choice.multiview` literal is 0 there and 1 in the others.
//!
//! The vertex stage moves view v's geometry by v/8 of the viewport right and v/16 down;
//! the fragment stage writes blue 1/8 + view/4 and alpha 1 when the vertex stage saw the
//! same view. The test also checks lavapipe's images against that meaning.

use gcnc::compile_graphics_unlinked::compile_stage_unlinked;
use gcnc::ir::Stage;
use gcnc::isa::{Gen, Target, Wave};
use gcnc_emu::draw::{self, Draw};

mod backend_support;
use backend_support::CONFIGS;

fn dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/shaders/draw_vertex")
}

fn lavapipe_required() -> bool {
    let found = vkref::oracle::lavapipe().is_some();
    assert!(
        found || std::env::var("GCNC_REQUIRE_ORACLES").is_err(),
        "lavapipe is required"
    );
    found
}

fn words(p: &std::path::Path) -> Vec<u32> {
    gcnc::front::spirv::words_from_bytes(&std::fs::read(p).unwrap()).unwrap()
}

/// The pipeline ELF of `d` for `t`: the whole-pipeline compile, or (`unlinked`) each
/// stage compiled alone and linked with the description's graphics state.
fn pipeline(d: &Draw, t: Target, unlinked: bool) -> Result<Vec<u8>, String> {
    let (vs, fs) = (words(&d.vertex_spv), words(&d.fragment_spv));
    let opts = gcnc::Options::new(t);
    if !unlinked {
        return gcnc::compile_graphics::compile_pipeline(&vs, &fs, &opts, &d.graphics_state())
            .map(|c| c.elf)
            .map_err(|e| e.to_string());
    }
    let v = compile_stage_unlinked(&vs, Stage::Vertex, &opts).map_err(|e| e.to_string())?;
    let f = compile_stage_unlinked(&fs, Stage::Fragment, &opts).map_err(|e| e.to_string())?;
    let state = gcnc::link::PipelineState {
        graphics: Some(gcnc::link::state::GraphicsLinkState::from_state(
            &d.graphics_state(),
        )),
        ..Default::default()
    };
    gcnc::link::link(&[&v.elf, &f.elf], &state, &gcnc::parts::PartCache::new())
        .map(|l| l.elf)
        .map_err(|e| e.to_string())
}

/// Colour attachment 0 of `d` drawn on the emulator with `elf`.
fn emulate(d: &Draw, elf: &[u8], wave: Wave) -> Result<Vec<u8>, String> {
    let p = draw::Pipeline::from_elf(elf, Some(wave)).map_err(|e| e.to_string())?;
    let (img, _) = draw::run(&p, d, &draw::launch::entries(d), &draw::Options::default())
        .map_err(|e| e.to_string())?;
    Ok(img.color[0].clone())
}

fn texels(bytes: &[u8]) -> Vec<[f32; 4]> {
    bytes
        .chunks(16)
        .map(|c| {
            std::array::from_fn(|k| f32::from_le_bytes(c[4 * k..4 * k + 4].try_into().unwrap()))
        })
        .collect()
}

/// R32G32B32A32_SFLOAT images equal within the draw tests' float tolerance (2^-10
/// relative: interpolation order differs between the emulator and llvmpipe), in the
/// layers `d` renders (every layer without multiview; the views of its mask with).
fn same_image(d: &Draw, got: &[u8], want: &[u8]) -> Result<(), String> {
    if got.len() != want.len() {
        return Err(format!("{} bytes, lavapipe {}", got.len(), want.len()));
    }
    let (width, px) = (d.width, (d.width * d.height) as usize);
    let views = d.views();
    for (i, (a, b)) in texels(got).iter().zip(texels(want)).enumerate() {
        if d.desc.view_mask != 0 && !views.contains(&((i / px) as u32)) {
            continue;
        }
        for k in 0..4 {
            let tol = 2f32.powi(-10) * a[k].abs().max(b[k].abs()).max(1.0);
            if (a[k] - b[k]).abs() > tol {
                let (l, x, y) = (i / px, i % px % width as usize, i % px / width as usize);
                return Err(format!(
                    "layer {l} texel ({x}, {y}) channel {k}: {a:?} vs lavapipe {b:?}"
                ));
            }
        }
    }
    Ok(())
}

#[test]
fn multiview_draws_each_view_into_its_layer_as_lavapipe_does() {
    if !lavapipe_required() {
        return;
    }
    let mut failures = Vec::new();
    for (name, mask, layers) in [
        ("multiview_01", 0b11u32, 2u32),
        ("multiview_02", 0b101, 3),
        ("multiview_off", 0, 1),
    ] {
        let d = draw::Desc::load(&dir().join(format!("{name}.json"))).unwrap();
        assert_eq!((d.desc.view_mask, d.layers()), (mask, layers), "{name}");
        let want = vkref::draw::run_draw(&d).unwrap_or_else(|e| panic!("{name}: {e}"));
        // lavapipe's image means what the shaders say: view v in layer v, nothing else
        let px = (d.width * d.height) as usize;
        let lv = texels(&want.color[0]);
        assert_eq!(lv.len(), px * layers as usize, "{name}");
        for l in 0..layers as usize {
            if mask != 0 && mask >> l & 1 == 0 {
                continue; // neither rendered nor cleared: undefined
            }
            let drawn: Vec<&[f32; 4]> = lv[l * px..(l + 1) * px]
                .iter()
                .filter(|t| t[3] != 0.0)
                .collect();
            assert!(!drawn.is_empty(), "{name}: layer {l} is empty");
            for t in drawn {
                assert_eq!(t[2], 0.125 + 0.25 * l as f32, "{name}: layer {l}: {t:?}");
                assert_eq!(t[3], 1.0, "{name}: layer {l}: both stages' view: {t:?}");
            }
        }
        for (gen, wave) in CONFIGS {
            let t = Target { gen, wave };
            let cfg = format!("{name} on {} {wave:?}", gen.mcpu());
            let run = |unlinked| pipeline(&d, t, unlinked).and_then(|e| emulate(&d, &e, wave));
            match (run(false), run(true)) {
                (Ok(w), Ok(u)) => {
                    if let Err(e) = same_image(&d, &w, &want.color[0]) {
                        failures.push(format!("{cfg}, whole: {e}"));
                    }
                    if w != u {
                        failures.push(format!("{cfg}: whole and linked images differ"));
                    }
                }
                (w, u) => {
                    failures.push(format!("{cfg}: whole {:?}, linked {:?}", w.err(), u.err()))
                }
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

/// A vertex stage that does not read gl_ViewIndex (vs_color, with fs_color): compiled
/// alone it keeps no view index for the layer export, so linking it into a multiview
/// pipeline is refused with a reason naming gl_ViewIndex; the whole-pipeline compile
/// knows the view mask and keeps the ViewId SGPR (`LinkTime::vs_view_index`), and draws
/// as lavapipe does (views 0 and 2 into their layers).
#[test]
fn a_vertex_stage_not_reading_the_view_links_only_in_a_whole_pipeline() {
    let src = std::fs::read_to_string(dir().join("multiview_02.json")).unwrap();
    let path_of = |n: &str| format!("{:?}", dir().join("../draw").join(n).display().to_string());
    let text = src
        .replace("\"vs_multiview.spv\"", &path_of("vs_color.spv"))
        .replace("\"fs_multiview.spv\"", &path_of("fs_color.spv"));
    assert_ne!(text, src);
    let tmp = std::env::temp_dir().join(format!("gcnc-multiview-plain-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let path = tmp.join("desc.json");
    std::fs::write(&path, text).unwrap();
    let d = draw::Desc::load(&path).unwrap();
    let want = lavapipe_required().then(|| vkref::draw::run_draw(&d).unwrap());
    for (gen, wave) in [
        (Gen::Gfx9, Wave::W64),
        (Gen::Gfx10, Wave::W32),
        (Gen::Gfx11, Wave::W32),
        (Gen::Gfx11, Wave::W64),
    ] {
        let t = Target { gen, wave };
        let err = pipeline(&d, t, true).expect_err("refused");
        assert!(err.contains("gl_ViewIndex"), "{gen:?} {wave:?}: {err}");
        let whole = pipeline(&d, t, false)
            .and_then(|e| emulate(&d, &e, wave))
            .unwrap();
        if let Some(want) = &want {
            same_image(&d, &whole, &want.color[0])
                .unwrap_or_else(|e| panic!("{gen:?} {wave:?}: {e}"));
        }
    }
}
