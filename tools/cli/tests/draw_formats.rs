//! The format matrix (issue 14's proof, docs/draw.md "Formats"): one vertex shader and one
//! fragment shader, each compiled once per configuration without pipeline state
//! (`compile_stage_unlinked`), linked with vertex-input states covering every vertex
//! format of `gcnc::amdgpu::vertex_format` (strides, attribute offsets, per-vertex and
//! per-instance rates) and with every colour attachment format of
//! `gcnc::amdgpu::attachment_format` (blended and not), each draw run on the emulator on
//! every draw configuration and compared with lavapipe within docs/draw.md's tolerances.
//!
//! The shaders: the vertex shader places triangle `t` of instance `n` over pixel (t, n)
//! and passes its float, unsigned and signed vec4 inputs (locations 0, 1, 2) flat to the
//! fragment shader, which writes them to colour outputs 0, 1, 2. Each pixel shows its
//! triangle's first (provoking) vertex.
//! - Vertex rows: the three inputs read the row's float-, uint- and sint-class formats
//!   (the shorter lists cycle) from bindings 0, 1, 2 at offsets and strides that vary by
//!   row, some bindings per instance; the attachments are R32G32B32A32 SFLOAT / UINT /
//!   SINT, so each fetched value lands exactly. The element bytes are a fixed xorshift
//!   stream (float formats: finite, normal values), written beside the description.
//! - Colour rows: the inputs are 32-bit vec4s (values inside every format's range); the
//!   attachments are the row's float-, uint- and sint-class formats, the float one blended
//!   (SRC_ALPHA, ONE_MINUS_SRC_ALPHA) on odd rows.
//! - Write-mask rows: the colour rows again, each attachment with a write mask from a
//!   cycle of masks (single channels, pairs, none), so the epilog drops channels, picks
//!   narrower 32-bit exports and leaves attachments unexported.
//! - Dual-source rows: every float-class format alone, blended with SRC1 factors (the
//!   pairs of factors cycle) by a second fragment shader, compiled once too, whose
//!   `Index` 1 output is the second source (`dual_src_blend0/1` on GFX11, `mrt1`
//!   before), some rows with a write mask.

mod draw_support;

use draw_support::{compare_attachment, config_target, glsl, DRAW_CONFIGS};
use gcnc::amdgpu::attachment_format::AttachmentFormat;
use gcnc::amdgpu::vertex_format::{Class, VertexFormat};
use gcnc::compile_graphics_unlinked::compile_stage_unlinked;
use gcnc::ir::Stage;
use gcnc::isa::BufNum;
use gcnc_emu::draw::{self, Desc, Draw, Options, Pipeline};
use std::path::Path;

const VS: &str = "#version 450
layout(location = 0) in vec4 f;
layout(location = 1) in uvec4 u;
layout(location = 2) in ivec4 i;
layout(location = 0) flat out vec4 of;
layout(location = 1) flat out uvec4 ou;
layout(location = 2) flat out ivec4 oi;
void main() {
    int t = gl_VertexIndex / 3;
    int c = gl_VertexIndex % 3;
    vec2 p = vec2(float(t), float(gl_InstanceIndex));
    p += vec2(c == 1 ? 1.4 : 0.1, c == 2 ? 1.4 : 0.1);
    gl_Position = vec4(p / vec2(8.0, 2.0) * 2.0 - 1.0, 0.5, 1.0);
    of = f;
    ou = u;
    oi = i;
}
";

const FS: &str = "#version 450
layout(location = 0) flat in vec4 f;
layout(location = 1) flat in uvec4 u;
layout(location = 2) flat in ivec4 i;
layout(location = 0) out vec4 c0;
layout(location = 1) out uvec4 c1;
layout(location = 2) out ivec4 c2;
void main() { c0 = f; c1 = u; c2 = i; }
";

