//! Graphics draws on the emulator, checked against lavapipe running the same draw
//! description: pipelines gcnc compiles from GLSL (gfx900 with a hardware VS; gfx1030 and
//! gfx1100, wave32 and wave64, with an NGG vertex stage), and hand-written (llvm-mc-19)
//! vertex + pixel pipelines in PAL ELFs drawing
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
    let elf = pipeline_elf(t, Ps::fp16(fp16));
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
    assert_eq!(
        &first[..4],
        &clear,
        "pixel (0, 0) is outside every triangle"
    );
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

fn lavapipe_image(dir: &std::path::Path) -> Option<Vec<u8>> {
    vkref::oracle::lavapipe()?;
    glsl(dir, "col", "vert", VS_GLSL)?;
    glsl(dir, "col", "frag", FS_GLSL)?;
    std::fs::write(
        dir.join("draw.json"),
        desc_json("col.vert.spv", "col.frag.spv", W, H),
    )
    .unwrap();
    let d = Desc::load(&dir.join("draw.json")).unwrap();
    let out = vkref::draw::run_draw(&d).unwrap_or_else(|e| panic!("lavapipe: {e}"));
    std::fs::write(
        dir.join("lavapipe.png"),
        draw::png::encode(W, H, &out.color[0]),
    )
    .unwrap();
    Some(out.color[0].clone())
}

#[test]
fn emulated_draws_equal_lavapipe_within_one_lsb() {
    if !llvm() {
        return;
    }
    let dir = temp_dir("lvp");
    let Some(want) = lavapipe_image(&dir) else {
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
    std::fs::write(dir.join("p.elf"), pipeline_elf(t, Ps::SMOOTH)).unwrap();
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
    // without --elf the description's SPIR-V is compiled: here it does not exist
    let o = gcnc(&[]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success() && err.contains("vs.spv"), "{err}");
    std::fs::write(
        dir.join("bad.json"),
        "{\"vertex\": {\"spv\": \"x\"}, \"colour\": 1}",
    )
    .unwrap();
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_gcnc"))
        .arg("draw")
        .arg(dir.join("bad.json"))
        .args(["--target", "gfx900", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        !o.status.success() && err.contains("draw description"),
        "{err}"
    );
}

/// One state variation drawn by the same pipeline.
struct Case {
    name: &'static str,
    verts: Vec<f32>,
    topology: &'static str,
    state: &'static str,
    /// FP16_ABGR exports (16-bit float attachments) instead of 32_ABGR.
    fp16: bool,
}

fn cases() -> Vec<Case> {
    let (r, g, b) = (
        [1.0, 0.0, 0.0, 1.0],
        [0.0, 1.0, 0.0, 1.0],
        [0.0, 0.0, 1.0, 1.0],
    );
    // two triangles crossing in depth
    let crossing = [
        vertex(-0.9, -0.8, 0.1, 1.0, r),
        vertex(0.9, -0.6, 0.9, 1.0, r),
        vertex(0.0, 0.9, 0.5, 1.0, r),
        vertex(-0.8, 0.7, 0.9, 1.0, b),
        vertex(0.8, 0.8, 0.1, 2.0, g),
        vertex(0.1, -0.9, 0.3, 1.0, b),
    ]
    .concat();
    // a quad as a strip, and the same windings both ways for culling
    let strip = [
        vertex(-0.8, -0.8, 0.5, 1.0, r),
        vertex(-0.8, 0.8, 0.5, 1.0, g),
        vertex(0.0, -0.7, 0.5, 1.5, b),
        vertex(0.1, 0.8, 0.5, 1.0, r),
        vertex(0.8, -0.8, 0.5, 1.0, g),
        vertex(0.9, 0.6, 0.5, 1.0, b),
    ]
    .concat();
    let strip_again = strip.clone();
    // the same, half transparent
    let mut overlap = crossing.clone();
    for (i, x) in overlap.iter_mut().enumerate() {
        if i % 8 == 7 {
            *x = 0.5;
        }
    }
    vec![
        Case {
            name: "depth_less",
            verts: crossing.clone(),
            topology: "triangle_list",
            state: r#""color_attachments": [{"format": "R8G8B8A8_UNORM", "clear": [0, 0, 0, 1]}],
                "depth_attachment": {"format": "D32_SFLOAT", "clear": 1.0, "compare": "less"}"#,
            fp16: false,
        },
        Case {
            name: "blend_alpha",
            verts: overlap,
            topology: "triangle_list",
            state: r#""color_attachments": [{"format": "R8G8B8A8_UNORM", "clear": [0.2, 0.2, 0.2, 1],
                "blend": {"src": "SRC_ALPHA", "dst": "ONE_MINUS_SRC_ALPHA", "op": "ADD"}}]"#,
            fp16: false,
        },
        Case {
            name: "strip_cull_front_clockwise",
            verts: strip.clone(),
            topology: "triangle_strip",
            // the strip's triangles face back under clockwise: culling front keeps them
            state: r#""rasterization": {"cull_mode": "front", "front_face": "clockwise"},
                "color_attachments": [{"format": "R8G8B8A8_UNORM", "clear": [0, 0, 0, 1], "write_mask": 7}]"#,
            fp16: false,
        },
        Case {
            name: "strip_cull_back_rgba32f",
            verts: strip,
            topology: "triangle_strip",
            // and face front under counter_clockwise
            state: r#""rasterization": {"cull_mode": "back"},
                "color_attachments": [{"format": "R32G32B32A32_SFLOAT", "clear": [0, 0, 0, 0]}]"#,
            fp16: false,
        },
        Case {
            // triangles() winds both ways: some are culled, some drawn
            name: "mixed_winding_cull_back",
            verts: triangles(),
            topology: "triangle_list",
            state: r#""rasterization": {"cull_mode": "back"},
                "color_attachments": [{"format": "R8G8B8A8_UNORM", "clear": [0, 0, 0, 1]}]"#,
            fp16: false,
        },
        Case {
            name: "indexed_strip_with_restart_and_vertex_offset",
            verts: [vec![0.0; 16], strip_again].concat(),
            topology: "triangle_strip",
            state: r#""index_buffer": {"type": "uint16", "indices": [0, 1, 2, 3, 65535, 4, 5, 3, 2, 1]},
                "primitive_restart": true,
                "draw": {"index_count": 10, "vertex_offset": 2},
                "color_attachments": [{"format": "R8G8B8A8_UNORM", "clear": [0, 0, 0, 1]}]"#,
            fp16: false,
        },
        Case {
            name: "rgba16f_fp16_exports",
            verts: crossing,
            topology: "triangle_list",
            state: r#""color_attachments": [{"format": "R16G16B16A16_SFLOAT", "clear": [0.5, 0.25, 0, 1]}]"#,
            fp16: true,
        },
    ]
}

