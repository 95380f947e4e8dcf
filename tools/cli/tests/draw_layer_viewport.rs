//! gl_Layer and gl_ViewportIndex written by vertex shaders and read flat by the fragment
//! shader (descriptions and shaders in tests/shaders/draw_vertex/, written by
//! layers_viewports.py; docs/draw.md "Layers and viewports"), each drawn on gfx900
//! wave64, gfx1030 wave32 and wave64, gfx1100 wave32 and wave64, whole pipeline and
//! `--unlinked`, equal to lavapipe and the two byte-identical:
//! - `layer_instances`: instance i into layer i of a 3-layer attachment (ShaderLayer);
//! - `viewport_triangles`: triangle t into viewport t % 4 of four viewports of different
//!   rectangles and depth ranges, each its own scissor, with a depth test
//!   (ShaderViewportIndex);
//! - `layer_viewport`: both from one shader (ShaderViewportIndexLayerEXT: one packed export
//!   channel), over a 2-layer colour and depth attachment.
//!
//! The fragment shader writes blue = 1/8 + gl_Layer/4 and alpha = 1/8 +
//! gl_ViewportIndex/4, so a primitive routed to the wrong layer or viewport, or a flat
//! read of the wrong value, changes the image. The test also checks lavapipe's images
//! against that meaning: every drawn pixel of layer l has blue 1/8 + l/4, and every layer
//! and viewport receives pixels.

mod draw_support;

use std::path::Path;

fn dir() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/shaders/draw_vertex")
}

#[test]
fn layers_and_viewports_route_primitives_and_read_flat_as_lavapipe_does() {
    draw_support::draws_as_lavapipe(
        &dir(),
        "layer-viewport",
        &[
            ("layer_instances", 5),
            ("viewport_triangles", 5),
            ("layer_viewport", 5),
        ],
    );
}

#[test]
fn lavapipe_draws_each_primitive_into_the_layer_and_viewport_it_names() {
    if !draw_support::lavapipe_required() {
        return;
    }
    // (description, layers, viewports)
    for (name, layers, viewports) in [
        ("layer_instances", 3, 1),
        ("viewport_triangles", 1, 4),
        ("layer_viewport", 2, 2),
    ] {
        let d = gcnc_emu::draw::Desc::load(&dir().join(format!("{name}.json"))).unwrap();
        assert_eq!((d.layers(), d.viewports().len()), (layers, viewports));
        let want = vkref::draw::run_draw(&d).unwrap_or_else(|e| panic!("{name}: {e}"));
        let px = (d.width * d.height) as usize;
        let texels: Vec<[f32; 4]> = want.color[0]
            .chunks(16)
            .map(|c| {
                std::array::from_fn(|k| f32::from_le_bytes(c[4 * k..4 * k + 4].try_into().unwrap()))
            })
            .collect();
        assert_eq!(texels.len(), px * layers as usize, "{name}");
        let mut seen_viewports = std::collections::BTreeSet::new();
        for l in 0..layers as usize {
            let drawn: Vec<&[f32; 4]> = texels[l * px..(l + 1) * px]
                .iter()
                .filter(|t| t[3] != 0.0)
                .collect();
            assert!(!drawn.is_empty(), "{name}: layer {l} is empty");
            for t in drawn {
                assert_eq!(t[2], 0.125 + 0.25 * l as f32, "{name}: layer {l}: {t:?}");
                seen_viewports.insert(((t[3] - 0.125) / 0.25) as u32);
            }
        }
        assert_eq!(
            seen_viewports,
            (0..viewports as u32).collect(),
            "{name}: the viewports drawn"
        );
    }
}
