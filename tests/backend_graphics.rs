//! Vertex + fragment pipelines (tests/shaders/vert/gfx_vs_*, tests/shaders/frag/gfx_fs_*)
//! through the whole backend, with the default graphics state (docs/abi.md "Graphics"):
//! - on gfx900 wave64 (hardware VS), gfx1030 and gfx1100 wave32/wave64 (NGG primitive
//!   shader) every VS × FS pair links into one ELF whose two entry points llvm-objdump-19
//!   disassembles to our printer's text, instruction by instruction, and whose metadata
//!   llvm-readelf-19 decodes;
//! - the registers of the metadata say what each shader needs (inputs enabled, export
//!   formats, kill, depth, vertex VGPRs, position exports, the NGG stage);
//! - on gfx1100 (wave32 and wave64) each fragment shader alone disassembles, through
//!   llvm-mc-19, to our printer's text; a GFX11 vertex shader is an NGG primitive shader
//!   that writes its attributes to the attribute ring and never exports a parameter.

mod backend_support;

use backend_support::*;
use gcnc::amdgpu::abi_graphics::{ColorFormat, GraphicsState};
use gcnc::binary::graphics as regs;
use gcnc::binary::{ElfFile, HwStage};
use gcnc::compile_graphics::{compile_pipeline, compile_stage, CompiledPipeline};
use gcnc::ir::Stage;
use gcnc::isa::{Gen, Target, Wave};
use gcnc::Options;
use std::collections::BTreeMap;

const VS: [&str; 4] = ["gfx_vs_basic", "gfx_vs_ids", "gfx_vs_point", "gfx_vs_clip"];
const FS: [&str; 6] = [
    "gfx_fs_varyings",
    "gfx_fs_fragcoord",
    "gfx_fs_discard",
    "gfx_fs_mrt",
    "gfx_fs_null",
    "gfx_fs_sample",
];
const PIPELINE_CONFIGS: [(Gen, Wave); 5] = [
    (Gen::Gfx9, Wave::W64),
    (Gen::Gfx10, Wave::W32),
    (Gen::Gfx10, Wave::W64),
    (Gen::Gfx11, Wave::W32),
    (Gen::Gfx11, Wave::W64),
];

fn words(dir: &str, name: &str) -> Vec<u32> {
    let bytes = std::fs::read(format!("tests/shaders/{dir}/{name}.spv")).unwrap();
    gcnc::front::spirv::words_from_bytes(&bytes).unwrap()
}

fn opts(gen: Gen, wave: Wave) -> Options {
    Options::new(Target::with_wave(gen, wave).unwrap())
}

fn pipeline(vs: &str, fs: &str, gen: Gen, wave: Wave) -> CompiledPipeline {
    compile_pipeline(
        &words("vert", vs),
        &words("frag", fs),
        &opts(gen, wave),
        &GraphicsState::default(),
    )
    .unwrap_or_else(|e| panic!("{vs} + {fs} on {}/{wave:?}: {e}", gen.mcpu()))
}

fn registers(c: &CompiledPipeline) -> BTreeMap<u32, u32> {
    let elf = ElfFile::parse(&c.elf).unwrap();
    elf.pal_metadata().unwrap().unwrap().pipeline.registers
}

/// Instruction text without offsets and comments, whitespace collapsed (LLVM spells a zero
/// SMEM offset `null` on GFX10+; the bytes are the same).
fn norm(s: &str) -> String {
    s.split("  ;")
        .next()
        .unwrap()
        .split("//")
        .next()
        .unwrap()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .replace(", null", ", 0x0")
}

