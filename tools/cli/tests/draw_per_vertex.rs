//! `pervertexEXT` fragment inputs (VK_KHR_fragment_shader_barycentric;
//! tests/shaders/draw/fs_per_vertex.frag), which lavapipe 22.3 cannot run: the expected
//! values are Vulkan's definitions, derived here. A triangle strip of four vertices with
//! distinct colours covers a 16×16 viewport in two triangles, whose vertices in Vulkan's
//! order are (0, 1, 2) and — the second, odd triangle — (1, 3, 2). At every pixel centre
//! strictly inside one of them, MRT k (k < 3) is the raw colour of the triangle's vertex
//! k, and MRT 3 is the colour of its vertex (x mod 3) with, in w, channel (y mod 4) of its
//! vertex 1. GFX10.3 and GFX11 only: on GFX9 the compile refuses per-vertex inputs (its
//! parameter cache keeps a primitive's vertices in no fixed order; RADV offers the
//! extension from GFX10.3), and the test checks that typed refusal.

mod draw_support;

use draw_support::{case_json, gcnc_draw, vertex, DRAW_CONFIGS};
use std::path::Path;

const W: u32 = 16;
/// The strip's vertices in pixels.
const POS: [(f64, f64); 4] = [(1.0, 1.0), (15.0, 1.0), (1.0, 15.0), (15.0, 15.0)];
/// The strip's two triangles in Vulkan's vertex order.
const TRIS: [[usize; 3]; 2] = [[0, 1, 2], [1, 3, 2]];

fn colour(v: usize) -> [f32; 4] {
    let k = (v + 1) as f32;
    [k, 10.0 * k, 100.0 * k, 1000.0 * k]
}

fn edge(a: (f64, f64), b: (f64, f64), p: (f64, f64)) -> f64 {
    (b.0 - a.0) * (p.1 - a.1) - (b.1 - a.1) * (p.0 - a.0)
}

/// The triangle whose interior holds `c` by at least a small margin (`None` near an edge
/// or outside both).
fn triangle_at(c: (f64, f64)) -> Option<Option<usize>> {
    for (t, tri) in TRIS.iter().enumerate() {
        let p = tri.map(|v| POS[v]);
        let area = edge(p[0], p[1], p[2]);
        let b = [
            edge(p[1], p[2], c) / area,
            edge(p[2], p[0], c) / area,
            edge(p[0], p[1], c) / area,
        ];
        if b.iter().any(|&v| v.abs() < 1e-3) {
            return None; // on an edge: the top-left rule decides
        }
        if b.iter().all(|&v| v > 0.0) {
            return Some(Some(t));
        }
    }
    Some(None)
}

#[test]
fn per_vertex_inputs_are_each_vertexs_raw_value_in_vulkans_order() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/shaders/draw");
    let tmp = std::env::temp_dir().join(format!("gcnc-draw-pervertex-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let ndc = |p: f64| (p / (W as f64 / 2.0) - 1.0) as f32;
    let verts: Vec<f32> = (0..4)
        .flat_map(|v| vertex(ndc(POS[v].0), ndc(POS[v].1), 0.5, 1.0, colour(v)))
        .collect();
    let att = r#"{"format": "R32G32B32A32_SFLOAT", "clear": [-1, -1, -1, -1]}"#;
    let json = case_json(
        &corpus.join("vs_interp.spv").to_string_lossy(),
        &corpus.join("fs_per_vertex.spv").to_string_lossy(),
        W,
        W,
        &verts,
        "triangle_strip",
        &format!(r#""color_attachments": [{att}, {att}, {att}, {att}]"#),
    );
    let desc = tmp.join("per_vertex.json");
    std::fs::write(&desc, json).unwrap();
    for (target, wave) in DRAW_CONFIGS {
        let out = tmp.join(format!("{target}-w{wave}"));
        let r = gcnc_draw(&desc, target, wave, &out);
        if target == "gfx900" {
            let e = r.expect_err("GFX9 has no strict vertex order for per-vertex inputs");
            assert!(
                e.contains("per-vertex fragment inputs on GFX9") && e.contains("unsupported"),
                "{e}"
            );
            continue;
        }
        r.unwrap_or_else(|e| panic!("{target} w{wave}: {e}"));
        let mrt: Vec<Vec<f32>> = (0..4)
            .map(|k| {
                std::fs::read(out.join(format!("color_{k}.raw")))
                    .unwrap()
                    .chunks(4)
                    .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
                    .collect()
            })
            .collect();
        let mut seen = [0; 2];
        for y in 0..W {
            for x in 0..W {
                let at = format!("{target} w{wave} pixel ({x}, {y})");
                let px = |k: usize| &mrt[k][4 * (y * W + x) as usize..][..4];
                let Some(t) = triangle_at((x as f64 + 0.5, y as f64 + 0.5)) else {
                    continue;
                };
                let Some(t) = t else {
                    for k in 0..4 {
                        assert_eq!(px(k), [-1.0; 4], "{at} MRT {k} is outside the strip");
                    }
                    continue;
                };
                seen[t] += 1;
                let tri = TRIS[t];
                for k in 0..3 {
                    assert_eq!(
                        px(k),
                        colour(tri[k]),
                        "{at} MRT {k}: vertex {k} of triangle {t}"
                    );
                }
                let dynamic = colour(tri[x as usize % 3]);
                let want = [
                    dynamic[0],
                    dynamic[1],
                    dynamic[2],
                    colour(tri[1])[y as usize % 4],
                ];
                assert_eq!(px(3), want, "{at} MRT 3: dynamic vertex and component");
            }
        }
        assert!(
            seen.iter().all(|&n| n > 40),
            "pixels per triangle: {seen:?}"
        );
    }
}