/// Compares attachment images: 8-bit channels within 1, float channels within
/// 2^-10 · max(1, |value|) — one f16 ulp at 1.0, and the interpolation differences of
/// lavapipe's plane equations near 0 (docs/draw.md).
fn assert_close(f: draw::desc::ColorFormat, got: &[u8], want: &[u8], what: &str) {
    if let Err(e) = compare_attachment(f, W, got, want) {
        panic!("{what}: {e}");
    }
}

#[test]
fn depth_blending_culling_strips_and_float_targets_equal_lavapipe() {
    if !llvm() || vkref::oracle::lavapipe().is_none() {
        return;
    }
    let dir = temp_dir("cases");
    if glsl(&dir, "col", "vert", VS_GLSL).is_none() || glsl(&dir, "col", "frag", FS_GLSL).is_none()
    {
        return;
    }
    for c in cases() {
        let json = case_json(
            "col.vert.spv",
            "col.frag.spv",
            W,
            H,
            &c.verts,
            c.topology,
            c.state,
        );
        let path = dir.join(format!("{}.json", c.name));
        std::fs::write(&path, json).unwrap();
        let d = Desc::load(&path).unwrap_or_else(|e| panic!("{}: {e}", c.name));
        let want =
            vkref::draw::run_draw(&d).unwrap_or_else(|e| panic!("{}: lavapipe: {e}", c.name));
        let f = d.desc.color_attachments[0].format;
        let px = f.bytes();
        let drawn = want.color[0]
            .chunks(px)
            .filter(|p| *p != &want.color[0][..px])
            .count();
        assert!(drawn > 20, "{}: lavapipe drew only {drawn} pixels", c.name);
        for t in configs() {
            let mut p = Pipeline::from_elf(&pipeline_elf(t, Ps::fp16(c.fp16)), None).unwrap();
            // the hand-written pipeline's CB_TARGET_MASK: the case's write mask
            p.cb_target_mask = d.desc.color_attachments[0].write_mask;
            let (got, _) = draw::run(&p, &d, &[], &Options::default())
                .unwrap_or_else(|e| panic!("{} {t:?}: {e}", c.name));
            let what = format!("{} on {t:?}", c.name);
            assert_close(f, &got.color[0], &want.color[0], &what);
            if let (Some(a), Some(b)) = (&got.depth, &want.depth) {
                assert_close(
                    draw::desc::ColorFormat::R32_SFLOAT,
                    a,
                    b,
                    &format!("{what} depth"),
                );
            }
        }
    }
}

