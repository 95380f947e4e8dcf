//! gl_PrimitiveID read by a fragment shader (docs/abi.md "Built-ins a fragment shader
//! declares the Geometry capability for"), drawn on every draw configuration (gfx900
//! wave64: the hardware VS's v2 with VGT_PRIMITIVEID_EN; gfx1030 and gfx1100 wave32 and
//! wave64: the NGG primitive lanes' v2 handed through LDS to the provoking vertex, GFX11
//! exported to the attribute ring), whole pipeline and `--unlinked`, each image equal to
//! lavapipe's and the two byte-identical:
//! - `primitive_id_strip_restart`: an indexed triangle strip with a restart and two
//!   instances, the colour scaled by the id modulo 4 beside an interpolated colour (the
//!   id is the second parameter): ids count from 0 per instance and on across the
//!   restart;
//! - `primitive_id_fan_list`: 40 triangles of an indexed list all provoked by vertex 0
//!   (more than one subgroup in wave32), a vertex stage with no output but the position
//!   (the id is the only parameter), each triangle coloured by its id: one id per
//!   provoking vertex would paint a subgroup's triangles alike.
//!
//! The emulator gives the ids only in the registers the pipeline enables, so a wrong
//! register, a missing enable or a wrong count shows in the image.

mod draw_support;

use std::path::Path;

#[test]
fn the_primitive_id_colours_each_primitive_as_lavapipe_does() {
    // (description, distinct colours lavapipe must draw besides the clear colour)
    draw_support::draws_as_lavapipe(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/shaders/draw"),
        "primid",
        &[
            ("primitive_id_strip_restart", 4),
            ("primitive_id_fan_list", 30),
        ],
    );
}