#[test]
fn every_pipeline_disassembles_with_llvm_as_we_print_it() {
    let (Some(objdump), Some(readelf)) = (oracle("llvm-objdump-19"), oracle("llvm-readelf-19"))
    else {
        return;
    };
    let mut checked = 0;
    for (gen, wave) in PIPELINE_CONFIGS {
        for vs in VS {
            for fs in FS {
                let c = pipeline(vs, fs, gen, wave);
                let again = pipeline(vs, fs, gen, wave);
                assert_eq!(c.elf, again.elf, "{vs}+{fs}: not deterministic");
                let path = temp_path(&format!("{vs}-{fs}-{}-{wave:?}.elf", gen.mcpu()));
                std::fs::write(&path, &c.elf).unwrap();
                let p = path.to_str().unwrap();
                let mut args = vec!["-d".to_string(), format!("--mcpu={}", gen.mcpu())];
                if wave == Wave::W64 && gen != Gen::Gfx9 {
                    args.push("--mattr=+wavefrontsize64".into());
                }
                args.push(p.into());
                let a: Vec<&str> = args.iter().map(|s| s.as_str()).collect();
                let (ok, out) = run_status(&objdump, &a);
                assert!(ok, "{vs}+{fs}: objdump failed:\n{out}");
                assert!(
                    !out.contains("<unknown>"),
                    "{vs}+{fs}: unknown words:\n{out}"
                );
                // each stage's chain (prolog, main part, epilog) from its entry: the
                // vertex stage at 0, the fragment stage where the vertex chain's text ends
                let insts: Vec<(u64, String)> = out
                    .lines()
                    .filter(|l| l.starts_with('\t'))
                    .filter_map(|l| {
                        let at = l.split("// ").nth(1)?.split(':').next()?;
                        Some((u64::from_str_radix(at.trim(), 16).ok()?, norm(l)))
                    })
                    .collect();
                for (stage, at) in [(&c.vs, 0), (&c.ps, c.vs.text.len() as u64)] {
                    let sym = format!("<{}>:", stage.stage.entry_symbol());
                    let theirs: Vec<String> = insts
                        .iter()
                        .filter(|i| i.0 >= at && i.0 < at + stage.code_bytes as u64)
                        .map(|i| i.1.clone())
                        .collect();
                    assert!(!theirs.is_empty(), "{vs}+{fs}: nothing at {at:#x} ({sym})");
                    let ours: Vec<String> = stage.asm().unwrap().lines().map(norm).collect();
                    for (k, o) in ours.iter().enumerate() {
                        assert_eq!(
                            *o,
                            theirs[k],
                            "{vs}+{fs} {}/{wave:?} {sym} instruction {k}",
                            gen.mcpu()
                        );
                    }
                }
                let (ok, notes) = run_status(&readelf, &["--notes", p]);
                assert!(
                    ok && notes.contains("amdpal.pipelines"),
                    "{vs}+{fs}: {notes}"
                );
                assert!(
                    !notes.to_lowercase().contains("error"),
                    "{vs}+{fs}: {notes}"
                );
                checked += 1;
            }
        }
    }
    assert_eq!(checked, PIPELINE_CONFIGS.len() * VS.len() * FS.len());
}