#[test]
fn frag_depth_flat_linear_and_fragcoord_frontface_equal_lavapipe() {
    if !llvm() || vkref::oracle::lavapipe().is_none() {
        return;
    }
    let dir = temp_dir("inputs");
    let variants = [
        (
            "flat",
            Ps {
                interp: Interp::Flat,
                ..Ps::SMOOTH
            },
        ),
        (
            "linear",
            Ps {
                interp: Interp::Linear,
                ..Ps::SMOOTH
            },
        ),
        (
            "fragcoord",
            Ps {
                fragcoord: true,
                ..Ps::SMOOTH
            },
        ),
    ];
    for (name, ps) in variants {
        let (vs, fs) = glsl_pair(ps);
        if glsl(&dir, name, "vert", &vs).is_none() || glsl(&dir, name, "frag", &fs).is_none() {
            return;
        }
        let path = dir.join(format!("{name}.json"));
        let json = desc_json(
            &format!("{name}.vert.spv"),
            &format!("{name}.frag.spv"),
            W,
            H,
        );
        std::fs::write(&path, json).unwrap();
        let d = Desc::load(&path).unwrap();
        let want = vkref::draw::run_draw(&d).unwrap_or_else(|e| panic!("{name}: lavapipe: {e}"));
        for t in configs() {
            let p = Pipeline::from_elf(&pipeline_elf(t, ps), None).unwrap();
            let (got, _) = draw::run(&p, &d, &[], &Options::default())
                .unwrap_or_else(|e| panic!("{name} {t:?}: {e}"));
            assert_close(
                draw::desc::ColorFormat::R8G8B8A8_UNORM,
                &got.color[0],
                &want.color[0],
                &format!("{name} on {t:?}"),
            );
            if let (Some(a), Some(b)) = (&got.depth, &want.depth) {
                let f = draw::desc::ColorFormat::R32_SFLOAT;
                assert_close(f, a, b, &format!("{name} depth on {t:?}"));
            }
        }
    }
}

#[test]
fn instanced_draws_with_a_base_instance_equal_lavapipe() {
    if !llvm() || vkref::oracle::lavapipe().is_none() {
        return;
    }
    let dir = temp_dir("instanced");
    let vs = VS_GLSL
        .replace(
            "layout(location = 1) in vec4 col;",
            "layout(location = 1) in vec4 col;\nlayout(location = 2) in vec4 off;",
        )
        .replace(
            "gl_Position = pos;",
            "gl_Position = pos + vec4(off.xy, 0.0, 0.0);",
        );
    if glsl(&dir, "inst", "vert", &vs).is_none() || glsl(&dir, "inst", "frag", FS_GLSL).is_none() {
        return;
    }
    let r = [1.0, 0.0, 0.0, 1.0];
    let g = [0.0, 1.0, 0.0, 1.0];
    let small = [
        vertex(-0.9, -0.9, 0.5, 1.0, r),
        vertex(-0.9, -0.3, 0.5, 1.0, g),
        vertex(-0.3, -0.9, 0.5, 1.0, r),
    ]
    .concat();
    let verts: Vec<String> = small.iter().map(|x| x.to_string()).collect();
    // instance 0 is skipped by first_instance = 1: its offset must not show up
    let json = format!(
        r#"{{
  "vertex": {{"spv": "inst.vert.spv"}},
  "fragment": {{"spv": "inst.frag.spv"}},
  "vertex_buffers": [
    {{"binding": 0, "stride": 32, "f32": [{}]}},
    {{"binding": 1, "stride": 16, "rate": "instance",
      "f32": [0.0, 1.2, 0, 0,  0.0, 0.0, 0, 0,  0.6, 0.3, 0, 0,  1.1, 1.0, 0, 0]}}
  ],
  "attributes": [
    {{"location": 0, "binding": 0, "format": "R32G32B32A32_SFLOAT", "offset": 0}},
    {{"location": 1, "binding": 0, "format": "R32G32B32A32_SFLOAT", "offset": 16}},
    {{"location": 2, "binding": 1, "format": "R32G32B32A32_SFLOAT", "offset": 0}}
  ],
  "draw": {{"vertex_count": 3, "instance_count": 3, "first_instance": 1}},
  "viewport": {{"width": {W}, "height": {H}}},
  "color_attachments": [{{"format": "R8G8B8A8_UNORM", "clear": [0, 0, 0, 1]}}]
}}"#,
        verts.join(", ")
    );
    let path = dir.join("inst.json");
    std::fs::write(&path, json).unwrap();
    let d = Desc::load(&path).unwrap();
    let want = vkref::draw::run_draw(&d).unwrap_or_else(|e| panic!("lavapipe: {e}"));
    for t in configs() {
        let ps = Ps {
            instanced: true,
            ..Ps::SMOOTH
        };
        let p = Pipeline::from_elf(&pipeline_elf(t, ps), None).unwrap();
        let (got, stats) =
            draw::run(&p, &d, &[], &Options::default()).unwrap_or_else(|e| panic!("{t:?}: {e}"));
        assert_eq!(stats.primitives, 3, "{t:?}");
        assert_close(
            draw::desc::ColorFormat::R8G8B8A8_UNORM,
            &got.color[0],
            &want.color[0],
            &format!("instanced on {t:?}"),
        );
    }
    // the same draw compiled from the GLSL: InstanceID (v1 / NGG v8) + BaseInstance
    compiled_draws_equal(&path, &want.color[0], "inst");
}

