//! gl_BaryCoordEXT, gl_BaryCoordNoPerspEXT and gl_ShadingRateEXT in a fragment shader
//! (tests/shaders/draw/fs_barycentric.frag), which lavapipe 22.3 cannot run: the expected
//! values are Vulkan's definitions, computed here. For a triangle with vertices of
//! different w on a 16×16 viewport, at every pixel centre strictly inside, the
//! screen-space weights b (the edge functions over twice the area) and the perspective
//! ones b_k / w_k renormalised; gl_BaryCoordEXT.xy = the perspective b0, b1,
//! gl_BaryCoordNoPerspEXT.y = the screen-space b1, gl_ShadingRateEXT = 0 (1x1: gcnc
//! compiles no variable-rate shading). Run with `gcnc draw` on every DRAW_CONFIG.

mod draw_support;

use draw_support::{case_json, gcnc_draw, vertex, DRAW_CONFIGS};
use std::path::Path;

const W: u32 = 16;
/// (x, y) in pixels, w.
const TRI: [(f64, f64, f64); 3] = [(1.0, 1.0, 1.0), (15.0, 3.0, 2.0), (4.0, 15.0, 4.0)];

fn edge(a: (f64, f64), b: (f64, f64), p: (f64, f64)) -> f64 {
    (b.0 - a.0) * (p.1 - a.1) - (b.1 - a.1) * (p.0 - a.0)
}

#[test]
fn barycentric_builtins_are_the_pixels_weights_and_the_shading_rate_is_1x1() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/shaders/draw");
    let tmp = std::env::temp_dir().join(format!("gcnc-draw-bary-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let verts: Vec<f32> = TRI
        .iter()
        .flat_map(|&(x, y, w)| {
            let ndc = |p: f64| (p / (W as f64 / 2.0) - 1.0) as f32;
            vertex(ndc(x), ndc(y), 0.5, w as f32, [0.0; 4])
        })
        .collect();
    let json = case_json(
        &corpus.join("vs_interp.spv").to_string_lossy(),
        &corpus.join("fs_barycentric.spv").to_string_lossy(),
        W,
        W,
        &verts,
        "triangle_list",
        r#""color_attachments": [{"format": "R32G32B32A32_SFLOAT", "clear": [-1, -1, -1, -1]}]"#,
    );
    let desc = tmp.join("bary.json");
    std::fs::write(&desc, json).unwrap();
    let p = TRI.map(|(x, y, _)| (x, y));
    let area = edge(p[0], p[1], p[2]);
    for (target, wave) in DRAW_CONFIGS {
        let out = tmp.join(format!("{target}-w{wave}"));
        gcnc_draw(&desc, target, wave, &out).unwrap_or_else(|e| panic!("{target} w{wave}: {e}"));
        let raw = std::fs::read(out.join("color_0.raw")).unwrap();
        let px: Vec<f32> = raw
            .chunks(4)
            .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
            .collect();
        let mut inside = 0;
        for y in 0..W {
            for x in 0..W {
                let c = (x as f64 + 0.5, y as f64 + 0.5);
                let b = [
                    edge(p[1], p[2], c) / area,
                    edge(p[2], p[0], c) / area,
                    edge(p[0], p[1], c) / area,
                ];
                let got = &px[4 * (y * W + x) as usize..][..4];
                let at = format!("{target} w{wave} pixel ({x}, {y})");
                if b.iter().any(|&v| v.abs() < 1e-3) {
                    continue; // on an edge: the top-left rule decides
                }
                if b.iter().any(|&v| v < 0.0) {
                    assert_eq!(got, [-1.0; 4], "{at} is outside the triangle");
                    continue;
                }
                inside += 1;
                let q: Vec<f64> = (0..3).map(|k| b[k] / TRI[k].2).collect();
                let s: f64 = q.iter().sum();
                let want = [q[0] / s, q[1] / s, b[1], 0.0];
                for (k, (&g, w)) in got.iter().zip(want).enumerate() {
                    assert!(
                        (g as f64 - w).abs() < 1e-5,
                        "{at} channel {k}: {g}, want {w}"
                    );
                }
            }
        }
        assert!(inside > 50, "{inside} pixels inside");
    }
}