#[test]
fn fragment_registers_say_what_the_shader_reads_and_exports() {
    for (gen, wave) in PIPELINE_CONFIGS {
        // smooth (persp center), noperspective (linear center), flat, centroid
        let r = registers(&pipeline("gfx_vs_basic", "gfx_fs_varyings", gen, wave));
        assert_eq!(r[&regs::SPI_PS_INPUT_ENA], 1 << 1 | 1 << 2 | 1 << 5);
        assert_eq!(r[&regs::SPI_PS_INPUT_ADDR], r[&regs::SPI_PS_INPUT_ENA]);
        assert_eq!(r[&regs::SPI_PS_IN_CONTROL] & 0x3f, 4, "four attributes");
        // location 0 is the vertex shader's parameter 0; 1..3 it does not write (default
        // value); location 2 is flat, but a default value is never FLAT_SHADE: with it,
        // OFFSET bit 5 selects passthrough of parameter 0 (as radeonsi and RADV note)
        assert_eq!(r[&regs::SPI_PS_INPUT_CNTL_0], 0);
        assert_eq!(r[&(regs::SPI_PS_INPUT_CNTL_0 + 1)], 0x20);
        assert_eq!(r[&(regs::SPI_PS_INPUT_CNTL_0 + 2)], 0x20);
        assert_eq!(r[&regs::SPI_SHADER_COL_FORMAT], 9, "32_ABGR on MRT0");
        assert_eq!(r[&regs::CB_SHADER_MASK], 0xf);
        assert_eq!(r[&regs::DB_SHADER_CONTROL] & 1 << 6, 0, "no kill");

        // FragCoord xyzw and FrontFacing; nothing interpolated, so PERSP_CENTER is forced
        let r = registers(&pipeline("gfx_vs_basic", "gfx_fs_fragcoord", gen, wave));
        assert_eq!(r[&regs::SPI_PS_INPUT_ENA], 1 << 1 | 0xf << 8 | 1 << 12);

        let r = registers(&pipeline("gfx_vs_basic", "gfx_fs_discard", gen, wave));
        assert_ne!(r[&regs::DB_SHADER_CONTROL] & 1 << 6, 0, "KILL_ENABLE");

        // memory written (an image store, no early tests): the test runs late and the
        // shader runs on hierarchical-Z fail and no-op (EXEC_ON_HIER_FAIL, EXEC_ON_NOOP)
        let r = registers(&pipeline("gfx_vs_basic", "gfx_fs_image_store", gen, wave));
        let db = r[&regs::DB_SHADER_CONTROL];
        assert_eq!(db >> 4 & 3, 0, "Z_ORDER late: {db:#x}");
        assert_eq!(db >> 9 & 3, 3, "EXEC_ON_HIER_FAIL | EXEC_ON_NOOP: {db:#x}");
        let r = registers(&pipeline("gfx_vs_basic", "gfx_fs_null", gen, wave));
        let db = r[&regs::DB_SHADER_CONTROL];
        assert_eq!(
            db >> 4 & 3,
            1,
            "no memory write: early Z then late: {db:#x}"
        );
        assert_eq!(db >> 9 & 3, 0, "{db:#x}");

        // vec4 / uvec2 / float on MRT0..2 and depth
        let r = registers(&pipeline("gfx_vs_basic", "gfx_fs_mrt", gen, wave));
        assert_eq!(r[&regs::SPI_SHADER_COL_FORMAT], 9 | 2 << 4 | 1 << 8);
        assert_eq!(r[&regs::CB_SHADER_MASK], 0xf | 0x3 << 4 | 0x1 << 8);
        assert_eq!(r[&regs::SPI_SHADER_Z_FORMAT], 1, "32_R depth");
        assert_ne!(r[&regs::DB_SHADER_CONTROL] & 1, 0, "Z_EXPORT_ENABLE");

        let r = registers(&pipeline("gfx_vs_basic", "gfx_fs_null", gen, wave));
        assert_eq!(r[&regs::SPI_SHADER_COL_FORMAT], 0);
        assert_eq!(r[&regs::CB_SHADER_MASK], 0);

        // sample barycentrics, ancillary (sample id) and sample coverage
        let r = registers(&pipeline("gfx_vs_basic", "gfx_fs_sample", gen, wave));
        assert_eq!(r[&regs::SPI_PS_INPUT_ENA], 1 | 1 << 13 | 1 << 14);

        let w32 = (wave == Wave::W32) as u32;
        assert_eq!(r[&regs::SPI_PS_IN_CONTROL] >> 15 & 1, w32, "PS_W32_EN");
    }
}

