//! Graphics draws on the emulator, checked against lavapipe running the same draw
//! description: hand-written (llvm-mc-19) vertex + pixel pipelines in PAL ELFs drawing
//! interpolated-colour triangles into R8G8B8A8_UNORM on gfx900 wave64, gfx1030 wave32,
//! gfx1100 wave32 and wave64 (and the FP16 export path), equal to lavapipe's image from
//! GLSL shaders within ±1 per 8-bit channel (docs/draw.md).

mod draw_support;

use draw_support::emu_support::llvm;
use draw_support::*;
use gcnc::isa::{Gen, Target, Wave};
use gcnc_emu::draw::{self, Desc, Options, Pipeline};
use std::path::PathBuf;

fn temp_dir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("gcnc-draw-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn configs() -> Vec<Target> {
    vec![
        Target::with_wave(Gen::Gfx9, Wave::W64).unwrap(),
        Target::with_wave(Gen::Gfx10, Wave::W32).unwrap(),
        Target::with_wave(Gen::Gfx11, Wave::W32).unwrap(),
        Target::with_wave(Gen::Gfx11, Wave::W64).unwrap(),
    ]
}

const W: u32 = 40;
const H: u32 = 32;

fn emulate(t: Target, fp16: bool, dir: &std::path::Path) -> (Vec<u8>, draw::DrawStats) {
    let elf = pipeline_elf(t, fp16);
    let p = Pipeline::from_elf(&elf, None).unwrap_or_else(|e| panic!("{t:?}: {e}"));
    let d = Desc::parse(&desc_json("vs.spv", "fs.spv", W, H))
        .unwrap()
        .resolve(dir)
        .unwrap();
    let (img, stats) =
        draw::run(&p, &d, &[], &Options::default()).unwrap_or_else(|e| panic!("{t:?}: {e}"));
    std::fs::write(
        dir.join(format!("emu-{}-{}.png", t.gen.mcpu(), t.wave.lanes())),
        draw::png::encode(W, H, &img.color[0]),
    )
    .unwrap();
    (img.color[0].clone(), stats)
}

#[test]
fn hand_written_pipelines_draw_the_same_image_on_every_generation() {
    if !llvm() {
        return;
    }
    let dir = temp_dir("same");
    let (first, stats) = emulate(configs()[0], false, &dir);
    assert_eq!(stats.primitives, 3);
    assert!(stats.pixel_waves > 0 && stats.quads > 0);
    // the clear colour survives outside the triangles, the triangles are drawn
    let clear = [26u8, 51, 77, 255];
    assert_eq!(&first[..4], &clear, "pixel (0, 0) is outside every triangle");
    let drawn = first.chunks(4).filter(|p| *p != clear).count();
    assert!(drawn > 200, "{drawn} pixels drawn");
    for t in &configs()[1..] {
        let (img, _) = emulate(*t, false, &dir);
        assert_eq!(img, first, "{t:?} differs from gfx900");
    }
}

/// Largest per-channel difference between two RGBA8 images, and where.
fn max_diff(a: &[u8], b: &[u8]) -> (u8, usize) {
    a.iter()
        .zip(b)
        .enumerate()
        .map(|(i, (x, y))| (x.abs_diff(*y), i / 4))
        .max()
        .unwrap_or((0, 0))
}

fn lavapipe_image(dir: &std::path::Path, fp16: bool) -> Option<Vec<u8>> {
    vkref::oracle::lavapipe()?;
    glsl(dir, "col", "vert", VS_GLSL)?;
    glsl(dir, "col", "frag", FS_GLSL)?;
    let _ = fp16;
    std::fs::write(
        dir.join("draw.json"),
        desc_json("col.vert.spv", "col.frag.spv", W, H),
    )
    .unwrap();
    let d = Desc::load(&dir.join("draw.json")).unwrap();
    let out = vkref::draw::run_draw(&d).unwrap_or_else(|e| panic!("lavapipe: {e}"));
    std::fs::write(dir.join("lavapipe.png"), draw::png::encode(W, H, &out.color[0])).unwrap();
    Some(out.color[0].clone())
}

#[test]
fn emulated_draws_equal_lavapipe_within_one_lsb() {
    if !llvm() {
        return;
    }
    let dir = temp_dir("lvp");
    let Some(want) = lavapipe_image(&dir, false) else {
        return;
    };
    for t in configs() {
        for fp16 in [false, true] {
            let (got, _) = emulate(t, fp16, &dir);
            let (diff, px) = max_diff(&got, &want);
            assert!(
                diff <= 1,
                "{t:?} fp16 {fp16}: pixel ({}, {}) differs by {diff}: emulator {:?}, lavapipe {:?} (images in {})",
                px as u32 % W,
                px as u32 / W,
                &got[px * 4..px * 4 + 4],
                &want[px * 4..px * 4 + 4],
                dir.display()
            );
        }
    }
}

#[test]
fn gcnc_draw_writes_the_attachments_of_an_elf_pipeline() {
    if !llvm() {
        return;
    }
    let dir = temp_dir("cli");
    let t = configs()[2];
    std::fs::write(dir.join("p.elf"), pipeline_elf(t, false)).unwrap();
    std::fs::write(dir.join("d.json"), desc_json("vs.spv", "fs.spv", W, H)).unwrap();
    let out = dir.join("out");
    let gcnc = |extra: &[&str]| {
        let mut c = std::process::Command::new(env!("CARGO_BIN_EXE_gcnc"));
        c.arg("draw")
            .arg(dir.join("d.json"))
            .args(["--target", "gfx1100", "--out"])
            .arg(&out)
            .args(extra);
        c.output().unwrap()
    };
    let elf = dir.join("p.elf");
    let o = gcnc(&["--elf", elf.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stdout).contains("3 primitives"));
    let (want, _) = emulate(t, false, &dir);
    assert_eq!(std::fs::read(out.join("color_0.raw")).unwrap(), want);
    assert!(std::fs::read(out.join("color_0.png"))
        .unwrap()
        .starts_with(b"\x89PNG"));
    // the wrong target and a missing pipeline are errors, not panics
    let o = gcnc(&["--elf", elf.to_str().unwrap(), "--wave", "16"]);
    assert!(!o.status.success());
    let o = gcnc(&[]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success() && err.contains("--elf"), "{err}");
    std::fs::write(dir.join("bad.json"), "{\"vertex\": {\"spv\": \"x\"}, \"colour\": 1}").unwrap();
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_gcnc"))
        .arg("draw")
        .arg(dir.join("bad.json"))
        .args(["--target", "gfx900", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success() && err.contains("draw description"), "{err}");
}
