//! The fragment stage's sample and coverage outputs (docs/draw.md "Sample mask, alpha to
//! coverage, write masks"): each pipeline below, from tests/shaders/draw (GLSL + SPIR-V,
//! written by msaa.py), drawn whole-pipeline and `--unlinked` on every draw configuration
//! (gfx900 wave64, gfx1030 and gfx1100 wave32 and wave64), equal to lavapipe sample by
//! sample, and then checked against the definition it tests:
//!
//! - gl_SampleMask (msaa4_sample_mask*): a written sample's bit is set in the mask the
//!   shader computes for its pixel (and, per sample, its own invocation's); some covered
//!   samples are masked out. The pipeline ELF's SPI_SHADER_Z_FORMAT is UINT16_ABGR for the
//!   mask alone and 32_ABGR beside gl_FragDepth, DB_SHADER_CONTROL.MASK_EXPORT_ENABLE
//!   (bit 8) is set, read with llvm-readelf-19.
//! - Alpha to coverage (msaa4_a2c*: five quads of alpha k/4): every fully covered pixel
//!   of quad k holds exactly samples 0..k (with gl_SampleMask, those the mask keeps);
//!   DB_ALPHA_TO_MASK is RADV's dithered value; on gfx1100 the MRT0 alpha rides in the
//!   MRTZ export beside the sample mask (SPI_SHADER_Z_FORMAT 32_ABGR), on gfx900 and
//!   gfx1030 not (UINT16_ABGR).
//! - Write masks (write_mask_rgba8, write_mask_mrt): CB_TARGET_MASK holds each
//!   attachment's write mask and CB_SHADER_MASK the exported channels; a masked channel
//!   keeps the clear value at every pixel, an unmasked one is drawn.
//! - Sample locations in a fragment shader compiled alone (msaa4_interp_sample:
//!   gl_SamplePosition and interpolateAtSample): the link resolves the two words of the
//!   location table from the state's sample count, and refuses a state without one.

mod draw_support;

use draw_support::{
    compare_outputs, gcnc_draw_with, lavapipe_required, pal_register, pipeline_notes, DRAW_CONFIGS,
};
use gcnc_emu::draw::{Desc, Draw};
use std::path::{Path, PathBuf};

fn corpus(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/shaders/draw")
        .join(format!("{name}.json"))
}

fn tmp(what: &str) -> PathBuf {
    std::env::temp_dir().join(format!("gcnc-draw-coverage-{what}-{}", std::process::id()))
}