#[test]
fn vertex_registers_say_what_the_shader_reads_and_exports() {
    for (gen, wave) in PIPELINE_CONFIGS {
        let c = pipeline("gfx_vs_ids", "gfx_fs_varyings", gen, wave);
        let r = registers(&c);
        let ngg = gen != Gen::Gfx9;
        let stage = if ngg { HwStage::Gs } else { HwStage::Vs };
        assert_eq!(c.vs.stage, stage);
        if ngg {
            // InstanceID in v8: ES_VGPR_COMP_CNT 3; passthrough needs only v0
            assert_eq!(r[&stage.rsrc2()] >> 16 & 3, 3, "ES_VGPR_COMP_CNT");
            assert_eq!(r[&stage.rsrc1()] >> 29 & 3, 0, "GS_VGPR_COMP_CNT");
        } else {
            // InstanceID: v1 with VGPR_COMP_CNT 1
            assert_eq!(r[&stage.rsrc1()] >> 24 & 3, 1);
        }
        // user SGPRs: descriptor set 0 (entries 2, 3), then (GFX11, for the attribute
        // ring) PAL's GlobalTable, VertexBufferTable, BaseVertex and BaseInstance
        let mut want = vec![2, 3];
        if gen == Gen::Gfx11 {
            want.push(0x1000_0000);
        }
        want.extend([0x1000_000f, 0x1000_0003, 0x1000_0004]);
        let base = stage.user_data_base();
        let ud: Vec<u32> = (0..want.len() as u32).map(|i| r[&(base + i)]).collect();
        assert_eq!(ud, want);
        assert_eq!(
            r[&stage.rsrc2()] >> 1 & 0x1f,
            want.len() as u32,
            "USER_SGPR"
        );
        // two parameters (uv, id), one position export
        assert_eq!(r[&regs::SPI_VS_OUT_CONFIG], 1 << 1);
        assert_eq!(r[&regs::SPI_SHADER_POS_FORMAT], 4);
        // location 1 (id) is parameter 1 and flat in the fragment shader
        assert_eq!(r[&(regs::SPI_PS_INPUT_CNTL_0 + 1)], 1);

        let r = registers(&pipeline("gfx_vs_point", "gfx_fs_null", gen, wave));
        assert_eq!(
            r[&regs::SPI_SHADER_POS_FORMAT],
            0x44,
            "pos0 and pos1 (point size)"
        );
        // USE_VTX_POINT_SIZE, VS_OUT_MISC_VEC_ENA, VS_OUT_MISC_SIDE_BUS_ENA
        assert_eq!(r[&regs::PA_CL_VS_OUT_CNTL], 1 << 16 | 1 << 21 | 1 << 24);

        // two clip distances in the export after pos0
        let r = registers(&pipeline("gfx_vs_clip", "gfx_fs_null", gen, wave));
        assert_eq!(r[&regs::SPI_SHADER_POS_FORMAT], 0x44);
        assert_eq!(
            r[&regs::PA_CL_VS_OUT_CNTL],
            0x3 | 0x4 << 8 | 1 << 22,
            "CLIP_DIST_ENA_0/1, CULL_DIST_ENA_2, CCDIST0"
        );
        assert_eq!(r[&regs::SPI_VS_OUT_CONFIG], 1 << 7, "no parameters");
        let w32 = (wave == Wave::W32) as u32;
        if ngg {
            // ES_EN REAL, PRIMGEN_EN, GS_W32_EN, PRIMGEN_PASSTHRU_EN
            assert_eq!(
                r[&regs::VGT_SHADER_STAGES_EN],
                2 << 3 | 1 << 13 | w32 << 22 | 1 << 25
            );
            let lanes = wave.lanes();
            assert_eq!(
                r[&regs::VGT_GS_ONCHIP_CNTL],
                lanes | lanes << 11 | lanes << 22,
                "one wave per subgroup"
            );
            let md = ElfFile::parse(&c.elf)
                .unwrap()
                .pal_metadata()
                .unwrap()
                .unwrap();
            assert_eq!(md.pipeline.pipeline_type, "Ngg");
            assert!(md.pipeline.hardware_stages.contains_key(&HwStage::Gs));
        }
    }
}

/// llvm-mc-19's disassembly of `bytes` for `t`.
fn llvm_mc_disassemble(mc: &std::path::Path, t: Target, bytes: &[u8]) -> Vec<String> {
    let hex: Vec<String> = bytes.iter().map(|b| format!("0x{b:02x}")).collect();
    let path = temp_path(&format!("gfx11-{:?}-{}.txt", t.wave, bytes.len()));
    std::fs::write(&path, hex.join(" ")).unwrap();
    let mut args = vec![
        "--disassemble".to_string(),
        "-arch=amdgcn".into(),
        format!("-mcpu={}", t.gen.mcpu()),
    ];
    if t.wave == Wave::W64 {
        args.push("-mattr=+wavefrontsize64".into());
    }
    args.push(path.to_str().unwrap().into());
    let a: Vec<&str> = args.iter().map(|s| s.as_str()).collect();
    let (ok, out) = run_status(mc, &a);
    assert!(ok, "llvm-mc failed:\n{out}");
    out.lines()
        .filter(|l| l.starts_with('\t') && !l.trim_start().starts_with('.'))
        .map(norm)
        .collect()
}

