//! Vertex-stage built-ins drawn on every draw configuration (gfx900 wave64, gfx1030
//! wave32 and wave64, gfx1100 wave32 and wave64), whole pipeline and `--unlinked`, each
//! image equal to lavapipe's and the two byte-identical (descriptions and shaders in
//! tests/shaders/draw_vertex/, docs/draw.md):
//! - `draw_params_multi`, `draw_params_indexed`: multi-draws of three indirect commands
//!   (the second description indexed, with vertex offsets) whose triangles move by
//!   gl_DrawID and the instance's index within its draw, coloured by gl_DrawID,
//!   gl_BaseVertex, gl_BaseInstance read directly: a DrawIndex user SGPR that is
//!   missing, misplaced or constant moves or recolours every later draw's triangles.
//! - `clip_planes`, `cull_distance`, `near_plane` (tests/shaders/draw_vertex/clipping.py):
//!   perspective triangles cut by two user clip planes (gl_ClipDistance); one clip and
//!   two cull distances packed in one vector, culling whole triangles whose vertices are
//!   all on a cull plane's negative side and drawing those that straddle it; triangles
//!   with one and with two vertices behind the eye (w < 0), clipped against the near
//!   plane, a flat colour from the provoking vertex beside a smooth one, over a triangle
//!   in front with a depth test, and one triangle wholly behind the eye. The clip lines
//!   and the near plane's edges keep pixel centres ≥ 0.04 pixel away (the script checks),
//!   where per-sample distances and geometric clipping cover the same pixels.
//! - `near_plane_linear` (clipping.py): noperspective colours beside a smooth and a flat
//!   one on triangles with one and two vertices behind the eye, into RGBA32F: across
//!   the triangles clipping makes, a noperspective input is the affine function of the
//!   framebuffer position that the original vertices projected (through the eye)
//!   define — Vulkan's rule, lavapipe's clipper, and the hardware's with
//!   PA_CL_CLIP_CNTL.DX_LINEAR_ATTR_CLIP_ENA, which gcnc sets; without that bit the
//!   clipper's vertices take perspective-correct barycentrics and the image differs.

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

#[test]
fn clip_and_cull_distances_and_the_near_plane_clip_as_lavapipe_does() {
    draws_as_lavapipe(
        "clip",
        &[
            ("clip_planes", 12),
            ("cull_distance", 6),
            ("near_plane", 20),
        ],
    );
}

#[test]
fn noperspective_inputs_stay_screen_linear_on_triangles_clipped_against_w() {
    draws_as_lavapipe("clip-linear", &[("near_plane_linear", 100)]);
}
