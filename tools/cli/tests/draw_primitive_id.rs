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

use draw_support::{
    assert_no_failures, compare_outputs, gcnc_draw, gcnc_draw_with, lavapipe_required, DRAW_CONFIGS,
};
use gcnc_emu::draw::Desc;
use std::collections::BTreeSet;
use std::path::Path;

fn colour_attachment(dir: &Path) -> Vec<u8> {
    std::fs::read(dir.join("color_0.raw")).unwrap()
}

#[test]
fn the_primitive_id_colours_each_primitive_as_lavapipe_does() {
    if !lavapipe_required() {
        return;
    }
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/shaders/draw");
    let tmp = std::env::temp_dir().join(format!("gcnc-draw-primid-{}", std::process::id()));
    let mut failures = Vec::new();
    // (description, distinct colours lavapipe must draw besides the clear colour)
    for (name, colours) in [
        ("primitive_id_strip_restart", 4),
        ("primitive_id_fan_list", 30),
    ] {
        let path = dir.join(format!("{name}.json"));
        let d = Desc::load(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
        let want = vkref::draw::run_draw(&d).unwrap_or_else(|e| panic!("{name}: lavapipe: {e}"));
        let distinct: BTreeSet<&[u8]> = want.color[0].chunks(4).collect();
        assert!(
            distinct.len() > colours,
            "{name}: lavapipe drew {} colours",
            distinct.len()
        );
        for (target, wave) in DRAW_CONFIGS {
            let cfg = format!("{name} on {target} w{wave}");
            let w = tmp.join(format!("{name}-{target}-w{wave}-whole"));
            let u = tmp.join(format!("{name}-{target}-w{wave}-unlinked"));
            let run = gcnc_draw(&path, target, wave, &w)
                .and_then(|()| compare_outputs(&d, &w, &want))
                .and_then(|()| gcnc_draw_with(&path, target, wave, &u, &["--unlinked"]))
                .and_then(|()| compare_outputs(&d, &u, &want));
            match run {
                Err(e) => failures.push(format!("{cfg}: {e}")),
                Ok(()) if colour_attachment(&w) != colour_attachment(&u) => {
                    failures.push(format!("{cfg}: whole and unlinked images differ"))
                }
                Ok(()) => {}
            }
        }
    }
    assert_no_failures(&failures, &tmp);
}