/// The dual-source fragment shader: source 0 the float input, source 1 from the unsigned
/// one (colour 0..127/128, alpha 0..96/128).
const FS_DUAL: &str = "#version 450
layout(location = 0) flat in vec4 f;
layout(location = 1) flat in uvec4 u;
layout(location = 0, index = 0) out vec4 c0;
layout(location = 0, index = 1) out vec4 c1;
void main() { c0 = f; c1 = vec4(u.xyz, u.w * 32u) / 128.0; }
";

/// The write masks the mask rows cycle through (bit k: R, G, B, A).
const MASKS: [u32; 7] = [0b0001, 0b1010, 0b1000, 0b0110, 0b0000, 0b0011, 0b1101];

/// The (source, destination) factor pairs the dual-source rows cycle through.
const DUAL_FACTORS: [(&str, &str); 4] = [
    ("SRC1_COLOR", "ONE_MINUS_SRC1_ALPHA"),
    ("ONE_MINUS_SRC1_COLOR", "SRC1_ALPHA"),
    ("SRC1_ALPHA", "SRC1_COLOR"),
    ("ONE", "ONE_MINUS_SRC1_COLOR"),
];

/// Triangles per instance (pixels per row) and instances (rows).
const WIDTH: u32 = 8;
const INSTANCES: u32 = 2;
const VERTICES: u32 = 3 * WIDTH;

/// A deterministic byte stream (xorshift32).
struct Bytes(u32);

impl Bytes {
    fn next(&mut self) -> u32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 17;
        self.0 ^= self.0 << 5;
        self.0
    }

    /// `n` elements of `f`: random bits, float channels finite and normal.
    fn elements(&mut self, f: VertexFormat, n: u32, stride: u32, offset: u32) -> Vec<u8> {
        let mut out = vec![0u8; (n * stride) as usize];
        let size = f.bytes() / f.components().max(1);
        for e in 0..n {
            let at = (e * stride + offset) as usize;
            for b in &mut out[at..at + f.bytes() as usize] {
                *b = self.next() as u8;
            }
            if f.num() == BufNum::Float {
                for k in 0..f.components() as usize {
                    let c = at + k * size as usize;
                    let r = self.next();
                    // sign, a middling exponent, random mantissa
                    let bits: Vec<u8> = if size == 2 {
                        let h = (r & 0x83ff) as u16 | ((8 + r % 14) as u16) << 10;
                        h.to_le_bytes().to_vec()
                    } else {
                        let x = (r & 0x807f_ffff) | (110 + (r >> 8) % 40) << 23;
                        x.to_le_bytes().to_vec()
                    };
                    out[c..c + size as usize].copy_from_slice(&bits);
                }
            }
        }
        out
    }
}

/// The formats of one class, in table order.
fn vertex_class(c: Class) -> Vec<VertexFormat> {
    VertexFormat::ALL
        .iter()
        .copied()
        .filter(|f| f.class() == c)
        .collect()
}

fn attachment_class(c: Class) -> Vec<AttachmentFormat> {
    use gcnc::amdgpu::attachment_format::Num;
    AttachmentFormat::ALL
        .iter()
        .copied()
        .filter(|f| match c {
            Class::Uint => f.num() == Num::Uint,
            Class::Sint => f.num() == Num::Sint,
            Class::Float => !f.is_int(),
        })
        .collect()
}

/// One binding and its attribute, as description JSON.
struct Input {
    location: u32,
    format: VertexFormat,
    stride: u32,
    offset: u32,
    per_instance: bool,
    file: String,
}

fn desc_json(inputs: &[Input], attachments: &[String]) -> String {
    desc_json_fs(inputs, attachments, "formats.frag.spv")
}

