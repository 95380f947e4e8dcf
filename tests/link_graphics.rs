//! Graphics parts and the graphics link (issue 14, docs/link.md "Graphics parts"), below
//! the draws of `tools/cli/tests/draw_unlinked.rs`: the colour-export epilog for every
//! export format on every generation decoded by llvm-objdump-19, a linked pipeline's
//! layout (prolog and epilogs spliced by fall-through, every word decodable), and the
//! typed errors of a link that cannot be made.

mod link_support;

use gcnc::amdgpu::abi_graphics::ColorFormat;
use gcnc::compile_graphics_unlinked::{compile_stage_unlinked, UnlinkedStage};
use gcnc::ir::Stage;
use gcnc::isa::{Gen, Target, Wave};
use gcnc::link::state::{
    ColorState, GraphicsLinkState, VertexAttributeState, VertexBindingState, VertexFormat,
};
use gcnc::link::{Error, PipelineState};
use gcnc::parts::{PartCache, PartKey, PsEpilogKey};
use link_support::objdump;

const TARGETS: [(Gen, Wave); 5] = [
    (Gen::Gfx9, Wave::W64),
    (Gen::Gfx10, Wave::W32),
    (Gen::Gfx10, Wave::W64),
    (Gen::Gfx11, Wave::W32),
    (Gen::Gfx11, Wave::W64),
];

fn target(gen: Gen, wave: Wave) -> Target {
    Target { gen, wave }
}