#[test]
fn gfx11_fragment_shaders_disassemble_with_llvm_as_we_print_them() {
    let Some(mc) = oracle("llvm-mc-19") else {
        return;
    };
    for wave in [Wave::W32, Wave::W64] {
        let t = Target::with_wave(Gen::Gfx11, wave).unwrap();
        for fs in FS {
            let c = compile_stage(
                &words("frag", fs),
                Stage::Fragment,
                &Options::new(t),
                &GraphicsState::default(),
            )
            .unwrap_or_else(|e| panic!("{fs} gfx1100/{wave:?}: {e}"));
            let theirs = llvm_mc_disassemble(&mc, t, &c.text[..c.code_bytes as usize]);
            let ours: Vec<String> = c.asm().unwrap().lines().map(norm).collect();
            assert_eq!(ours.len(), theirs.len(), "{fs}/{wave:?}:\n{theirs:#?}");
            for (k, o) in ours.iter().enumerate() {
                if o.contains(".long") {
                    // printer gap (depctr syntax): LLVM must still know the word
                    assert!(
                        theirs[k].starts_with("s_waitcnt_depctr"),
                        "{fs}: {}",
                        theirs[k]
                    );
                    continue;
                }
                assert_eq!(*o, theirs[k], "{fs} gfx1100/{wave:?} instruction {k}");
            }
        }
    }
}

/// The fragment shader with `formats` as the colour export formats of MRT0..
fn state_with_colors(formats: &[ColorFormat]) -> GraphicsState {
    let mut st = GraphicsState::default();
    for (k, f) in formats.iter().enumerate() {
        st.color.insert(k as u32, *f);
    }
    st
}

#[test]
fn sixteen_bit_colour_exports_pack_as_the_attachment_stores_them() {
    // vec4 on MRT0 and MRT1: the 16-bit formats pack two channels per VGPR with the
    // format's conversion, compressed exports on GFX9/GFX10.3, slots 0 and 1 on GFX11
    let cases = [
        (
            ColorFormat::Fp16Abgr,
            ["v_cvt_pkrtz_f16_f32", "v_cvt_pk_rtz_f16_f32"],
            4,
        ),
        (
            ColorFormat::Unorm16Abgr,
            ["v_cvt_pknorm_u16_f32", "v_cvt_pk_norm_u16_f32"],
            5,
        ),
        (
            ColorFormat::Snorm16Abgr,
            ["v_cvt_pknorm_i16_f32", "v_cvt_pk_norm_i16_f32"],
            6,
        ),
    ];
    let fs = words("frag", "gfx_fs_mrt");
    for (gen, wave) in PIPELINE_CONFIGS
        .into_iter()
        .chain([(Gen::Gfx11, Wave::W32), (Gen::Gfx11, Wave::W64)])
    {
        for (f, pack, code) in cases {
            let st = state_with_colors(&[f, ColorFormat::Gr32]);
            let c = compile_stage(&fs, Stage::Fragment, &opts(gen, wave), &st)
                .unwrap_or_else(|e| panic!("{f:?} on {}/{wave:?}: {e}", gen.mcpu()));
            let asm = c.asm().unwrap();
            // the mnemonic as each generation spells it
            let pack = pack[(gen == Gen::Gfx11) as usize];
            let packs = asm.lines().filter(|l| l.contains(pack)).count();
            assert_eq!(packs, 2, "{f:?} on {}:\n{asm}", gen.mcpu());
            let mrt0 = asm.lines().find(|l| l.contains("exp mrt0")).unwrap();
            assert_eq!(
                mrt0.contains("compr"),
                gen != Gen::Gfx11,
                "{f:?} on {}: {mrt0}",
                gen.mcpu()
            );
            if gen != Gen::Gfx11 {
                let vs = words("vert", "gfx_vs_basic");
                let p = compile_pipeline(&vs, &fs, &opts(gen, wave), &st).unwrap();
                let r = registers(&p);
                assert_eq!(r[&regs::SPI_SHADER_COL_FORMAT], code | 2 << 4 | 1 << 8);
                assert_eq!(r[&regs::CB_SHADER_MASK], 0xf | 0x3 << 4 | 0x1 << 8);
            }
        }
    }
}