/// Runs the triangles with shaders derived from the working ones; returns the error text.
fn broken(t: Target, vs: &str, ps: &str) -> String {
    let dir = temp_dir("broken");
    let p = Pipeline::from_elf(&pipeline_elf_from(t, Ps::SMOOTH, vs, ps), None).unwrap();
    let d = Desc::parse(&desc_json("vs.spv", "fs.spv", W, H))
        .unwrap()
        .resolve(&dir)
        .unwrap();
    match draw::run(&p, &d, &[], &Options::default()) {
        Ok(_) => panic!("{t:?}: the broken pipeline drew"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn broken_export_rules_are_reported_per_generation() {
    if !llvm() {
        return;
    }
    for t in configs() {
        let (vs, ps) = (vertex_text(t), pixel_text(t));
        // a pixel shader without its done export
        let no_done = ps.replace(" done", "");
        let e = broken(t, &vs, &no_done);
        assert!(e.contains("without a done export"), "{t:?}: {e}");
        // a vertex shader without its position export
        let no_pos = vs
            .lines()
            .filter(|l| !l.contains("exp pos0"))
            .collect::<Vec<_>>()
            .join("\n");
        let e = broken(t, &no_pos, &ps);
        assert!(e.contains("done position export"), "{t:?}: {e}");
        // a depth export the pipeline's SPI_SHADER_Z_FORMAT (ZERO) does not take
        let v = if t.gen == Gen::Gfx11 { "v6" } else { "v2" };
        let z = ps.replace(
            "exp mrt0",
            &format!("exp mrtz {v}, off, off, off\nexp mrt0"),
        );
        let e = broken(t, &vs, &z);
        assert!(e.contains("SPI_SHADER_Z_FORMAT"), "{t:?}: {e}");
        if t.gen == Gen::Gfx9 {
            continue;
        }
        // NGG: asking for one vertex too many
        let wrong = vs.replace(
            "s_or_b32 m0, s14, s13",
            "s_add_u32 s13, s13, 1\ns_or_b32 m0, s14, s13",
        );
        let e = broken(t, &wrong, &ps);
        assert!(e.contains("GS_ALLOC_REQ asked for"), "{t:?}: {e}");
        // NGG: no primitive export
        let no_prim = vs.replace("exp prim v21, off, off, off done", "");
        let e = broken(t, &no_prim, &ps);
        assert!(e.contains("no prim export"), "{t:?}: {e}");
    }
}

/// `gcnc draw` compiles the description's shaders and draws them on gfx900 wave64
/// (hardware VS), gfx1030 and gfx1100 wave32 and wave64 (NGG); each image equals `want`.
fn compiled_draws_equal(desc: &std::path::Path, want: &[u8], name: &str) {
    for (target, wave) in DRAW_CONFIGS {
        let out = desc.with_file_name(format!("{name}-{target}-{wave}"));
        gcnc_draw(desc, target, wave, &out)
            .unwrap_or_else(|e| panic!("{name} on {target} w{wave}: {e}"));
        let got = std::fs::read(out.join("color_0.raw")).unwrap();
        assert_close(
            draw::desc::ColorFormat::R8G8B8A8_UNORM,
            &got,
            want,
            &format!("{name} compiled on {target} w{wave}"),
        );
    }
}

#[test]
fn compiled_pipelines_draw_like_lavapipe() {
    if vkref::oracle::lavapipe().is_none() {
        return;
    }
    let dir = temp_dir("compiled");
    // the plain colour pair, and a fragment shader that discards (the valid mask)
    let discard = FS_GLSL.replace(
        "o = vcol;",
        "if (vcol.g > 0.4 && vcol.r < 0.5) discard; o = vcol.bgra;",
    );
    for (name, fs) in [("col", FS_GLSL.to_string()), ("discard", discard)] {
        if glsl(&dir, name, "vert", VS_GLSL).is_none() || glsl(&dir, name, "frag", &fs).is_none() {
            return;
        }
        let json = desc_json(
            &format!("{name}.vert.spv"),
            &format!("{name}.frag.spv"),
            W,
            H,
        );
        let desc = dir.join(format!("{name}.json"));
        std::fs::write(&desc, json).unwrap();
        let d = Desc::load(&desc).unwrap();
        let want = vkref::draw::run_draw(&d).unwrap_or_else(|e| panic!("{name}: lavapipe: {e}"));
        compiled_draws_equal(&desc, &want.color[0], name);
    }
}