fn stage(name: &str, stage: Stage, t: Target) -> UnlinkedStage {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/shaders/draw")
        .join(name);
    let words = gcnc::front::spirv::words_from_bytes(&std::fs::read(&path).unwrap()).unwrap();
    compile_stage_unlinked(&words, stage, &gcnc::Options::new(t))
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// The disassembly of a part, one instruction per line.
fn part_asm(key: &PartKey, name: &str) -> Option<String> {
    let p = key.build().unwrap();
    let elf = p.to_code_object().write().unwrap();
    let insts = objdump(&elf, name)?;
    Some(
        insts
            .into_iter()
            .map(|i| i.1)
            .collect::<Vec<_>>()
            .join("\n"),
    )
}

#[test]
fn the_colour_epilog_exports_every_format_as_the_hardware_reads_it() {
    use ColorFormat::*;
    // GFX11 spells two of them with another underscore
    let packs = [
        (Fp16Abgr, ["v_cvt_pkrtz_f16_f32", "v_cvt_pk_rtz_f16_f32"]),
        (
            Unorm16Abgr,
            ["v_cvt_pknorm_u16_f32", "v_cvt_pk_norm_u16_f32"],
        ),
        (
            Snorm16Abgr,
            ["v_cvt_pknorm_i16_f32", "v_cvt_pk_norm_i16_f32"],
        ),
        (Uint16Abgr, ["v_cvt_pk_u16_u32", "v_cvt_pk_u16_u32"]),
        (Sint16Abgr, ["v_cvt_pk_i16_i32", "v_cvt_pk_i16_i32"]),
    ];
    for (gen, wave) in TARGETS {
        let t = target(gen, wave);
        let gfx11 = gen == Gen::Gfx11;
        let vm = if gfx11 { "" } else { " vm" };
        let chans = [Some(4), Some(5), Some(6), Some(7)];
        let one = |f: ColorFormat| {
            PartKey::PsEpilog(PsEpilogKey {
                target: t,
                colors: vec![(1, f, chans)],
                depth: None,
                sample_mask: None,
                mrtz_alpha: None,
                dual_source: None,
                alpha_test: None,
            })
        };
        let name = |f: ColorFormat| format!("ps_epilog_{f:?}_{}_{wave:?}.elf", gen.mcpu());
        let plain = [
            (R32, "exp mrt1 v4, off, off, off done"),
            (Gr32, "exp mrt1 v4, v5, off, off done"),
            // 32_AR: alpha in w on GFX9, in the second slot on GFX10+
            (
                Ar32,
                if gen == Gen::Gfx9 {
                    "exp mrt1 v4, off, off, v7 done"
                } else {
                    "exp mrt1 v4, v7, off, off done"
                },
            ),
            (Abgr32, "exp mrt1 v4, v5, v6, v7 done"),
        ];
        for (f, want) in plain {
            let Some(asm) = part_asm(&one(f), &name(f)) else {
                return;
            };
            assert!(
                asm.contains(&format!("{want}{vm}")),
                "{f:?} on {gen:?}:\n{asm}"
            );
            assert!(asm.ends_with("s_endpgm"), "{asm}");
        }
        for (f, op) in packs {
            let asm = part_asm(&one(f), &name(f)).unwrap();
            // two packs into scratch VGPRs above the key's (v8, v9)
            let op = op[gfx11 as usize];
            let n = asm
                .lines()
                .filter(|l| {
                    ["", "_e32", "_e64"]
                        .iter()
                        .any(|e| l.starts_with(&format!("{op}{e} ")))
                })
                .count();
            assert_eq!(n, 2, "{f:?} on {gen:?}:\n{asm}");
            assert!(
                asm.contains("v8, v4, v5") && asm.contains("v9, v6, v7"),
                "{asm}"
            );
            let want = if gfx11 {
                "exp mrt1 v8, v9, off, off done".to_string()
            } else {
                format!("exp mrt1 v8, v8, v9, v9 done compr{vm}")
            };
            assert!(asm.contains(&want), "{f:?} on {gen:?}:\n{asm}");
        }
        // depth alone, and nothing at all (the null export)
        let depth = PartKey::PsEpilog(PsEpilogKey {
            target: t,
            colors: vec![],
            depth: Some(3),
            sample_mask: None,
            mrtz_alpha: None,
            dual_source: None,
            alpha_test: None,
        });
        let asm = part_asm(&depth, &format!("ps_depth_{}.elf", gen.mcpu())).unwrap();
        assert!(
            asm.contains(&format!("exp mrtz v3, off, off, off done{vm}")),
            "{asm}"
        );
        let none = PartKey::PsEpilog(PsEpilogKey {
            target: t,
            colors: vec![],
            depth: None,
            sample_mask: None,
            mrtz_alpha: None,
            dual_source: None,
            alpha_test: None,
        });
        let asm = part_asm(&none, &format!("ps_none_{}.elf", gen.mcpu())).unwrap();
        let null = if gfx11 {
            "exp mrt0 off, off, off, off done"
        } else {
            "exp null off, off, off, off done vm"
        };
        assert!(asm.contains(null), "{asm}");
    }
}

#[test]
fn dual_source_exports_mrt1_before_gfx11_and_swizzles_lane_pairs_on_gfx11() {
    // source 0 in v4..v7, source 1 in v8..v11 (alpha unwritten), 32_ABGR
    let src0 = [Some(4), Some(5), Some(6), Some(7)];
    let src1 = [Some(8), Some(9), Some(10), None];
    for (gen, wave) in TARGETS {
        let t = target(gen, wave);
        let key = PartKey::PsEpilog(PsEpilogKey {
            target: t,
            colors: vec![(0, ColorFormat::Abgr32, src0)],
            depth: None,
            sample_mask: None,
            mrtz_alpha: None,
            dual_source: Some(src1),
            alpha_test: None,
        });
        let name = format!("ps_dual_{}_{wave:?}.elf", gen.mcpu());
        let Some(asm) = part_asm(&key, &name) else {
            return;
        };
        if gen != Gen::Gfx11 {
            let want = "exp mrt0 v4, v5, v6, v7\nexp mrt1 v8, v9, v10, off done vm\ns_endpgm";
            assert!(asm.ends_with(want), "{gen:?}:\n{asm}");
            continue;
        }
        let lines: Vec<&str> = asm.lines().collect();
        // the live mask kept, EXEC widened to quads, dead lanes' sources zeroed
        let (mov, wqm, andn) = if wave == Wave::W32 {
            (
                "s_mov_b32 s0, exec_lo",
                "s_wqm_b32 exec_lo, exec_lo",
                "s_and_not1_b32 exec_lo, exec_lo, s0",
            )
        } else {
            (
                "s_mov_b64 s[0:1], exec",
                "s_wqm_b64 exec, exec",
                "s_and_not1_b64 exec, exec, s[0:1]",
            )
        };
        assert_eq!(&lines[..3], &[mov, wqm, andn], "{asm}");
        for r in 4..=10 {
            assert!(
                asm.contains(&format!("v_mov_b32_e32 v{r}, 0\n")),
                "v{r}:\n{asm}"
            );
        }
        // each slot: both sources from the other lane of the pair, then the selects
        let dpp = lines
            .iter()
            .filter(|l| l.contains("quad_perm:[1,0,3,2]"))
            .count();
        let sel = lines
            .iter()
            .filter(|l| l.starts_with("v_cndmask_b32"))
            .count();
        assert_eq!((dpp, sel), (8, 8), "{asm}");
        assert!(asm.contains("s_mov_b32 vcc_lo, 0x55555555"), "{asm}");
        assert_eq!(
            asm.contains("s_mov_b32 vcc_hi, 0x55555555"),
            wave == Wave::W64,
            "{asm}"
        );
        let tail: Vec<&str> = lines[lines.len() - 4..].to_vec();
        let restore = if wave == Wave::W32 {
            "s_mov_b32 exec_lo, s0"
        } else {
            "s_mov_b64 exec, s[0:1]"
        };
        assert_eq!(tail[0], restore, "{asm}");
        assert!(
            tail[1].starts_with("exp dual_src_blend0 v") && !tail[1].contains("off"),
            "{asm}"
        );
        assert!(
            tail[2].starts_with("exp dual_src_blend1 v") && tail[2].ends_with(" done"),
            "{asm}"
        );
        assert_eq!(tail[3], "s_endpgm");
    }
}

#[test]
fn the_alpha_test_keeps_in_exec_the_lanes_that_pass() {
    use gcnc::amdgpu::abi_graphics::{AlphaTest, CompareFunc};
    // alpha in v7; the comparison is mirrored so the reference literal is source 0
    let cases = [
        (CompareFunc::Less, Some("v_cmpx_gt_f32_e32")),
        (CompareFunc::Equal, Some("v_cmpx_eq_f32_e32")),
        (CompareFunc::LessOrEqual, Some("v_cmpx_ge_f32_e32")),
        (CompareFunc::Greater, Some("v_cmpx_lt_f32_e32")),
        (CompareFunc::NotEqual, Some("v_cmpx_neq_f32_e32")),
        (CompareFunc::GreaterOrEqual, Some("v_cmpx_le_f32_e32")),
        (CompareFunc::Never, None),
        (CompareFunc::Always, None),
    ];
    for (gen, wave) in TARGETS {
        let t = target(gen, wave);
        for (func, op) in cases {
            let key = PartKey::PsEpilog(PsEpilogKey {
                target: t,
                colors: vec![(0, ColorFormat::Abgr32, [Some(4), Some(5), Some(6), Some(7)])],
                depth: None,
                sample_mask: None,
                mrtz_alpha: None,
                dual_source: None,
                alpha_test: Some((
                    AlphaTest {
                        func,
                        reference: 0.375f32.to_bits(),
                    },
                    Some(7),
                )),
            });
            let name = format!("ps_alpha_{}_{}_{wave:?}.elf", func.name(), gen.mcpu());
            let Some(asm) = part_asm(&key, &name) else {
                return;
            };
            let first = asm.lines().next().unwrap();
            match (func, op) {
                (_, Some(op)) => {
                    // GFX9 names VCC, which v_cmpx also writes there
                    let vcc = if gen == Gen::Gfx9 { "vcc, " } else { "" };
                    assert_eq!(first, format!("{op} {vcc}0x3ec00000, v7"), "{asm}");
                }
                (CompareFunc::Never, _) => {
                    let clear = if wave == Wave::W32 {
                        "s_mov_b32 exec_lo, 0"
                    } else {
                        "s_mov_b64 exec, 0"
                    };
                    assert_eq!(first, clear, "{asm}");
                }
                _ => assert!(first.starts_with("exp mrt0"), "{asm}"),
            }
        }
    }
}

#[test]
fn the_fetch_prolog_divides_the_instance_by_each_bindings_divisor() {
    use gcnc::parts::vs_prolog::FetchedAttribute;
    use gcnc::parts::VsPrologKey;
    // divisor 0 (BaseInstance), 1 (plain), 3 (multiply-high), 4 (shift), 7 (33-bit
    // multiplier), 2^31 + 1 (the same above 2^31): each index is InstanceID (v1) / divisor
    // + BaseInstance (s2), in the destination of the load that reads it (v4 + k), the
    // multiplier in s36 (after the six V#s); every attribute VGPR holds an index, so the
    // 33-bit scheme's correction takes v10, above them
    let divisors = [0, 1, 3, 4, 7, 0x8000_0001];
    let gfx9 = "v_mov_b32_e32 v4, s2
v_add_u32_e32 v5, s2, v1
s_mov_b32 s36, 0xaaaaaaab
v_mul_hi_u32 v6, s36, v1
v_lshrrev_b32_e32 v6, 1, v6
v_add_u32_e32 v6, s2, v6
v_lshrrev_b32_e32 v7, 2, v1
v_add_u32_e32 v7, s2, v7
s_mov_b32 s36, 0x24924925
v_mul_hi_u32 v8, s36, v1
v_sub_u32_e32 v10, v1, v8
v_lshrrev_b32_e32 v10, 1, v10
v_add_u32_e32 v8, v10, v8
v_lshrrev_b32_e32 v8, 2, v8
v_add_u32_e32 v8, s2, v8
s_mov_b32 s36, -3
v_mul_hi_u32 v9, s36, v1
v_sub_u32_e32 v10, v1, v9
v_lshrrev_b32_e32 v10, 1, v10
v_add_u32_e32 v9, v10, v9
v_lshrrev_b32_e32 v9, 31, v9
v_add_u32_e32 v9, s2, v9
s_waitcnt lgkmcnt(0)
";
    for (gen, wave) in TARGETS {
        let attributes = divisors
            .iter()
            .enumerate()
            .map(|(k, &divisor)| FetchedAttribute {
                location: k as u32,
                first: 4 + k as u16,
                count: 1,
                binding: k as u32,
                offset: 0,
                format: VertexFormat::R32_SFLOAT,
                per_instance: true,
                divisor,
            })
            .collect();
        let key = PartKey::VsProlog(VsPrologKey {
            target: target(gen, wave),
            attributes,
            vertex_id: 0,
            instance_id: 1,
            vb_table: 0,
            base_vertex: 1,
            base_instance: 2,
            launch_sgprs: 3,
            next: "main".into(),
        });
        let name = format!("vs_prolog_divisors_{}_{wave:?}.elf", gen.mcpu());
        let Some(asm) = part_asm(&key, &name) else {
            return;
        };
        assert_eq!(asm.matches("v_mul_hi_u32").count(), 3, "{asm}");
        if gen == Gen::Gfx9 {
            assert!(asm.contains(gfx9), "{asm}");
        }
        // element k of binding k is read at the index in the load's own destination
        for k in 0..divisors.len() {
            let load = format!("v{0}, v{0}, s[{1}:{2}]", 4 + k, 12 + 4 * k, 15 + 4 * k);
            assert!(asm.contains(&load), "binding {k}: no `{load}` in\n{asm}");
        }
    }
}

fn draw_state() -> PipelineState {
    PipelineState {
        graphics: Some(GraphicsLinkState {
            vertex_bindings: vec![
                VertexBindingState {
                    binding: 0,
                    stride: 32,
                    per_instance: false,
                    divisor: 1,
                },
                VertexBindingState {
                    binding: 1,
                    stride: 16,
                    per_instance: true,
                    divisor: 1,
                },
            ],
            vertex_attributes: vec![
                VertexAttributeState {
                    location: 0,
                    binding: 0,
                    offset: 0,
                    format: VertexFormat::R32G32B32A32_SFLOAT,
                },
                VertexAttributeState {
                    location: 1,
                    binding: 0,
                    offset: 16,
                    format: VertexFormat::R32G32B32A32_SFLOAT,
                },
                VertexAttributeState {
                    location: 2,
                    binding: 1,
                    offset: 0,
                    format: VertexFormat::R32G32B32_SFLOAT,
                },
            ],
            color_formats: vec![ColorState {
                location: 0,
                format: "FP16_ABGR".into(),
                channels: 0xf,
                write_mask: 0xf,
            }],
            ..Default::default()
        }),
        ..Default::default()
    }
}

#[test]
fn a_linked_pipeline_splices_prolog_main_and_epilogs_by_fall_through() {
    for (gen, wave) in TARGETS {
        let t = target(gen, wave);
        let vs = stage("vs_instanced.spv", Stage::Vertex, t);
        let fs = stage("fs_color.spv", Stage::Fragment, t);
        // the unlinked stages name what they lack and end in the branch to the epilog
        assert!(vs.interface.inputs.len() >= 3, "{:?}", vs.interface.inputs);
        assert_eq!(vs.compiled.relocations.len(), 1);
        assert_eq!(vs.compiled.relocations[0].symbol, "gcnc.next");
        let cache = PartCache::new();
        let linked = gcnc::link::link(&[&vs.elf, &fs.elf], &draw_state(), &cache).unwrap();
        let kinds: Vec<(String, bool)> = linked
            .placed
            .iter()
            .map(|p| {
                (
                    p.symbol.split('.').take(3).collect::<Vec<_>>().join("."),
                    p.fell_through,
                )
            })
            .collect();
        let want = [
            ("gcnc.part.vs_prolog", true),
            ("gcnc.main.gs", true),
            ("gcnc.part.vs_epilog", false),
            ("gcnc.main.ps", true),
            ("gcnc.part.ps_epilog", false),
        ];
        let want: Vec<(String, bool)> = want
            .iter()
            .map(|(s, f)| {
                let s = if gen == Gen::Gfx9 {
                    s.replace("main.gs", "main.vs")
                } else {
                    s.to_string()
                };
                (s, *f)
            })
            .collect();
        assert_eq!(kinds, want, "{gen:?} {wave:?}");
        // the main parts stay 256-byte aligned
        for p in &linked.placed {
            if p.symbol.starts_with("gcnc.main") {
                assert_eq!(p.offset % 256, 0, "{p:?}");
            }
        }
        assert_eq!(cache.stats().0, 3, "three parts built");
        gcnc::link::link(&[&vs.elf, &fs.elf], &draw_state(), &cache).unwrap();
        assert_eq!(cache.stats(), (3, 3), "built once per key");
        let Some(insts) = objdump(
            &linked.elf,
            &format!("pipeline_{}_{wave:?}.elf", gen.mcpu()),
        ) else {
            continue;
        };
        let asm: Vec<&str> = insts.iter().map(|i| i.1.as_str()).collect();
        assert_eq!(
            asm.iter()
                .filter(|l| l.starts_with("tbuffer_load_format"))
                .count(),
            3
        );
        let ring = asm
            .iter()
            .filter(|l| l.starts_with("buffer_store_b128"))
            .count();
        assert_eq!(ring, if gen == Gen::Gfx11 { 1 } else { 0 }, "{asm:#?}");
        assert!(
            asm.iter().any(|l| l.starts_with("v_cvt_pk")),
            "FP16_ABGR packs"
        );
        assert!(!asm.iter().any(|l| l.contains("gcnc")), "no symbol left");
    }
}

fn link_err(vs: &UnlinkedStage, fs: &UnlinkedStage, state: &PipelineState) -> Error {
    gcnc::link::link(&[&vs.elf, &fs.elf], state, &PartCache::new()).unwrap_err()
}

#[test]
fn a_link_the_state_cannot_complete_is_a_typed_error() {
    let t = target(Gen::Gfx10, Wave::W32);
    let vs = stage("vs_instanced.spv", Stage::Vertex, t);
    let fs = stage("fs_color.spv", Stage::Fragment, t);
    let path = |e: Error| match e {
        Error::State { path, reason } => (path, reason),
        other => panic!("{other}"),
    };
    let (p, r) = path(link_err(&vs, &fs, &PipelineState::default()));
    assert_eq!(p, "graphics", "{r}");
    let mut st = draw_state();
    st.graphics.as_mut().unwrap().vertex_attributes.remove(2);
    let (p, r) = path(link_err(&vs, &fs, &st));
    assert_eq!(p, "graphics.vertex_attributes");
    assert!(r.contains("location 2"), "{r}");
    let mut st = draw_state();
    st.graphics.as_mut().unwrap().vertex_attributes[0].offset = 4090;
    let (p, r) = path(link_err(&vs, &fs, &st));
    assert_eq!(p, "graphics.vertex_attributes[0]");
    assert!(r.contains("cannot feed"), "{r}");
    let mut st = draw_state();
    st.graphics.as_mut().unwrap().color_formats[0].format = "RGBA8".into();
    let (p, _) = path(link_err(&vs, &fs, &st));
    assert_eq!(p, "graphics.color_formats[0]");
    let mut st = draw_state();
    st.graphics.as_mut().unwrap().vertex_bindings[0].divisor = 2;
    let (p, r) = path(link_err(&vs, &fs, &st));
    assert_eq!(p, "graphics.vertex_bindings[0]");
    assert!(r.contains("per_instance"), "{r}");
    let st = PipelineState {
        user_data: Some(gcnc::link::state::UserDataLayout {
            sgprs: vec![],
            table: vec![],
        }),
        ..draw_state()
    };
    let (p, _) = path(link_err(&vs, &fs, &st));
    assert_eq!(p, "user_data");
    // one stage alone is not a pipeline
    let e = gcnc::link::link(&[&fs.elf], &draw_state(), &PartCache::new()).unwrap_err();
    assert!(matches!(e, Error::NotUnlinked { .. }), "{e}");
    assert!(e.to_string().contains("vertex stage"), "{e}");
}

/// A driver keeps each unlinked stage's read input beside its cached ELF: linking from
/// those (`link_read`, nothing parsed) gives the same pipeline ELF as linking the bytes,
/// and the same typed errors (a second vertex shader).
#[test]
fn linking_inputs_read_before_gives_the_same_pipeline() {
    use gcnc::link::input::read_input;
    for (gen, wave) in TARGETS {
        let t = target(gen, wave);
        let vs = stage("vs_instanced.spv", Stage::Vertex, t);
        let fs = stage("fs_color.spv", Stage::Fragment, t);
        let cache = PartCache::new();
        let state = draw_state();
        let read = [
            read_input(0, &vs.elf).unwrap(),
            read_input(1, &fs.elf).unwrap(),
        ];
        let from_bytes = gcnc::link::link(&[&vs.elf, &fs.elf], &state, &cache).unwrap();
        let from_read = gcnc::link::link_read(&read, &state, &cache).unwrap();
        assert_eq!(from_read.elf, from_bytes.elf, "{gen} {wave:?}");
        let twice = [read[0].clone(), read_input(1, &vs.elf).unwrap()];
        let e = gcnc::link::link_read(&twice, &state, &cache).unwrap_err();
        assert!(
            matches!(e, Error::NotUnlinked { input: 1, .. }),
            "{gen} {wave:?}: {e}"
        );
    }
}

/// Forced per-sample interpolation (docs/link.md "The PS prolog"): `fs_force_sample`
/// enables PERSP_CENTER (v0-1), PERSP_CENTROID (v2-3), LINEAR_CENTER (v4-5) and
/// FRONT_FACE (v6); the hardware also loads PERSP_SAMPLE and LINEAR_SAMPLE, which come
/// first in bit order (PERSP_SAMPLE v0-1, centre v2-3, centroid v4-5, LINEAR_SAMPLE v6-7,
/// linear centre v8-9, FRONT_FACE v10), so the prolog spliced before the main part copies
/// the sample I/J over the centroid's, the linear sample's over the linear centre's, and
/// moves the face down — in that order, every source read before it is overwritten.
#[test]
fn forced_per_sample_interpolation_splices_a_ps_prolog_moving_the_inputs() {
    for (gen, wave) in TARGETS {
        let t = target(gen, wave);
        let vs = stage("vs_interp.spv", Stage::Vertex, t);
        let fs = stage("fs_force_sample.spv", Stage::Fragment, t);
        assert_eq!(
            fs.interface.ps_input_ena,
            1 << 1 | 1 << 2 | 1 << 5 | 1 << 12
        );
        let cache = PartCache::new();
        let plain = gcnc::link::link(&[&vs.elf, &fs.elf], &draw_state(), &cache).unwrap();
        assert!(
            !plain.placed.iter().any(|p| p.symbol.contains("ps_prolog")),
            "no prolog without the state"
        );
        let mut state = draw_state();
        state.graphics.as_mut().unwrap().force_sample_interpolation = true;
        let linked = gcnc::link::link(&[&vs.elf, &fs.elf], &state, &cache).unwrap();
        let at = |s: &str| {
            linked
                .placed
                .iter()
                .find(|p| p.symbol.starts_with(s))
                .unwrap_or_else(|| panic!("no {s} in {:?}", linked.placed))
        };
        let (prolog, main) = (at("gcnc.part.ps_prolog"), at("gcnc.main.ps"));
        assert!(prolog.fell_through, "{prolog:?}");
        assert_eq!(main.offset % 256, 0);
        assert!(prolog.offset < main.offset);
        let Some(insts) = objdump(
            &linked.elf,
            &format!("ps_prolog_{}_{wave:?}.elf", gen.mcpu()),
        ) else {
            continue;
        };
        let code: Vec<&str> = insts
            .iter()
            .filter(|i| i.0 >= prolog.offset && i.0 < main.offset)
            .map(|i| i.1.as_str())
            .collect();
        let mut want = vec![
            "v_mov_b32_e32 v2, v0",
            "v_mov_b32_e32 v3, v1",
            "v_mov_b32_e32 v4, v6",
            "v_mov_b32_e32 v5, v7",
            "v_mov_b32_e32 v6, v10",
        ];
        if gen == Gen::Gfx11 {
            // GFX11: no VALU result outstanding at the splice
            want.push("s_waitcnt_depctr va_vdst(0)");
        }
        let code: Vec<String> = code
            .iter()
            .map(|l| {
                let l = l.split_whitespace().collect::<Vec<_>>().join(" ");
                l.replace("depctr_va_vdst", "va_vdst")
            })
            .collect();
        assert_eq!(code, want, "{gen:?} {wave:?}");
    }
}

/// gl_SampleMaskIn in a shader that is not sample-rate is compiled both ways: the link
/// writes the state's sample shading into the relocated literal of
/// `gcnc.choice.per_sample`, so the two pipelines differ in exactly that dword (0 or 1);
/// a `choices` entry contradicting the state is a typed error; and a shader that
/// interpolates at an offset cannot have its centre replaced by forced per-sample
/// interpolation.
#[test]
fn the_per_sample_choice_is_the_literal_the_link_writes() {
    for (gen, wave) in TARGETS {
        let t = target(gen, wave);
        let vs = stage("vs_color.spv", Stage::Vertex, t);
        let fs = stage("fs_sample_mask_in.spv", Stage::Fragment, t);
        assert!(
            fs.compiled
                .relocations
                .iter()
                .any(|r| r.symbol == "gcnc.choice.per_sample"),
            "{:?}",
            fs.compiled.relocations
        );
        let cache = PartCache::new();
        let texts: Vec<Vec<u8>> = [false, true]
            .into_iter()
            .map(|on| {
                let mut state = draw_state();
                state.graphics.as_mut().unwrap().sample_shading = on;
                let l = gcnc::link::link(&[&vs.elf, &fs.elf], &state, &cache).unwrap();
                l.object.text
            })
            .collect();
        assert_eq!(texts[0].len(), texts[1].len());
        let dw = |b: &[u8], k: usize| u32::from_le_bytes(b[4 * k..4 * k + 4].try_into().unwrap());
        let diff: Vec<(u32, u32)> = (0..texts[0].len() / 4)
            .filter(|&k| dw(&texts[0], k) != dw(&texts[1], k))
            .map(|k| (dw(&texts[0], k), dw(&texts[1], k)))
            .collect();
        assert_eq!(diff, vec![(0, 1)], "{gen:?} {wave:?}");
        let mut state = draw_state();
        state.choices.insert("per_sample".into(), true);
        match link_err(&vs, &fs, &state) {
            Error::State { path, .. } => assert_eq!(path, "choices.per_sample"),
            e => panic!("{e}"),
        }
    }
    let t = target(Gen::Gfx10, Wave::W32);
    let vs = stage("vs_color2.spv", Stage::Vertex, t);
    let fs = stage("fs_interp_offset.spv", Stage::Fragment, t);
    let mut state = draw_state();
    state.graphics.as_mut().unwrap().force_sample_interpolation = true;
    match link_err(&vs, &fs, &state) {
        Error::State { path, reason } => {
            assert_eq!(path, "graphics.force_sample_interpolation", "{reason}")
        }
        e => panic!("{e}"),
    }
}

/// A GFX9 hardware VS that uses scratch is launched with the scratch wave offset in the
/// SGPR right after its user SGPRs (docs/abi.md "Registers at wave start"), so the fetch
/// prolog's scratch SGPRs must start above it: the prolog keyed for `vs_scratch_array`
/// (inputs and a function-local array) on gfx900 clobbers nothing at or below that SGPR,
/// and counts it among the launch's SGPRs. NGG stages have their system SGPRs below their
/// user SGPRs (s0..s7), so there the prolog starts above the user SGPRs.
#[test]
fn the_fetch_prolog_keeps_the_hardware_vs_scratch_offset() {
    for (gen, wave) in TARGETS {
        let t = target(gen, wave);
        let vs = stage("vs_scratch_array.spv", Stage::Vertex, t);
        let fs = stage("fs_color.spv", Stage::Fragment, t);
        assert!(vs.interface.scratch_bytes > 0, "the VS uses scratch");
        let user = vs.interface.user_data.len() as u16;
        let mut state = draw_state();
        let g = state.graphics.as_mut().unwrap();
        g.vertex_attributes.truncate(2);
        g.vertex_attributes[1].format = VertexFormat::R32G32_SFLOAT;
        let keys = gcnc::link::needed_parts(&[&vs.elf, &fs.elf], &state).unwrap();
        let key = keys
            .iter()
            .find_map(|k| match k {
                PartKey::VsProlog(p) => Some(p),
                _ => None,
            })
            .expect("a fetch prolog");
        // the last SGPR the launch fills: the scratch wave offset on GFX9, the last user
        // SGPR (from s8) on NGG
        let last_launch = if gen == Gen::Gfx9 { user } else { 8 + user - 1 };
        assert_eq!(key.launch_sgprs, last_launch + 1, "{gen:?} {wave:?}");
        let part = PartKey::VsProlog(key.clone()).build().unwrap();
        let clobbers = part
            .interface
            .iter()
            .find(|(k, _)| *k == "clobbers")
            .map(|(_, v)| v.clone())
            .unwrap();
        let first: u16 = clobbers[0]
            .strip_prefix('s')
            .and_then(|s| s.split("..").next())
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("{clobbers:?}"));
        assert!(
            first > last_launch,
            "{gen:?} {wave:?}: the prolog clobbers s{first}, the launch fills up to s{last_launch}"
        );
    }
}