/// Draws corpus pipeline `name` whole and `--unlinked` on every configuration, compares
/// both with lavapipe, and hands each run's output directory to `check`.
fn draw_everywhere(name: &str, check: &dyn Fn(&str, &Path)) {
    let path = corpus(name);
    let d = Desc::load(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
    let want = lavapipe_required()
        .then(|| vkref::draw::run_draw(&d).unwrap_or_else(|e| panic!("{name}: lavapipe: {e}")));
    let dir = tmp(name);
    let mut failures = Vec::new();
    for (target, wave) in DRAW_CONFIGS {
        for (how, extra) in [("whole", &[][..]), ("unlinked", &["--unlinked"][..])] {
            let cfg = format!("{name} on {target} w{wave} {how}");
            let out = dir.join(format!("{target}-w{wave}-{how}"));
            let r = gcnc_draw_with(&path, target, wave, &out, extra).and_then(|()| match &want {
                Some(w) => compare_outputs(&d, &out, w),
                None => Ok(()),
            });
            match r {
                Ok(()) => check(&cfg, &out),
                Err(e) => failures.push(format!("{cfg}: {e}")),
            }
        }
    }
    assert!(
        failures.is_empty(),
        "outputs in {}:\n{}",
        dir.display(),
        failures.join("\n")
    );
}

/// The samples of an RGBA attachment of `bpp` bytes per pixel: `planes[s][pixel]`.
fn planes(out: &Path, d: &Draw, bpp: usize) -> Vec<Vec<Vec<u8>>> {
    let raw = std::fs::read(out.join("color_0.raw")).unwrap();
    let n = (d.width * d.height) as usize;
    assert_eq!(raw.len(), n * bpp * d.desc.samples as usize);
    raw.chunks(n * bpp)
        .map(|p| p.chunks(bpp).map(<[u8]>::to_vec).collect())
        .collect()
}

/// `(x, y)` of pixel `i`.
fn xy(d: &Draw, i: usize) -> (i32, i32) {
    ((i as u32 % d.width) as i32, (i as u32 / d.width) as i32)
}

/// Checks that every sample the draw wrote has its bit in `mask(x, y, s)`, and that at
/// least `min_masked` samples the same draw without the mask writes are left clear.
fn check_masked(name: &str, bpp: usize, mask: &dyn Fn(i32, i32, usize) -> u32) {
    let d = Desc::load(&corpus(name)).unwrap();
    let clear = gcnc_emu::draw::output::encode(
        d.desc.color_attachments[0].format,
        d.desc.color_attachments[0].clear.map(|x| x as f32),
    );
    draw_everywhere(name, &|cfg, out| {
        let p = planes(out, &d, bpp);
        let (mut written, mut kept_out) = (0, 0);
        for i in 0..(d.width * d.height) as usize {
            let (x, y) = xy(&d, i);
            let any = (0..4).any(|s| p[s][i] != clear);
            for (s, plane) in p.iter().enumerate() {
                let bit = mask(x, y, s) >> s & 1 == 1;
                if plane[i] != clear {
                    written += 1;
                    assert!(
                        bit,
                        "{cfg}: pixel ({x}, {y}) sample {s} written, mask bit clear"
                    );
                } else if any && !bit {
                    kept_out += 1;
                }
            }
        }
        assert!(written > 200, "{cfg}: {written} samples written");
        assert!(kept_out > 50, "{cfg}: {kept_out} samples masked out");
    });
}

#[test]
fn gl_sample_mask_is_anded_with_coverage() {
    check_masked("msaa4_sample_mask", 4, &|x, y, _| {
        ((x * 5 + y * 3) & 0xf) as u32
    });
}

#[test]
fn gl_sample_mask_beside_gl_frag_depth_is_anded_with_coverage() {
    check_masked("msaa4_sample_mask_depth", 16, &|x, y, _| {
        (!(x * 3 + y) & 0xf | 0x30) as u32
    });
}

#[test]
fn a_sample_rate_invocation_keeps_its_own_sample_if_its_mask_has_it() {
    check_masked("msaa4_sample_mask_sample", 16, &|x, y, s| {
        if (x + y + s as i32) % 3 == 0 {
            0
        } else {
            0xff
        }
    });
}

/// SPI_SHADER_Z_FORMAT and DB_SHADER_CONTROL as PAL register numbers.
const SPI_SHADER_Z_FORMAT: u32 = 0xa1c4;
const DB_SHADER_CONTROL: u32 = 0xa203;

/// The PAL registers of the pipeline `gcnc compile --state` builds for corpus pipeline
/// `name` on `target`, as llvm-readelf-19 prints them.
fn notes(name: &str, target: &str) -> String {
    let dir = tmp("regs");
    std::fs::create_dir_all(&dir).unwrap();
    let elf = dir.join(format!("{name}-{target}.elf"));
    pipeline_notes(&corpus(name), target, &elf)
}

#[test]
fn sample_mask_pipelines_set_the_z_format_and_mask_export_enable() {
    // (pipeline, SPI_SHADER_Z_FORMAT: 7 UINT16_ABGR, 9 32_ABGR, 0 ZERO, mask export)
    for (name, z, mask) in [
        ("msaa4_sample_mask", 7, true),
        ("msaa4_sample_mask_depth", 9, true),
        ("msaa4_edges", 0, false),
    ] {
        for target in ["gfx900", "gfx1030", "gfx1100"] {
            let n = notes(name, target);
            let at = format!("{name} on {target}");
            assert_eq!(pal_register(&n, SPI_SHADER_Z_FORMAT), Some(z), "{at}");
            let db = pal_register(&n, DB_SHADER_CONTROL).expect("DB_SHADER_CONTROL");
            assert_eq!(db >> 8 & 1 == 1, mask, "{at}: DB_SHADER_CONTROL {db:#x}");
        }
    }
}

/// The written samples (bit s) of each pixel of a 4x RGBA8 attachment.
fn written(d: &Draw, out: &Path) -> Vec<u8> {
    let clear = gcnc_emu::draw::output::encode(
        d.desc.color_attachments[0].format,
        d.desc.color_attachments[0].clear.map(|x| x as f32),
    );
    let p = planes(out, d, clear.len());
    (0..(d.width * d.height) as usize)
        .map(|i| (0..4).fold(0u8, |m, s| m | ((p[s][i] != clear) as u8) << s))
        .collect()
}

/// Checks alpha to coverage on the quads of msaa.py: every pixel whose four samples are
/// inside quad k (alpha k/4) holds exactly samples 0..k ANDed with `mask(x, y)`.
fn check_a2c(name: &str, mask: &dyn Fn(i32, i32) -> u8) {
    let d = Desc::load(&corpus(name)).unwrap();
    draw_everywhere(name, &|cfg, out| {
        let got = written(&d, out);
        let mut inside = 0;
        for k in 0..5i32 {
            for y in 2..=9 {
                for x in 5 * k + 1..=5 * k + 3 {
                    let i = (y as u32 * d.width + x as u32) as usize;
                    let want = ((1u32 << k) - 1) as u8 & mask(x, y);
                    assert_eq!(got[i], want, "{cfg}: pixel ({x}, {y}), alpha {k}/4");
                    inside += 1;
                }
            }
        }
        assert_eq!(inside, 5 * 8 * 3);
    });
}

#[test]
fn alpha_to_coverage_covers_k_samples_at_alpha_k_over_4() {
    check_a2c("msaa4_a2c", &|_, _| 0xf);
}

#[test]
fn alpha_to_coverage_and_gl_sample_mask_combine() {
    check_a2c("msaa4_a2c_mask", &|x, y| ((x * 5 + y * 3) & 0xf) as u8);
}

const DB_ALPHA_TO_MASK: u32 = 0xa2dc;

#[test]
fn alpha_to_coverage_pipelines_set_db_alpha_to_mask_and_gfx11_exports_alpha_with_mrtz() {
    for target in ["gfx900", "gfx1030", "gfx1100"] {
        let n = notes("msaa4_a2c", target);
        assert_eq!(
            pal_register(&n, DB_ALPHA_TO_MASK),
            Some(gcnc::binary::graphics::ALPHA_TO_MASK_DITHERED),
            "msaa4_a2c on {target}"
        );
        // no MRTZ export: the alpha is MRT0's on every generation
        assert_eq!(pal_register(&n, SPI_SHADER_Z_FORMAT), Some(0), "{target}");
        let n = notes("msaa4_a2c_mask", target);
        let z = if target == "gfx1100" { 9 } else { 7 };
        assert_eq!(
            pal_register(&n, SPI_SHADER_Z_FORMAT),
            Some(z),
            "a2c_mask on {target}"
        );
        let n = notes("msaa4_sample_mask", target);
        assert_eq!(pal_register(&n, DB_ALPHA_TO_MASK), None, "{target}");
    }
}

const CB_TARGET_MASK: u32 = 0xa08e;
const CB_SHADER_MASK: u32 = 0xa08f;

#[test]
fn write_masks_are_cb_target_mask_and_masked_channels_keep_the_clear_value() {
    // (pipeline, CB_TARGET_MASK, CB_SHADER_MASK): write_mask_rgba8 is RGBA8 with mask R|B
    // (FP16_ABGR: all four exported); write_mask_mrt masks attachment 0 entirely (no
    // export), 1 to alpha (32_AR) and 2 (R32_SFLOAT) to G|B, which it lacks (no export)
    for (name, target_mask, shader_mask) in [
        ("write_mask_rgba8", 0x5, 0xf),
        ("write_mask_mrt", 0x680, 0x90),
    ] {
        for target in ["gfx900", "gfx1030", "gfx1100"] {
            let n = notes(name, target);
            assert_eq!(
                pal_register(&n, CB_TARGET_MASK),
                Some(target_mask),
                "{name} {target}"
            );
            assert_eq!(
                pal_register(&n, CB_SHADER_MASK),
                Some(shader_mask),
                "{name} {target}"
            );
        }
    }
    let d = Desc::load(&corpus("write_mask_rgba8")).unwrap();
    let clear = gcnc_emu::draw::output::encode(
        d.desc.color_attachments[0].format,
        d.desc.color_attachments[0].clear.map(|x| x as f32),
    );
    draw_everywhere("write_mask_rgba8", &|cfg, out| {
        let raw = std::fs::read(out.join("color_0.raw")).unwrap();
        let mut drawn = [0; 4];
        for px in raw.chunks(4) {
            for c in 0..4 {
                drawn[c] += (px[c] != clear[c]) as u32;
            }
        }
        assert_eq!((drawn[1], drawn[3]), (0, 0), "{cfg}: G and A are masked");
        assert!(drawn[0] > 100 && drawn[2] > 100, "{cfg}: {drawn:?}");
    });
    draw_everywhere("write_mask_mrt", &|_, _| {});
}

#[test]
fn an_unlinked_fragment_shader_reads_the_sample_locations_the_link_places() {
    draw_everywhere("msaa4_interp_sample", &|_, _| {});
}

#[test]
fn a_link_without_the_sample_count_is_refused_for_sample_locations() {
    use gcnc::compile_graphics_unlinked::compile_stage_unlinked;
    use gcnc::ir::Stage;
    let d = Desc::load(&corpus("msaa4_interp_sample")).unwrap();
    let t = draw_support::config_target("gfx1030", 32);
    let opts = gcnc::Options::new(t);
    let words =
        |p: &Path| gcnc::front::spirv::words_from_bytes(&std::fs::read(p).unwrap()).unwrap();
    let vs = compile_stage_unlinked(&words(&d.vertex_spv), Stage::Vertex, &opts).unwrap();
    let fs = compile_stage_unlinked(&words(&d.fragment_spv), Stage::Fragment, &opts).unwrap();
    let mut st = d.graphics_state();
    for (samples, ok) in [(0, false), (4, true)] {
        st.samples = samples;
        let state = gcnc::link::PipelineState {
            graphics: Some(gcnc::link::state::GraphicsLinkState::from_state(&st)),
            ..Default::default()
        };
        let r = gcnc::link::link(
            &[vs.elf.as_slice(), fs.elf.as_slice()],
            &state,
            gcnc::parts::PartCache::global(),
        );
        match (r, ok) {
            (Ok(_), true) => {}
            (Err(e), false) => {
                let e = e.to_string();
                assert!(
                    e.contains("graphics.samples") && e.contains("sample count"),
                    "{e}"
                );
            }
            (r, _) => panic!("{samples} samples: {:?}", r.map(|_| ())),
        }
    }
}
