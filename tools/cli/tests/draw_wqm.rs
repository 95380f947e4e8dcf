//! Whole-quad mode on the emulator against lavapipe: fragment shaders with derivatives
//! (fine, coarse, fwidth), derivatives after discard and after demote, the helper
//! invocation flag, and derivatives inside branches and loops, compiled from GLSL at
//! test time and drawn by `gcnc draw` on gfx900 wave64, gfx1030 and gfx1100 wave32 and
//! wave64. The emulator runs helper lanes for real (they join
//! when the shader widens exec with `s_wqm`), and rejects a store or export with a
//! helper lane in exec, so each image also checks where the switches landed. 8-bit
//! channels within 1 of lavapipe's.

mod draw_support;

use draw_support::*;
use gcnc_emu::draw::Desc;
use std::path::PathBuf;

const W: u32 = 40;
const H: u32 = 32;

fn temp_dir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("gcnc-draw-wqm-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A fragment shader reading the interpolated colour `vcol` and writing `o`.
fn fs(body: &str) -> String {
    format!(
        "#version 450
#extension GL_EXT_demote_to_helper_invocation : require
layout(location = 0) in vec4 vcol;
layout(location = 0) out vec4 o;
void main() {{
{body}
}}
"
    )
}

/// Draws `fs_src` with `triangles()` on lavapipe and on the emulator for every target,
/// compares the colour attachments and returns the emulator's images.
fn draws_like_lavapipe(name: &str, fs_src: &str) -> Vec<Vec<u8>> {
    draws_like_lavapipe_with(name, VS_GLSL, fs_src, 9)
}

/// ... with its own vertex shader; each image must have `colours` colours or more.
fn draws_like_lavapipe_with(
    name: &str,
    vs_src: &str,
    fs_src: &str,
    colours: usize,
) -> Vec<Vec<u8>> {
    draws_like_lavapipe_of(name, vs_src, fs_src, &triangles(), colours)
}

/// [`draws_like_lavapipe`] of the triangles `verts` (`vertex()` layout).
fn draws_like_lavapipe_of(
    name: &str,
    vs_src: &str,
    fs_src: &str,
    verts: &[f32],
    min_colours: usize,
) -> Vec<Vec<u8>> {
    draw_all(name, vs_src, fs_src, verts, min_colours, true)
}

/// Draws on every target (and on lavapipe, compared, when `compare`); the emulator's
/// images in target order.
fn draw_all(
    name: &str,
    vs_src: &str,
    fs_src: &str,
    verts: &[f32],
    min_colours: usize,
    compare: bool,
) -> Vec<Vec<u8>> {
    let mut images = Vec::new();
    if vkref::oracle::lavapipe().is_none() {
        return images;
    }
    let dir = temp_dir(name);
    if glsl(&dir, name, "vert", vs_src).is_none() || glsl(&dir, name, "frag", fs_src).is_none() {
        return images;
    }
    let json = case_json(
        &format!("{name}.vert.spv"),
        &format!("{name}.frag.spv"),
        W,
        H,
        verts,
        "triangle_list",
        r#""color_attachments": [{"format": "R8G8B8A8_UNORM", "clear": [0.1, 0.2, 0.3, 1.0]}]"#,
    );
    let desc = dir.join(format!("{name}.json"));
    std::fs::write(&desc, json).unwrap();
    let d = Desc::load(&desc).unwrap();
    let want = vkref::draw::run_draw(&d).unwrap_or_else(|e| panic!("{name}: lavapipe: {e}"));
    for (target, wave) in DRAW_CONFIGS {
        let out = dir.join(format!("{name}-{target}-{wave}"));
        gcnc_draw(&desc, target, wave, &out)
            .unwrap_or_else(|e| panic!("{name} on {target} w{wave}: {e}"));
        let got = std::fs::read(out.join("color_0.raw")).unwrap();
        let mut worst = (0u8, 0usize);
        for (i, (g, w)) in got.iter().zip(&want.color[0]).enumerate() {
            if compare {
                worst = worst.max((g.abs_diff(*w), i));
            }
        }
        let (x, y) = ((worst.1 / 4) as u32 % W, (worst.1 / 4) as u32 / W);
        assert!(
            worst.0 <= 1,
            "{name} on {target} w{wave}: pixel ({x}, {y}) channel {} differs by {}",
            worst.1 % 4,
            worst.0
        );
        // the derivatives are not all zero: the image shows more than the clear colour
        let mut colours: Vec<&[u8]> = got.chunks(4).collect();
        colours.sort();
        colours.dedup();
        assert!(
            colours.len() >= min_colours,
            "{name}: only {} colours",
            colours.len()
        );
        images.push(got);
    }
    images
}

#[test]
fn fine_derivatives_of_varyings_equal_lavapipe() {
    draws_like_lavapipe(
        "fine",
        &fs("o = vec4(abs(dFdxFine(vcol.rg)) * 16.0, abs(dFdyFine(vcol.b)) * 16.0, 1.0);"),
    );
}

/// Coarse derivatives may be computed as fine ones, and lavapipe's are not those of the
/// quad's lane 0, so lavapipe checks them on noperspective varyings (affine on screen:
/// fine = coarse); that they are the quad's own shows on perspective ones: the four
/// pixels of a covered quad get one value.
#[test]
fn coarse_derivatives_of_varyings_equal_lavapipe_and_are_one_per_quad() {
    let coarse = "o = vec4(abs(dFdxCoarse(vcol.rg)) * 16.0, abs(dFdyCoarse(vcol.b)) * 16.0, 1.0);";
    let np = |s: &str| {
        s.replace(
            "layout(location = 0) out vec4 vcol",
            "layout(location = 0) noperspective out vec4 vcol",
        )
        .replace(
            "layout(location = 0) in vec4 vcol",
            "layout(location = 0) noperspective in vec4 vcol",
        )
    };
    // constant per triangle: the clear colour and one per triangle
    draws_like_lavapipe_with("coarse_np", &np(VS_GLSL), &np(&fs(coarse)), 4);
    // the big perspective triangle alone: every quad it covers is one colour
    let big = &triangles()[..24];
    let clear = [26u8, 51, 77, 255];
    for img in draw_all("coarse_one", VS_GLSL, &fs(coarse), big, 9, false) {
        let px = |x: u32, y: u32| &img[(4 * (y * W + x)) as usize..][..4];
        let mut covered = 0;
        for (qx, qy) in (0..H / 2).flat_map(|y| (0..W / 2).map(move |x| (2 * x, 2 * y))) {
            let quad = [
                px(qx, qy),
                px(qx + 1, qy),
                px(qx, qy + 1),
                px(qx + 1, qy + 1),
            ];
            if quad.iter().any(|p| *p == clear) {
                continue;
            }
            covered += 1;
            assert!(
                quad.iter().all(|p| p == &quad[0]),
                "quad at ({qx}, {qy}): {quad:?}"
            );
        }
        assert!(covered > 40, "{covered} covered quads");
    }
}

#[test]
fn fwidth_and_plain_derivatives_equal_lavapipe() {
    draws_like_lavapipe(
        "fwidth",
        &fs("float p = vcol.r + vcol.g * 2.0;
o = vec4(fwidth(vcol.rg) * 4.0, abs(dFdx(p)) * 4.0 + abs(dFdy(p)) * 4.0, 1.0);"),
    );
}

#[test]
fn derivatives_after_discard_equal_lavapipe() {
    // the discard splits quads: the lanes that discarded keep running as helpers
    // (discard_to_demote), so their quad-mates' derivatives stay exact
    draws_like_lavapipe(
        "discard",
        &fs("if (vcol.g > 0.4 && vcol.r < 0.5) discard;
o = vec4(abs(dFdx(vcol.rgb)) * 16.0, 1.0);"),
    );
}

#[test]
fn derivatives_after_discarding_whole_quads_equal_lavapipe() {
    // whole quads discard (x and y thresholds even)
    draws_like_lavapipe(
        "discard_quads",
        &fs(
            "if (gl_FragCoord.x < 14.0 && gl_FragCoord.y > 10.0 || gl_FragCoord.x > 30.0) discard;
o = vec4(abs(dFdx(vcol.rgb)) * 16.0, 1.0);",
        ),
    );
}

#[test]
fn derivatives_after_demote_and_the_helper_flag_equal_lavapipe() {
    draws_like_lavapipe(
        "demote",
        &fs("if (vcol.g > 0.4) demote;
float h = helperInvocationEXT() ? 1.0 : 0.0;
o = vec4(abs(dFdx(vcol.rg)) * 16.0, 0.25 + 0.5 * h, 1.0);"),
    );
}

#[test]
fn derivatives_in_branches_and_loops_equal_lavapipe() {
    // the branch is uniform over each quad (pixel centres at x + 0.5, quads at even x)
    draws_like_lavapipe(
        "loops",
        &fs("vec3 acc = vec3(0.0);
for (int i = 0; i < 3; i++) {
    if (gl_FragCoord.x > 20.0) {
        acc.rg += abs(dFdx(vcol.rg * float(i + 1)));
    } else {
        acc.b += abs(dFdy(vcol.b * vcol.r)) * float(i);
    }
}
o = vec4(acc * 6.0, 1.0);"),
    );
}

#[test]
fn waves_whose_pixels_all_discard_leave_through_the_dead_end() {
    // every pixel discards after a derivative: each wave finds its live mask empty and
    // branches to the exit that exports null with exec 0; only the clear colour remains
    draws_like_lavapipe_of(
        "all_discard",
        VS_GLSL,
        &fs("float d = dFdx(vcol.r);
if (vcol.a > 0.0 || d > 100.0) discard;
o = vec4(d);"),
        &triangles(),
        1,
    );
}
