//! Multisampling beyond image equality (the msaa4_* pipelines of tests/shaders/draw are
//! compared with lavapipe sample by sample in draw_corpus.rs): what each sample holds by
//! Vulkan's definitions, and the pipeline register that asks for sample-rate shading.
//!
//! - msaa4_sample_id (gl_SampleID reads make the shader run once per sample): every
//!   sample s that the draw wrote holds red = s/8 and green = (1 << s)/255 (the
//!   gl_SampleMaskIn of a per-sample invocation is its own bit), on every configuration;
//!   and the edges leave pixels with some samples written and some not.
//! - The pipeline ELF of a sample-rate shader has PA_SC_MODE_CNTL_1 (0x28A4C) with
//!   PS_ITER_SAMPLE (bit 16), read with llvm-readelf-19; one without (fs_color) leaves
//!   the register out.

mod draw_support;

use draw_support::{gcnc_draw, pal_register, pipeline_notes, DRAW_CONFIGS};
use std::path::{Path, PathBuf};

fn corpus(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/shaders/draw")
        .join(name)
}

/// PA_SC_MODE_CNTL_1 as the register number PAL metadata uses.
const PA_SC_MODE_CNTL_1: u32 = 0xa293;

#[test]
fn per_sample_invocations_see_their_sample_id_and_only_their_own_coverage_bit() {
    let desc = corpus("msaa4_sample_id.json");
    let d = gcnc_emu::draw::Desc::load(&desc).unwrap();
    let (w, h) = (d.width as usize, d.height as usize);
    let clear = [0.1f32, 0.2, 0.3, 0.4];
    let tmp = std::env::temp_dir().join(format!("gcnc-draw-msaa-{}", std::process::id()));
    for (target, wave) in DRAW_CONFIGS {
        let out = tmp.join(format!("{target}-w{wave}"));
        gcnc_draw(&desc, target, wave, &out).unwrap_or_else(|e| panic!("{target}: {e}"));
        let raw = std::fs::read(out.join("color_0.raw")).unwrap();
        assert_eq!(raw.len(), 4 * w * h * 16, "four planes of RGBA32F");
        let px = |s: usize, i: usize| -> [f32; 4] {
            let at = ((s * w * h) + i) * 16;
            std::array::from_fn(|k| {
                f32::from_le_bytes(raw[at + 4 * k..at + 4 * k + 4].try_into().unwrap())
            })
        };
        let (mut written, mut partial) = (0, 0);
        for i in 0..w * h {
            let mut n = 0;
            for s in 0..4 {
                let c = px(s, i);
                if c == clear {
                    continue;
                }
                n += 1;
                assert_eq!(c[0], s as f32 * 0.125, "{target} pixel {i} sample {s}");
                assert_eq!(
                    c[1],
                    (1 << s) as f32 / 255.0,
                    "{target} pixel {i} sample {s}"
                );
            }
            written += n;
            partial += (n > 0 && n < 4) as u32;
        }
        assert!(written > 400, "{target}: {written} samples written");
        assert!(partial >= 10, "{target}: {partial} partly covered pixels");
    }
}

#[test]
fn sample_rate_shaders_set_ps_iter_sample_and_others_leave_the_register_out() {
    let tmp = std::env::temp_dir().join(format!("gcnc-msaa-regs-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    for (desc, iter) in [
        ("msaa4_sample_id.json", true),
        ("msaa4_sample_in.json", true),
        ("msaa4_edges.json", false),
        ("msaa4_mask_in.json", false),
    ] {
        for target in ["gfx900", "gfx1030", "gfx1100"] {
            let elf = tmp.join(format!("{desc}-{target}.elf"));
            let notes = pipeline_notes(&corpus(desc), target, &elf);
            let reg = pal_register(&notes, PA_SC_MODE_CNTL_1);
            if iter {
                assert_eq!(reg, Some(1 << 16), "{desc} on {target}");
            } else {
                assert_eq!(reg, None, "{desc} on {target}");
            }
        }
    }
}