fn desc_json_fs(inputs: &[Input], attachments: &[String], fs: &str) -> String {
    let buffers: Vec<String> = inputs
        .iter()
        .map(|i| {
            format!(
                r#"{{"binding": {}, "stride": {}, "rate": "{}", "file": "{}"}}"#,
                i.location,
                i.stride,
                if i.per_instance { "instance" } else { "vertex" },
                i.file
            )
        })
        .collect();
    let attrs: Vec<String> = inputs
        .iter()
        .map(|i| {
            format!(
                r#"{{"location": {0}, "binding": {0}, "format": "{1}", "offset": {2}}}"#,
                i.location,
                i.format.name(),
                i.offset
            )
        })
        .collect();
    format!(
        r#"{{
  "vertex": {{"spv": "formats.vert.spv"}},
  "fragment": {{"spv": "{fs}"}},
  "vertex_buffers": [{}],
  "attributes": [{}],
  "draw": {{"vertex_count": {VERTICES}, "instance_count": {INSTANCES}}},
  "viewport": {{"width": {WIDTH}, "height": {INSTANCES}}},
  "color_attachments": [{}]
}}"#,
        buffers.join(", "),
        attrs.join(", "),
        attachments.join(", ")
    )
}

/// Writes the bytes of each input and returns the description.
fn write_case(
    dir: &Path,
    name: &str,
    inputs: &mut [Input],
    attachments: &[String],
    seed: u32,
) -> Draw {
    let mut rng = Bytes(seed | 1);
    for i in inputs.iter_mut() {
        let n = if i.per_instance { INSTANCES } else { VERTICES };
        let bytes = rng.elements(i.format, n, i.stride, i.offset);
        i.file = format!("{name}-{}.bin", i.location);
        std::fs::write(dir.join(&i.file), bytes).unwrap();
    }
    let json = desc_json(inputs, attachments);
    std::fs::write(dir.join(format!("{name}.json")), &json).unwrap();
    Desc::parse(&json)
        .and_then(|d| d.resolve(dir))
        .unwrap_or_else(|e| panic!("{name}: {e}\n{json}"))
}

fn attachment(f: AttachmentFormat, blend: bool) -> String {
    let blend = if blend {
        r#"{"src": "SRC_ALPHA", "dst": "ONE_MINUS_SRC_ALPHA", "op": "ADD"}"#
    } else {
        "null"
    };
    attachment_with(f, blend, 0xf)
}

/// An attachment with blend state `blend` (JSON) and write mask `mask`.
fn attachment_with(f: AttachmentFormat, blend: &str, mask: u32) -> String {
    let clear = if f.is_int() {
        "[1, 2, 3, 1]"
    } else {
        "[0.25, 0.5, 0.75, 0.5]"
    };
    format!(
        r#"{{"format": "{}", "clear": {clear}, "blend": {blend}, "write_mask": {mask}}}"#,
        f.name()
    )
}