#[test]
fn gfx11_vertex_shaders_are_ngg_primitive_shaders_with_an_attribute_ring() {
    for wave in [Wave::W32, Wave::W64] {
        for vs in VS {
            let c = compile_stage(
                &words("vert", vs),
                Stage::Vertex,
                &opts(Gen::Gfx11, wave),
                &GraphicsState::default(),
            )
            .unwrap_or_else(|e| panic!("{vs}: {e}"));
            assert_eq!(c.stage, HwStage::Gs, "{vs}");
            let asm = c.asm().unwrap();
            let count = |needle: &str| asm.lines().filter(|l| l.contains(needle)).count();
            assert_eq!(count("sendmsg(MSG_GS_ALLOC_REQ)"), 1, "{vs}:\n{asm}");
            assert_eq!(count("exp prim v0, off, off, off done"), 1, "{vs}:\n{asm}");
            assert_eq!(count("exp param"), 0, "{vs}:\n{asm}");
            // one 16-byte ring store per output location, all done before pos0
            let params = c.program.abi.graphics.vs_params.len();
            assert_eq!(count("buffer_store_b128"), params, "{vs}:\n{asm}");
            if params > 0 {
                let wait = asm.find("s_waitcnt_vscnt null, 0x0").expect("vscnt wait");
                assert!(wait < asm.find("exp pos0").unwrap(), "{vs}:\n{asm}");
            }
        }
    }
}

/// Every vertex and fragment shader of tests/shaders/{vert,frag} compiled alone on each
/// target: the report (run with `--nocapture`) says how many compile and what stops the
/// rest; the shaders written for the backend (`gfx_*`) must all compile.
#[test]
fn graphics_corpus_report() {
    let targets = [
        Target::with_wave(Gen::Gfx9, Wave::W64).unwrap(),
        Target::with_wave(Gen::Gfx10, Wave::W32).unwrap(),
        Target::with_wave(Gen::Gfx11, Wave::W32).unwrap(),
        Target::with_wave(Gen::Gfx11, Wave::W64).unwrap(),
    ];
    for (dir, stage) in [("vert", Stage::Vertex), ("frag", Stage::Fragment)] {
        let mut names: Vec<String> = std::fs::read_dir(format!("tests/shaders/{dir}"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "spv"))
            .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        names.sort();
        for t in targets {
            let mut ok = 0;
            let mut fails = Vec::new();
            for n in &names {
                let stem = n.strip_suffix(".spv").unwrap();
                let r = compile_stage(
                    &words(dir, stem),
                    stage,
                    &Options::new(t),
                    &GraphicsState::default(),
                );
                match r {
                    Ok(_) => ok += 1,
                    Err(e) => {
                        let own = stem.starts_with("gfx_")
                            && !(stage == Stage::Vertex && t.gen == Gen::Gfx11);
                        assert!(!own, "{dir}/{n} on {}: {e}", t.gen.mcpu());
                        fails.push(format!("{n}: {e}"));
                    }
                }
            }
            println!(
                "{dir} {}/{:?}: {ok}/{} compile",
                t.gen.mcpu(),
                t.wave,
                names.len()
            );
            for f in fails {
                println!("  {f}");
            }
        }
    }
}

