//! Vertex-stage built-ins drawn on every draw configuration (gfx900 wave64, gfx1030
//! wave32 and wave64, gfx1100 wave32 and wave64), whole pipeline and `--unlinked`, each
//! image equal to lavapipe's and the two byte-identical (descriptions and shaders in
//! tests/shaders/draw_vertex/, docs/draw.md):
//! - `draw_params_multi`, `draw_params_indexed`: multi-draws of three indirect commands
//!   (the second description indexed, with vertex offsets) whose triangles move by
//!   gl_DrawID and the instance's index within its draw, coloured by gl_DrawID,
//!   gl_BaseVertex, gl_BaseInstance read directly: a DrawIndex user SGPR that is
//!   missing, misplaced or constant moves or recolours every later draw's triangles.

mod draw_support;

use std::path::Path;

/// Draws each (description, distinct colours lavapipe must draw besides the clear
/// colour) of tests/shaders/draw_vertex/ (`draw_support::draws_as_lavapipe`).
fn draws_as_lavapipe(tag: &str, cases: &[(&str, usize)]) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/shaders/draw_vertex");
    draw_support::draws_as_lavapipe(&dir, tag, cases);
}

#[test]
fn draw_id_base_vertex_and_base_instance_place_and_colour_each_draw_as_lavapipe_does() {
    // 3 + 2·2 + 3 triangles of distinct colours (multi), 2 + 2 + 3 (indexed)
    draws_as_lavapipe(
        "params",
        &[("draw_params_multi", 9), ("draw_params_indexed", 6)],
    );
}