/// Multiview (docs/link.md "Multiview"): vs_multiview and fs_multiview read gl_ViewIndex,
/// so each main part carries a `gcnc.choice.multiview` literal. Linked without and with a
/// view mask, the main parts differ in exactly those literals (0, then 1), and only the
/// multiview link's vertex epilog exports the misc vector (`pos1`) with the view index
/// copied from an SGPR as the layer; a `choices.multiview` contradicting the state, and
/// gl_Layer written under a view mask, are `State` errors.
#[test]
fn multiview_is_a_literal_and_a_layer_export() {
    let load = |name: &str, stage: Stage, t: Target| {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/shaders/draw_vertex")
            .join(name);
        let words = gcnc::front::spirv::words_from_bytes(&std::fs::read(&path).unwrap()).unwrap();
        compile_stage_unlinked(&words, stage, &gcnc::Options::new(t)).unwrap()
    };
    for (gen, wave) in TARGETS {
        let t = target(gen, wave);
        let vs = load("vs_multiview.spv", Stage::Vertex, t);
        let fs = load("fs_multiview.spv", Stage::Fragment, t);
        for s in [&vs, &fs] {
            assert!(
                s.compiled
                    .relocations
                    .iter()
                    .any(|r| r.symbol == "gcnc.choice.multiview"),
                "{:?}",
                s.compiled.relocations
            );
        }
        let cache = PartCache::new();
        let linked: Vec<gcnc::link::Linked> = [0, 0b101]
            .into_iter()
            .map(|mask| {
                let mut state = draw_state();
                state.graphics.as_mut().unwrap().view_mask = mask;
                gcnc::link::link(&[&vs.elf, &fs.elf], &state, &cache).unwrap()
            })
            .collect();
        let part = |l: &gcnc::link::Linked, s: &str| {
            let p = l
                .placed
                .iter()
                .find(|p| p.symbol.starts_with(s))
                .unwrap_or_else(|| panic!("no {s} in {:?}", l.placed));
            l.object.text[p.offset as usize..(p.offset + p.size) as usize].to_vec()
        };
        let dw = |b: &[u8], k: usize| u32::from_le_bytes(b[4 * k..4 * k + 4].try_into().unwrap());
        for main in ["gcnc.main.vs", "gcnc.main.gs", "gcnc.main.ps"] {
            if !linked[0].placed.iter().any(|p| p.symbol.starts_with(main)) {
                continue;
            }
            let (a, b) = (part(&linked[0], main), part(&linked[1], main));
            assert_eq!(a.len(), b.len());
            let diff: Vec<(u32, u32)> = (0..a.len() / 4)
                .filter(|&k| dw(&a, k) != dw(&b, k))
                .map(|k| (dw(&a, k), dw(&b, k)))
                .collect();
            assert_eq!(diff, vec![(0, 1)], "{main} on {gen:?} {wave:?}");
        }
        let epilog_asm = |l: &gcnc::link::Linked, tag: &str| -> Option<Vec<String>> {
            let p = l
                .placed
                .iter()
                .find(|p| p.symbol.starts_with("gcnc.part.vs_epilog"))
                .unwrap();
            let insts = objdump(
                &l.elf,
                &format!("multiview_{tag}_{}_{wave:?}.elf", gen.mcpu()),
            )?;
            Some(
                insts
                    .into_iter()
                    .filter(|i| i.0 >= p.offset && i.0 < p.offset + p.size)
                    .map(|i| i.1.split_whitespace().collect::<Vec<_>>().join(" "))
                    .collect(),
            )
        };
        let (Some(plain), Some(views)) =
            (epilog_asm(&linked[0], "off"), epilog_asm(&linked[1], "on"))
        else {
            continue;
        };
        assert!(
            !plain.iter().any(|l| l.starts_with("exp pos1")),
            "{plain:#?}"
        );
        let pos1 = views
            .iter()
            .find(|l| l.starts_with("exp pos1"))
            .unwrap_or_else(|| panic!("no pos1 export: {views:#?}"));
        // exp pos1 off, off, vZ, off: z is the VGPR the view index's SGPR was copied into
        let z = pos1.split(", ").nth(2).unwrap().to_string();
        assert!(
            views
                .iter()
                .any(|l| l.starts_with(&format!("v_mov_b32_e32 {z}, s"))),
            "{gen:?} {wave:?}: {pos1} without the copy into {z}: {views:#?}"
        );
    }
    // a contradicting choice, and gl_Layer under a view mask
    let t = target(Gen::Gfx10, Wave::W32);
    let vs = load("vs_multiview.spv", Stage::Vertex, t);
    let fs = load("fs_multiview.spv", Stage::Fragment, t);
    let mut state = draw_state();
    state.choices.insert("multiview".into(), true);
    match link_err(&vs, &fs, &state) {
        Error::State { path, .. } => assert_eq!(path, "choices.multiview"),
        e => panic!("{e}"),
    }
    let layer = load("vs_layer.spv", Stage::Vertex, t);
    let mut state = draw_state();
    state.graphics.as_mut().unwrap().view_mask = 1;
    match link_err(&layer, &fs, &state) {
        Error::State { path, .. } => assert_eq!(path, "graphics.view_mask"),
        e => panic!("{e}"),
    }
}