#[test]
fn vertex_outputs_the_fragment_stage_does_not_read_are_not_computed() {
    // gfx_vs_basic writes location 0, which gfx_fs_fragcoord never reads: the IR link
    // drops it (and the fetch of in_color that fed it), so the vertex chain exports no
    // parameter and fetches one attribute; with gfx_fs_varyings reading it, it stays
    for (gen, wave) in PIPELINE_CONFIGS {
        let p = pipeline("gfx_vs_basic", "gfx_fs_fragcoord", gen, wave);
        assert_eq!(p.dropped_outputs.into_iter().collect::<Vec<_>>(), [0]);
        let asm = p.vs.asm().unwrap();
        let count = |needle: &str| asm.lines().filter(|l| l.contains(needle)).count();
        assert_eq!(count("exp param") + count("buffer_store_b128"), 0, "{asm}");
        assert_eq!(count("tbuffer_load"), 1, "{asm}");
        let kept = pipeline("gfx_vs_basic", "gfx_fs_varyings", gen, wave);
        assert!(kept.dropped_outputs.is_empty());
        assert_eq!(kept.vs.asm().unwrap().matches("tbuffer_load").count(), 2);
    }
}

#[test]
fn fragment_shaders_declaring_geometry_read_layer_viewport_and_the_primitive_id() {
    // The Geometry capability is accepted for the fragment built-ins it enables. gl_Layer
    // and gl_ViewportIndex are flat attributes after the colour; a vertex shader that
    // writes neither leaves them at their default value 0 (OFFSET 0x20, not FLAT_SHADE:
    // with FLAT_SHADE bit 5 would mean passthrough), and they enable no input VGPRs
    // beyond those of one reading only its interpolated colour. gl_PrimitiveID is one
    // more flat attribute, the last, fed by the parameter the vertex epilog adds after
    // the colour (parameter 1), with the registers that give the vertex stage the id
    // (docs/abi.md "Built-ins a fragment shader declares the Geometry capability for").
    for (gen, wave) in PIPELINE_CONFIGS {
        let cfg = format!("{}/{wave:?}", gen.mcpu());
        let o = opts(gen, wave);
        let s = GraphicsState::default();
        let vs = words("draw", "vs_color");
        let p = compile_pipeline(&vs, &words("draw", "fs_layer_viewport"), &o, &s)
            .unwrap_or_else(|e| panic!("{cfg}: {e}"));
        let plain = registers(&compile_pipeline(&vs, &words("draw", "fs_color"), &o, &s).unwrap());
        let r = registers(&p);
        assert_eq!(
            r.get(&regs::SPI_PS_INPUT_ENA).copied(),
            plain.get(&regs::SPI_PS_INPUT_ENA).copied(),
            "{cfg}"
        );
        assert_eq!(
            r[&regs::SPI_PS_IN_CONTROL] & 0x3f,
            3,
            "{cfg}: colour, layer, viewport"
        );
        for k in 1..3 {
            assert_eq!(
                r[&(regs::SPI_PS_INPUT_CNTL_0 + k)],
                0x20,
                "{cfg}: default 0"
            );
        }
        assert_eq!(plain.get(&regs::VGT_PRIMITIVEID_EN), None, "{cfg}");
        let p = compile_pipeline(&vs, &words("draw", "fs_primitive_id"), &o, &s)
            .unwrap_or_else(|e| panic!("{cfg}: gl_PrimitiveID: {e}"));
        let r = registers(&p);
        assert_eq!(r[&regs::SPI_PS_IN_CONTROL] & 0x3f, 2, "{cfg}: colour + id");
        assert_eq!(
            r[&(regs::SPI_PS_INPUT_CNTL_0 + 1)],
            1 | 1 << 10,
            "{cfg}: flat param 1"
        );
        assert_eq!(
            r[&regs::SPI_VS_OUT_CONFIG] >> 1 & 0x1f,
            1,
            "{cfg}: two parameters"
        );
        let ngg = gen != Gen::Gfx9;
        assert_eq!(r[&regs::VGT_PRIMITIVEID_EN], 1 | (ngg as u32) << 2, "{cfg}");
        if ngg {
            let rsrc1 = r[&HwStage::Gs.rsrc1()];
            assert_eq!(rsrc1 >> 29 & 3, 2, "{cfg}: GS_VGPR_COMP_CNT");
            assert_ne!(r[&HwStage::Gs.rsrc2()] >> 19 & 0xff, 0, "{cfg}: LDS_SIZE");
        } else {
            assert_eq!(r[&regs::VGT_GS_MODE], 1, "{cfg}: GS_SCENARIO_A");
            assert!(
                r[&HwStage::Vs.rsrc1()] >> 24 & 3 >= 2,
                "{cfg}: VGPR_COMP_CNT"
            );
        }
    }
}

