//! Sparse-residency sampling in a fragment shader (tests/shaders/draw/fs_tex_sparse.frag:
//! sparseTextureARB with an implicit LOD, sparseTextureLodARB, the Dref form on a
//! sampler2DShadow, sparseTexelsResidentARB of each code). Lavapipe 22.3 has no
//! shaderResourceResidency (vkref's `corpus::LAVAPIPE_LACKS` lists the same feature for
//! the compute corpus's img_sparse), so lavapipe draws the non-sparse twin
//! (tex_sparse_plain.json, in the draw corpus) and the sparse shader must draw the same
//! image on every configuration: each read as the plain read gives it and each code
//! "resident" (a non-resident code would paint magenta with alpha 0).

mod draw_support;

use draw_support::{compare_outputs, gcnc_draw, DRAW_CONFIGS};
use gcnc_emu::draw::Desc;
use std::path::Path;

#[test]
fn sparse_reads_in_a_fragment_shader_draw_the_plain_reads_image() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/shaders/draw");
    let plain = corpus.join("tex_sparse_plain.json");
    let text = std::fs::read_to_string(&plain).unwrap();
    let sparse = text.replace("fs_tex_sparse_plain.spv", "fs_tex_sparse.spv");
    assert_ne!(sparse, text);
    // beside the corpus (relative paths), not named .json (the corpus would run it)
    let path = corpus.join(format!("sparse-{}.tmp", std::process::id()));
    std::fs::write(&path, sparse).unwrap();
    let d = Desc::load(&path).unwrap();
    let lavapipe = vkref::oracle::lavapipe().is_some().then(|| {
        let e = vkref::draw::run_draw(&d).unwrap_err().to_string();
        assert!(e.contains("shaderResourceResidency"), "lavapipe: {e}");
        vkref::draw::run_draw(&Desc::load(&plain).unwrap()).unwrap()
    });
    let tmp = std::env::temp_dir().join(format!("gcnc-draw-sparse-{}", std::process::id()));
    let mut failures = Vec::new();
    for (target, wave) in DRAW_CONFIGS {
        let (out, twin) = (
            tmp.join(format!("{target}-w{wave}")),
            tmp.join(format!("plain-{target}-w{wave}")),
        );
        let run = || -> Result<(), String> {
            gcnc_draw(&path, target, wave, &out)?;
            gcnc_draw(&plain, target, wave, &twin)?;
            let read = |d: &Path| std::fs::read(d.join("color_0.raw")).unwrap();
            if read(&out) != read(&twin) {
                return Err("the sparse reads differ from the plain reads".into());
            }
            match &lavapipe {
                Some(want) => compare_outputs(&d, &out, want),
                None => Ok(()),
            }
        };
        if let Err(e) = run() {
            failures.push(format!("{target} w{wave}: {e}"));
        }
    }
    std::fs::remove_file(&path).unwrap();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