/// Every case: (name, description).
fn cases(dir: &Path) -> Vec<(String, Draw)> {
    let mut out = Vec::new();
    let classes = [Class::Float, Class::Uint, Class::Sint];
    // vertex rows
    let lists = classes.map(vertex_class);
    let rows = lists.iter().map(Vec::len).max().unwrap();
    let targets = [
        AttachmentFormat::R32G32B32A32_SFLOAT,
        AttachmentFormat::R32G32B32A32_UINT,
        AttachmentFormat::R32G32B32A32_SINT,
    ]
    .map(|f| attachment(f, false));
    for r in 0..rows {
        let mut inputs: Vec<Input> = (0..3)
            .map(|k| {
                let format = lists[k][r % lists[k].len()];
                let offset = 4 * ((r + k) % 3) as u32;
                let stride = (offset + format.bytes()).next_multiple_of(4) + 4 * (r % 2) as u32;
                Input {
                    location: k as u32,
                    format,
                    stride,
                    offset,
                    per_instance: (r + k) % 4 == 3,
                    file: String::new(),
                }
            })
            .collect();
        let name = format!(
            "vertex-{}-{}-{}",
            inputs[0].format.name(),
            inputs[1].format.name(),
            inputs[2].format.name()
        );
        let d = write_case(dir, &name, &mut inputs, &targets, 0x9e37_79b9 ^ r as u32);
        out.push((name, d));
    }
    // colour rows: 32-bit inputs with in-range values
    let lists = classes.map(attachment_class);
    let rows = lists.iter().map(Vec::len).max().unwrap();
    let base = [
        VertexFormat::R32G32B32A32_SFLOAT,
        VertexFormat::R32G32B32A32_UINT,
        VertexFormat::R32G32B32A32_SINT,
    ];
    for r in 0..2 * rows + lists[0].len() {
        // the colour rows, then with write masks, then the dual-source rows
        let (masked, dual) = (r >= rows && r < 2 * rows, r >= 2 * rows);
        let formats: Vec<AttachmentFormat> = if dual {
            vec![lists[0][r - 2 * rows]]
        } else {
            (0..3).map(|k| lists[k][r % lists[k].len()]).collect()
        };
        let blend = |k: usize| k == 0 && r % 2 == 1;
        let mask = |k: usize| {
            if masked {
                MASKS[(r + 2 * k) % MASKS.len()]
            } else {
                0xf
            }
        };
        let (atts, name): (Vec<String>, String) = if dual {
            let (src, dst) = DUAL_FACTORS[r % DUAL_FACTORS.len()];
            let b = format!(r#"{{"src": "{src}", "dst": "{dst}", "op": "ADD"}}"#);
            let m = if r % 3 == 0 { 0b1011 } else { 0xf };
            (
                vec![attachment_with(formats[0], &b, m)],
                format!("dual-{}-{src}-{dst}-mask{m:x}", formats[0].name()),
            )
        } else {
            let atts = formats
                .iter()
                .enumerate()
                .map(|(k, &f)| {
                    let b = if blend(k) {
                        r#"{"src": "SRC_ALPHA", "dst": "ONE_MINUS_SRC_ALPHA", "op": "ADD"}"#
                    } else {
                        "null"
                    };
                    attachment_with(f, b, mask(k))
                })
                .collect();
            let name = format!(
                "color-{}-{}-{}{}{}",
                formats[0].name(),
                formats[1].name(),
                formats[2].name(),
                if r % 2 == 1 { "-blend" } else { "" },
                if masked {
                    format!("-masks{:x}{:x}{:x}", mask(0), mask(1), mask(2))
                } else {
                    String::new()
                }
            );
            (atts, name)
        };
        let mut rng = Bytes(0x2545_f491 ^ r as u32);
        let mut inputs = Vec::new();
        for (k, &format) in base.iter().enumerate() {
            let file = format!("{name}-{k}.bin");
            let mut bytes = Vec::new();
            for _ in 0..VERTICES {
                for c in 0..4 {
                    let x = rng.next();
                    let v: u32 = match k {
                        // [-0.25, 1.25): clamping in normalized formats
                        0 => (-0.25 + 1.5 * (x % 1024) as f32 / 1024.0).to_bits(),
                        // alpha fits 2 bits (A2B10G10R10_UINT), colour 7 bits
                        1 if c == 3 => x % 4,
                        1 => x % 128,
                        _ if c == 3 => ((x % 4) as i32 - 2) as u32,
                        _ => ((x % 128) as i32 - 64) as u32,
                    };
                    bytes.extend(v.to_le_bytes());
                }
            }
            std::fs::write(dir.join(&file), bytes).unwrap();
            inputs.push(Input {
                location: k as u32,
                format,
                stride: 16,
                offset: 0,
                per_instance: false,
                file,
            });
        }
        let fs = if dual {
            "formats_dual.frag.spv"
        } else {
            "formats.frag.spv"
        };
        let json = desc_json_fs(&inputs, &atts, fs);
        std::fs::write(dir.join(format!("{name}.json")), &json).unwrap();
        let d = Desc::parse(&json)
            .and_then(|d| d.resolve(dir))
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        out.push((name, d));
    }
    out
}

#[test]
fn every_vertex_and_colour_format_links_from_one_unlinked_pair_and_equals_lavapipe() {
    let dir = std::env::temp_dir().join(format!("gcnc-draw-formats-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (Some(vs), Some(fs), Some(fs_dual)) = (
        glsl(&dir, "formats", "vert", VS),
        glsl(&dir, "formats", "frag", FS),
        glsl(&dir, "formats_dual", "frag", FS_DUAL),
    ) else {
        return;
    };
    if !draw_support::lavapipe_required() {
        return;
    }
    let words =
        |p: &Path| gcnc::front::spirv::words_from_bytes(&std::fs::read(p).unwrap()).unwrap();
    let (vs, fs, fs_dual) = (words(&vs), words(&fs), words(&fs_dual));
    let cases = cases(&dir);
    // every format of both tables appears in some row
    for &f in VertexFormat::ALL {
        assert!(
            cases
                .iter()
                .any(|c| c.1.desc.attributes.iter().any(|a| a.format == f)),
            "{f:?}"
        );
    }
    for &f in AttachmentFormat::ALL {
        let used = |c: &(String, Draw)| c.1.desc.color_attachments.iter().any(|a| a.format == f);
        assert!(cases.iter().any(used), "{f:?}");
        // and every blendable one as the attachment of a dual-source row
        let dual = |c: &(String, Draw)| {
            c.1.desc
                .color_attachments
                .iter()
                .any(|a| a.format == f && a.dual_source())
        };
        assert!(!f.blendable() || cases.iter().any(dual), "{f:?}");
    }
    let want: Vec<_> = cases
        .iter()
        .map(|(name, d)| {
            vkref::draw::run_draw(d).unwrap_or_else(|e| panic!("{name}: lavapipe: {e}"))
        })
        .collect();
    let mut failures = Vec::new();
    let mut draws = 0;
    for (gen, wave) in DRAW_CONFIGS {
        let t = config_target(gen, wave);
        let opts = gcnc::Options::new(t);
        // each stage compiled once for the configuration
        let v = compile_stage_unlinked(&vs, Stage::Vertex, &opts).unwrap();
        let f_plain = compile_stage_unlinked(&fs, Stage::Fragment, &opts).unwrap();
        let f_dual = compile_stage_unlinked(&fs_dual, Stage::Fragment, &opts).unwrap();
        for ((name, d), want) in cases.iter().zip(&want) {
            let dual = d.desc.color_attachments.iter().any(|a| a.dual_source());
            let f = if dual { &f_dual } else { &f_plain };
            let cfg = format!("{name} on {gen} w{wave}");
            let state = gcnc::link::PipelineState {
                graphics: Some(gcnc::link::state::GraphicsLinkState::from_state(
                    &d.graphics_state(),
                )),
                ..Default::default()
            };
            let linked =
                match gcnc::link::link(&[&v.elf, &f.elf], &state, gcnc::parts::PartCache::global())
                {
                    Ok(l) => l,
                    Err(e) => {
                        failures.push(format!("{cfg}: link: {e}"));
                        continue;
                    }
                };
            let p = Pipeline::from_elf(&linked.elf, Some(t.wave)).unwrap();
            let img = match draw::run(&p, d, &draw::launch::entries(d), &Options::default()) {
                Ok((img, _)) => img,
                Err(e) => {
                    failures.push(format!("{cfg}: {e}"));
                    continue;
                }
            };
            draws += 1;
            for (i, a) in d.desc.color_attachments.iter().enumerate() {
                if let Err(e) = compare_attachment(a.format, d.width, &img.color[i], &want.color[i])
                {
                    failures.push(format!("{cfg}: attachment {i} ({}): {e}", a.format.name()));
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures (descriptions in {}):\n{}",
        failures.len(),
        dir.display(),
        failures.join("\n")
    );
    assert_eq!(draws, cases.len() * DRAW_CONFIGS.len());
    std::fs::remove_dir_all(&dir).ok();
}
