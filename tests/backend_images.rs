//! The image test shaders (tests/shaders/images/image_*.spv: storage images of every
//! dimension, image atomics, texel buffers, sampled images with explicit LOD, gradients,
//! gathers and depth compares, separate samplers, cube maps, arrays, multisampled
//! textures, arrays of descriptors) through the whole compiler on gfx900 (wave64),
//! gfx1030 and gfx1100 (wave32 and wave64): every shader compiles, its ELF disassembles
//! with llvm-objdump-19 to exactly our printer's text, and compiling twice gives the same
//! bytes. Divergent (`nonuniformEXT`) descriptor indices select a waterfall loop. Unlinked
//! compiles leave `gcnc.desc.*` relocations of the image, sampler and
//! texel-buffer kinds for the link stage.

mod backend_support;

use backend_support::*;
use gcnc::isa::{Gen, Target, Wave};
use gcnc::{compile_spirv, compile_spirv_unlinked, Compiled, Options};

fn image_shaders() -> Vec<(String, Vec<u32>)> {
    let mut v: Vec<(String, Vec<u32>)> = std::fs::read_dir("tests/shaders/images")
        .unwrap()
        .filter_map(|e| {
            let p = e.unwrap().path();
            let name = p.file_name()?.to_str()?.to_string();
            (name.starts_with("image_") && name.ends_with(".spv")).then(|| {
                let bytes = std::fs::read(&p).unwrap();
                let words = bytes
                    .chunks(4)
                    .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                    .collect();
                (name, words)
            })
        })
        .collect();
    v.sort();
    assert!(v.len() >= 8, "image test shaders missing");
    v
}

fn compile(name: &str, words: &[u32], g: Gen, w: Wave) -> Compiled {
    let o = Options::new(Target::with_wave(g, w).unwrap());
    compile_spirv(words, &o).unwrap_or_else(|e| panic!("{name} {}/{w:?}: {e}", g.mcpu()))
}

#[test]
fn image_shaders_compile_deterministically() {
    for (name, words) in image_shaders() {
        for (g, w) in CONFIGS {
            let a = compile(&name, &words, g, w);
            let b = compile(&name, &words, g, w);
            assert_eq!(a.elf, b.elf, "{name} {}/{w:?} not deterministic", g.mcpu());
        }
    }
}

#[test]
fn image_shaders_disassemble_with_llvm() {
    let (Some(objdump), Some(readelf)) = (oracle("llvm-objdump-19"), oracle("llvm-readelf-19"))
    else {
        return;
    };
    for (name, words) in image_shaders() {
        for (g, w) in CONFIGS {
            let c = compile(&name, &words, g, w);
            objdump_agrees(&objdump, &readelf, &name, g, w, &c);
        }
    }
}

#[test]
fn image_instructions_are_selected() {
    // each shader's defining instructions appear on every generation (GFX11 spellings)
    let want: &[(&str, &[&str])] = &[
        (
            "image_storage_2d.spv",
            &["image_load ", "image_store ", "image_get_resinfo "],
        ),
        (
            "image_atomics.spv",
            &[
                "image_atomic_add ",
                "image_atomic_cmpswap ",
                "image_atomic_smin ",
            ],
        ),
        (
            "image_texel_buffers.spv",
            &[
                "buffer_load_format_xyzw ",
                "buffer_store_format_xyzw ",
                "idxen",
            ],
        ),
        (
            "image_sampled.spv",
            &[
                "image_sample_l ",
                "image_sample_lz_o ",
                "image_load_mip ",
                "image_gather4_lz ",
                "image_gather4_lz_o ",
                "image_sample_d ",
                "image_sample_c_lz ",
                "image_sample_c_d ",
            ],
        ),
        (
            "image_sampled_kinds.spv",
            &[
                "v_cubeid_f32",
                "v_rndne_f32",
                "image_gather4_c_lz ",
                "image_load ",
            ],
        ),
    ];
    let shaders = image_shaders();
    for (g, w) in CONFIGS {
        for (name, insts) in want {
            let words = &shaders.iter().find(|(n, _)| n == name).expect("shader").1;
            let asm = compile(name, words, g, w).asm().unwrap();
            for i in *insts {
                assert!(
                    asm.contains(i),
                    "{name} {}/{w:?}: no `{i}` in\n{asm}",
                    g.mcpu()
                );
            }
        }
    }
}

#[test]
fn unlinked_compiles_relocate_image_and_sampler_descriptors() {
    let shaders = image_shaders();
    let words = &shaders
        .iter()
        .find(|(n, _)| n == "image_sampled_kinds.spv")
        .unwrap()
        .1;
    let mut o = Options::new(Target::new(Gen::Gfx11));
    o.missing.descriptor_layout = true;
    let c = compile_spirv_unlinked(words, &o).unwrap();
    let names: Vec<String> = c.program.symbols.iter().map(|s| s.name()).collect();
    for want in [
        "gcnc.desc.0.0.image.offset",
        "gcnc.desc.0.1.sampler.offset",
        "gcnc.desc.0.2.image.offset",
        "gcnc.desc.0.2.sampler.offset",
    ] {
        assert!(names.iter().any(|n| n == want), "no {want} in {names:?}");
    }
}

#[test]
fn nonuniform_descriptor_indices_run_in_a_waterfall_loop() {
    // one loop per use: the first active lane's index, the lanes sharing it, the
    // instruction, the remaining lanes, back while any is left, exec restored
    let shaders = image_shaders();
    let words = &shaders
        .iter()
        .find(|(n, _)| n == "image_nonuniform.spv")
        .unwrap()
        .1;
    for (g, w) in CONFIGS {
        let asm = compile("image_nonuniform.spv", words, g, w).asm().unwrap();
        let lines: Vec<&str> = asm.lines().map(|l| l.trim()).collect();
        let pos = |from: usize, what: &str| {
            lines[from..]
                .iter()
                .position(|l| l.starts_with(what))
                .map(|k| k + from)
                .unwrap_or_else(|| panic!("{}/{w:?}: no {what} after {from} in\n{asm}", g.mcpu()))
        };
        let mut at = 0;
        for last in [false, true] {
            // the loop restores EXEC after it, except before the end of the program, where
            // nothing reads it (simplify_exec_writes removes that write)
            let after = if last { "s_endpgm" } else { "s_mov_b" };
            for what in [
                "v_readfirstlane_b32",
                "v_cmp_eq_u32_e64",
                "s_and_saveexec_b",
                "image_",
                "s_and",
                "s_cbranch_execnz",
                after,
            ] {
                at = pos(at, what) + 1;
            }
            assert!(
                last || lines[at - 1].contains("exec"),
                "{}: {}",
                g.mcpu(),
                lines[at - 1]
            );
            if last {
                assert_eq!(
                    lines[at - 2].split_whitespace().next(),
                    Some("s_cbranch_execnz")
                );
            }
        }
    }
}