#[test]
fn vertex_shaders_write_layer_and_viewport_into_the_misc_export_and_parameters() {
    // gl_Layer | gl_ViewportIndex << 16 in pos1.z (Mesa's ac_nir_export_position on
    // GFX9+), PA_CL_VS_OUT_CNTL USE_VTX_RENDER_TARGET_INDX (18) / USE_VTX_VIEWPORT_INDX
    // (19) with VS_OUT_MISC_VEC_ENA (21) and VS_OUT_MISC_SIDE_BUS_ENA (24), two position
    // exports; a fragment shader reading both gets them as flat parameters 1 and 2 (after
    // the colour). One built-in alone: the layer's register is z itself, the viewport is
    // shifted into bits 31:16.
    let cases: [(&str, u32, &str); 3] = [
        ("vs_layer_viewport", 1 << 18 | 1 << 19, "v_lshl_or_b32"),
        ("vs_layer", 1 << 18, ""),
        ("vs_viewport", 1 << 19, "v_lshlrev_b32"),
    ];
    let fs = words("draw_vertex", "fs_layer_viewport_read");
    for (gen, wave) in PIPELINE_CONFIGS {
        for (vs, bits, pack) in cases {
            let cfg = format!("{vs} on {}/{wave:?}", gen.mcpu());
            let p = compile_pipeline(
                &words("draw_vertex", vs),
                &fs,
                &opts(gen, wave),
                &GraphicsState::default(),
            )
            .unwrap_or_else(|e| panic!("{cfg}: {e}"));
            let r = registers(&p);
            assert_eq!(
                r[&regs::PA_CL_VS_OUT_CNTL],
                bits | 1 << 21 | 1 << 24,
                "{cfg}"
            );
            assert_eq!(r[&regs::SPI_SHADER_POS_FORMAT], 0x44, "{cfg}");
            assert_eq!(r[&regs::SPI_PS_IN_CONTROL] & 0x3f, 3, "{cfg}");
            // both read flat; each is the vertex's parameter (the default value when the
            // vertex shader writes only the other one)
            let layer = bits >> 18 & 1 == 1;
            let viewport = bits >> 19 & 1 == 1;
            let mut param = 1;
            for (k, written) in [(1, layer), (2, viewport)] {
                let want = if written {
                    param += 1;
                    (param - 1) | 1 << 10
                } else {
                    0x20
                };
                assert_eq!(
                    r[&(regs::SPI_PS_INPUT_CNTL_0 + k)],
                    want,
                    "{cfg}: input {k}"
                );
            }
            assert_eq!(r[&regs::SPI_VS_OUT_CONFIG] >> 1 & 0x1f, param - 1, "{cfg}");
            let asm = p.vs.asm().unwrap();
            let pos1: Vec<&str> = asm.lines().filter(|l| l.contains("exp pos1")).collect();
            assert_eq!(pos1.len(), 1, "{cfg}: {asm}");
            let z = norm(pos1[0]);
            assert!(z.starts_with("exp pos1 off, off, v"), "{cfg}: {z}");
            assert!(z.ends_with(", off done"), "{cfg}: {z}");
            if !pack.is_empty() {
                let zreg = z.split(", ").nth(2).unwrap().to_string();
                assert!(
                    asm.lines()
                        .map(norm)
                        .any(|l| l.starts_with(pack) && l.contains(&format!(" {zreg}, "))),
                    "{cfg}: {zreg} packed by {pack}: {asm}"
                );
            }
        }
    }
}
