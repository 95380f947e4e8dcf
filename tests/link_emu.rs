//! Linked compute shaders run on the emulator (tools/emu): a main part compiled against
//! an assumed user-SGPR placement, linked with layouts that differ from it (forcing the CS
//! prolog's moves, cycles, table loads and system-SGPR moves), computes the same result as
//! the same main part linked with the layout it assumed (no prolog) — for every workgroup,
//! on gfx900 (wave64), gfx1030 and gfx1100 (wave32 and wave64). The emulator reports any
//! read of an unwritten register, missing s_waitcnt or hazard, so a prolog that leaves one
//! across the splice fails here.
//!
//! Graphics: every shape of the colour-export epilog — each export format at each
//! location, 0 to 8 colour outputs, with and without a depth export, dual-source blending,
//! the alpha test — spliced after a fragment main part compiled once per shape (its
//! outputs are constants), drawn on the emulator under every strict check (the splice's
//! boundary: nothing outstanding, no hazard, no read of a register the main part did not
//! write) on the five draw configurations, each covered pixel equal to the constant
//! converted into its attachment (`gcnc_emu::draw::output::encode`).

mod link_support;

use gcnc::binary::prelink::UserSgpr;
use gcnc::link::state::{Item, PipelineState, UserDataLayout, UserSlot};
use gcnc_emu::dispatch::{run_workgroup, Dispatch};
use gcnc_emu::Memory;
use link_support::*;
use std::collections::BTreeMap;

const PC_HI: u64 = 0x7000_0000_0000; // the emulator's code base: s_getpc's high half
const TABLE_LO: u32 = 0x1000;
const SET0_LO: u32 = 0x2000;
const DESC_OFFSET: u32 = 0x30;
const DESC_VALUE: u32 = 0x4_0000;
const PC0: u32 = 1000;
const PC1: u32 = 58;

fn value(item: &Item) -> u32 {
    match item {
        Item::DescriptorSet(0) => SET0_LO,
        Item::DescriptorSetHi(0) => (PC_HI >> 32) as u32,
        Item::PushConstant(0) => PC0,
        Item::PushConstant(1) => PC1,
        Item::PushConstant(n) => 7 * n,
        Item::DescriptorTable => TABLE_LO,
        other => panic!("no test value for {other:?}"),
    }
}

/// s13 = pc0 - pc1 + workgroup_id_x + dword(set0 + desc offset) + spec0.
fn lines(t: Gen) -> Vec<(&'static str, Option<&'static str>)> {
    let load = if t == Gen::Gfx11 {
        "s_load_b32 s12, s[10:11], 0x0"
    } else {
        "s_load_dword s12, s[10:11], 0x0"
    };
    let mut v = vec![
        ("s_getpc_b64 s[10:11]", None),
        (
            "s_add_u32 s10, s2, 0x5eed0000",
            Some("gcnc.desc.0.0.buffer.offset"),
        ),
        ("s_addc_u32 s11, s11, 0", None),
        (load, None),
        ("s_sub_u32 s13, s0, s1", None),
        ("s_add_u32 s13, s13, s3", None),
        ("s_waitcnt lgkmcnt(0)", None),
        ("s_add_u32 s13, s13, s12", None),
        ("s_add_u32 s13, s13, 0x5eed0000", Some("gcnc.spec.0")),
    ];
    v.extend(endpgm(t));
    v
}

fn layout(sgprs: &[Item], table: &[Item]) -> PipelineState {
    PipelineState {
        descriptor_layout: vec![gcnc::link::state::BindingLayout {
            set: 0,
            binding: 0,
            kind: "buffer".into(),
            offset: DESC_OFFSET,
            stride: 16,
        }],
        user_data: Some(UserDataLayout {
            sgprs: sgprs
                .iter()
                .enumerate()
                .map(|(i, it)| UserSlot {
                    item: it.clone(),
                    entry: Some(i as u32),
                })
                .collect(),
            table: table.to_vec(),
        }),
        spec_constants: BTreeMap::from([(0, 3)]),
        ..Default::default()
    }
}

/// Runs workgroups 0..3 of the linked ELF and returns s13 of each.
fn run(elf: &[u8], state: &PipelineState) -> Vec<u32> {
    let ud = state.user_data.as_ref().unwrap();
    let mut d = Dispatch::from_elf(elf, None).expect("dispatch");
    d.user_sgprs = ud.sgprs.iter().map(|s| value(&s.item)).collect();
    let mut mem = Memory::new();
    mem.map(PC_HI + TABLE_LO as u64, 0x2000);
    for (k, it) in ud.table.iter().enumerate() {
        mem.write_u32(PC_HI + TABLE_LO as u64 + 4 * k as u64, value(it))
            .unwrap();
    }
    mem.write_u32(PC_HI + (SET0_LO + DESC_OFFSET) as u64, DESC_VALUE)
        .unwrap();
    (0..3)
        .map(|g| {
            let waves =
                run_workgroup(&d, &mut mem, [g, 0, 0]).unwrap_or_else(|e| panic!("emulator: {e}"));
            waves[0].regs.s(13).expect("s13 written")
        })
        .collect()
}

#[test]
fn prolog_layouts_compute_the_assumed_layout_result() {
    use Item::*;
    let assumed = [PushConstant(0), PushConstant(1), DescriptorSet(0)];
    let layouts: Vec<(&str, Vec<Item>, Vec<Item>)> = vec![
        (
            "swap cycle",
            vec![PushConstant(1), PushConstant(0), DescriptorSet(0)],
            vec![],
        ),
        (
            "three-cycle",
            vec![PushConstant(1), DescriptorSet(0), PushConstant(0)],
            vec![],
        ),
        (
            "table load after move",
            vec![DescriptorTable, PushConstant(1), PushConstant(0)],
            vec![DescriptorSet(0)],
        ),
        (
            "all from the table, system SGPR moves down",
            vec![DescriptorTable],
            vec![
                PushConstant(5),
                PushConstant(0),
                DescriptorSet(0),
                PushConstant(1),
            ],
        ),
        (
            "more user SGPRs, system SGPR moves up",
            vec![
                PushConstant(4),
                PushConstant(0),
                PushConstant(6),
                PushConstant(1),
                DescriptorSet(0),
            ],
            vec![],
        ),
    ];
    for target in binary_support::configurations() {
        let t = target.gen;
        let mut mp = MainPart::new(
            t,
            vec![
                UserSgpr::PushConstant(0),
                UserSgpr::PushConstant(1),
                UserSgpr::DescriptorSet(0),
            ],
        );
        mp.target = target;
        let elf = mp.elf(&lines(t));
        // The layout the compile assumed: no prolog; this is the reference result.
        let same = layout(&assumed, &[]);
        let reference = link(&[&elf], &same).unwrap();
        assert_eq!(reference.placed.len(), 1);
        let want = run(&reference.elf, &same);
        let expect: Vec<u32> = (0..3).map(|g| PC0 - PC1 + g + DESC_VALUE + 3).collect();
        assert_eq!(want, expect, "{target}: reference");
        for (name, sgprs, table) in &layouts {
            let st = layout(sgprs, table);
            let linked = link(&[&elf], &st).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(linked.placed.len(), 2, "{t} {name}: a prolog is needed");
            assert_eq!(run(&linked.elf, &st), want, "{target} {name}");
        }
    }
}

/// A choice compiled both ways (seed 000's perSampleShading style): the condition is a
/// relocated literal, so the same unlinked code takes either alternative after the link.
#[test]
fn both_alternatives_choice_follows_the_state() {
    for t in Gen::ALL {
        let mp = MainPart::new(t, vec![]);
        let mut lines = vec![
            ("s_cmp_eq_u32 0x5eed0000, 1", Some("gcnc.choice.per_sample")),
            ("s_cbranch_scc1 2", None),
            ("s_mov_b32 s13, 1", None),
            ("s_branch 1", None),
            ("s_mov_b32 s13, 2", None),
        ];
        lines.extend(endpgm(t));
        let elf = mp.elf(&lines);
        for (choice, want) in [(false, 1), (true, 2)] {
            let st = PipelineState {
                choices: BTreeMap::from([("per_sample".to_string(), choice)]),
                ..Default::default()
            };
            let linked = link(&[&elf], &st).unwrap();
            let d = Dispatch::from_elf(&linked.elf, None).unwrap();
            let waves = run_workgroup(&d, &mut Memory::new(), [0, 0, 0])
                .unwrap_or_else(|e| panic!("{t}: {e}"));
            assert_eq!(
                waves[0].regs.s(13).unwrap(),
                want,
                "{t} per_sample={choice}"
            );
        }
        // Without the choice in the state the link fails, naming the symbol.
        let e = link(&[&elf], &PipelineState::default()).unwrap_err();
        assert!(e.to_string().contains("gcnc.choice.per_sample"), "{e}");
    }
}

/// The backend's ABI passes 64-bit descriptor-set pointers in SGPR pairs: both halves are
/// items the prolog moves like any other (here a three-cycle across the pair).
#[test]
fn sgpr_pair_pointers_move_as_two_items() {
    use Item::*;
    for t in Gen::ALL {
        let mp = MainPart::new(
            t,
            vec![
                UserSgpr::DescriptorSet(0),
                UserSgpr::DescriptorSetHi(0),
                UserSgpr::PushConstant(0),
            ],
        );
        let load = if t == Gen::Gfx11 {
            "s_load_b32 s12, s[10:11], 0x0"
        } else {
            "s_load_dword s12, s[10:11], 0x0"
        };
        let mut lines = vec![
            (
                "s_add_u32 s10, s0, 0x5eed0000",
                Some("gcnc.desc.0.0.buffer.offset"),
            ),
            ("s_addc_u32 s11, s1, 0", None),
            (load, None),
            ("s_add_u32 s13, s2, s3", None),
            ("s_waitcnt lgkmcnt(0)", None),
            ("s_add_u32 s13, s13, s12", None),
        ];
        lines.extend(endpgm(t));
        let elf = mp.elf(&lines);
        let reference = layout(
            &[DescriptorSet(0), DescriptorSetHi(0), PushConstant(0)],
            &[],
        );
        let moved = layout(
            &[PushConstant(0), DescriptorSet(0), DescriptorSetHi(0)],
            &[],
        );
        let want: Vec<u32> = (0..3).map(|g| DESC_VALUE + PC0 + g).collect();
        assert_eq!(
            run(&link(&[&elf], &reference).unwrap().elf, &reference),
            want,
            "{t}"
        );
        let linked = link(&[&elf], &moved).unwrap();
        assert_eq!(linked.placed.len(), 2);
        assert_eq!(run(&linked.elf, &moved), want, "{t}");
        // The pair from the table: one 64-bit load, plus the TGID SGPR moving s1 -> s3
        // before the load overwrites s1.
        let table = layout(
            &[DescriptorTable],
            &[DescriptorSet(0), DescriptorSetHi(0), PushConstant(0)],
        );
        let linked = link(&[&elf], &table).unwrap();
        let prolog = &linked.placed[0];
        let code =
            &linked.object.text[prolog.offset as usize..(prolog.offset + prolog.size) as usize];
        let it = mp.target;
        let text: Vec<String> = gcnc::isa::decode_all(code, it)
            .unwrap()
            .iter()
            .map(|(_, i)| gcnc::isa::print(i, it).unwrap())
            .collect();
        let x2 = if t == Gen::Gfx11 {
            "s_load_b64 s[0:1]"
        } else {
            "s_load_dwordx2 s[0:1]"
        };
        assert!(text.iter().any(|l| l.starts_with(x2)), "{t}: {text:?}");
        assert_eq!(run(&linked.elf, &table), want, "{t} from the table");
    }
}

/// The colour-epilog shapes: attachment format, blended, the GLSL output type, one per
/// export format (32_R, 32_GR, 32_AR, 32_ABGR, FP16, UNORM16, SNORM16, UINT16, SINT16).
const SHAPES: [(&str, bool, &str); 9] = [
    ("R32_SFLOAT", false, "float"),
    ("R32G32_SFLOAT", false, "vec2"),
    ("R32_SFLOAT", true, "float"),
    ("R32G32B32A32_SFLOAT", false, "vec4"),
    ("R8G8B8A8_UNORM", false, "vec4"),
    ("R16G16B16A16_UNORM", false, "vec4"),
    ("R16G16B16A16_SNORM", false, "vec4"),
    ("R8G8B8A8_UINT", false, "uvec4"),
    ("R8G8B8A8_SINT", false, "ivec4"),
];

/// The constant location `k` writes, as four floats (integers for the integer types).
fn constant(k: usize) -> [f32; 4] {
    [
        0.125 * (k + 1) as f32,
        -0.5,
        0.75 - 0.0625 * k as f32,
        0.25 + 0.0625 * k as f32,
    ]
}

fn int_constant(k: usize, signed: bool) -> [i64; 4] {
    let s = if signed { -1 } else { 1 };
    [s * (k as i64 + 1), 2, s * 3, 4 + k as i64]
}

/// The fragment shader writing `n` colour outputs (shape `(k + n) % 9` at location k),
/// gl_FragDepth with `depth`, location 0's second source with `dual`.
fn fragment_glsl(n: usize, depth: bool, dual: bool) -> String {
    let mut decl = String::new();
    let mut body = String::new();
    for k in 0..n {
        let ty = SHAPES[(k + n) % SHAPES.len()].2;
        let c = constant(k);
        let value = match ty {
            "float" => format!("{:?}", c[0]),
            "vec2" => format!("vec2({:?}, {:?})", c[0], c[1]),
            "vec4" => format!("vec4({:?}, {:?}, {:?}, {:?})", c[0], c[1], c[2], c[3]),
            _ => {
                let i = int_constant(k, ty == "ivec4");
                format!("{ty}({}, {}, {}, {})", i[0], i[1], i[2], i[3])
            }
        };
        let index = if dual { ", index = 0" } else { "" };
        decl += &format!("layout(location = {k}{index}) out {ty} o{k};\n");
        body += &format!("    o{k} = {value};\n");
    }
    if dual {
        decl += "layout(location = 0, index = 1) out vec4 o0b;\n";
        body += "    o0b = vec4(0.5, 0.25, 0.125, 0.75);\n";
    }
    if depth {
        body += "    gl_FragDepth = 0.25;\n";
    }
    format!("#version 450\n{decl}void main() {{\n{body}}}\n")
}

const VERTEX_GLSL: &str = "#version 450
void main() {
    vec2 p = vec2(gl_VertexIndex & 1, gl_VertexIndex >> 1) * 4.0 - 1.0;
    gl_Position = vec4(p, 0.5, 1.0);
}
";

fn spirv(name: &str, stage: &str, src: &str) -> Option<Vec<u32>> {
    let tool = oracle("glslangValidator")?;
    let dir = temp_path(&format!("link-emu-{name}"));
    std::fs::create_dir_all(&dir).unwrap();
    let glsl = dir.join(format!("{name}.{stage}"));
    std::fs::write(&glsl, src).unwrap();
    let out = dir.join(format!("{name}.spv"));
    link_support::run(
        &tool,
        &["-V", "-o", out.to_str().unwrap(), glsl.to_str().unwrap()],
    );
    let words = gcnc::front::spirv::words_from_bytes(&std::fs::read(&out).unwrap()).unwrap();
    std::fs::remove_dir_all(&dir).ok();
    Some(words)
}

/// The draw description: one triangle covering the 4x4 viewport; the attachments of the
/// shader's shapes (location 0 blending SRC1_COLOR, ONE_MINUS_SRC1_ALPHA with `dual`);
/// a D32 depth attachment (test ALWAYS) with `depth`.
fn draw_json(n: usize, depth: bool, dual: bool) -> String {
    let atts: Vec<String> = (0..n)
        .map(|k| {
            let (format, blend, _) = SHAPES[(k + n) % SHAPES.len()];
            let blend = match (dual, blend) {
                (true, _) => r#"{"src": "SRC1_COLOR", "dst": "ONE_MINUS_SRC1_ALPHA", "op": "ADD"}"#,
                (false, true) => r#"{"src": "ONE", "dst": "ZERO", "op": "ADD"}"#,
                _ => "null",
            };
            format!(r#"{{"format": "{format}", "blend": {blend}}}"#)
        })
        .collect();
    let depth = if depth {
        r#", "depth_attachment": {"format": "D32_SFLOAT", "clear": 1.0, "compare": "always"}"#
    } else {
        ""
    };
    format!(
        r#"{{"vertex": {{"spv": "v.spv"}}, "fragment": {{"spv": "f.spv"}},
  "draw": {{"vertex_count": 3}}, "viewport": {{"width": 4, "height": 4}},
  "color_attachments": [{}]{depth}}}"#,
        atts.join(", ")
    )
}

/// The pixel attachment `k` (`a`) holds after the draw.
fn expected_pixel(a: &gcnc_emu::draw::desc::ColorAttachment, k: usize, dual: bool) -> Vec<u8> {
    use gcnc::amdgpu::attachment_format::Num;
    use gcnc_emu::draw::output::{encode, encode_int};
    let c = constant(k);
    match a.format.num() {
        Num::Uint | Num::Sint => encode_int(a.format, int_constant(k, a.format.num() == Num::Sint)),
        _ if dual => {
            // src * src1 + dst * (1 - src1.a), dst the clear colour 0
            let s1 = [0.5, 0.25, 0.125, 0.75];
            let mut v = [0f32; 4];
            for (i, x) in v.iter_mut().enumerate() {
                let s = if a.format.num() == Num::Unorm {
                    c[i].clamp(0.0, 1.0)
                } else {
                    c[i]
                };
                *x = s * s1[i];
            }
            encode(a.format, v)
        }
        _ => encode(a.format, c),
    }
}

#[test]
fn every_colour_epilog_shape_splices_cleanly_and_draws_its_constants() {
    use gcnc::amdgpu::abi_graphics::{AlphaTest, CompareFunc};
    use gcnc::compile_graphics_unlinked::compile_stage_unlinked;
    use gcnc::ir::Stage;
    use gcnc_emu::draw::{self, Desc, Pipeline};
    let Some(vs) = spirv("v", "vert", VERTEX_GLSL) else {
        return;
    };
    // (outputs, depth, dual source, alpha test)
    let mut shapes: Vec<(usize, bool, bool, Option<AlphaTest>)> = Vec::new();
    for n in 0..=8 {
        for depth in [false, true] {
            shapes.push((n, depth, false, None));
        }
    }
    shapes.push((1, false, true, None));
    shapes.push((1, true, true, None));
    // alpha tests on location 0's alpha 0.25 (SNORM16_ABGR at n = 6) against 0.2: one
    // keeps every pixel (with a depth export), one kills them all
    for (func, depth) in [(CompareFunc::Greater, true), (CompareFunc::Less, false)] {
        let t = AlphaTest {
            func,
            reference: 0.2f32.to_bits(),
        };
        shapes.push((6, depth, false, Some(t)));
    }
    let mut draws = 0;
    for (n, depth, dual, alpha) in shapes {
        let name = format!(
            "f{n}{}{}",
            if depth { "z" } else { "" },
            if dual { "d" } else { "" }
        );
        let fs = spirv(&name, "frag", &fragment_glsl(n, depth, dual)).expect("glslangValidator");
        let d = Desc::parse(&draw_json(n, depth, dual))
            .and_then(|d| d.resolve(std::path::Path::new(".")))
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let mut st = d.graphics_state();
        st.alpha_test = alpha;
        let state = PipelineState {
            graphics: Some(gcnc::link::state::GraphicsLinkState::from_state(&st)),
            ..Default::default()
        };
        for (gen, wave) in [
            (Gen::Gfx9, 64),
            (Gen::Gfx10, 32),
            (Gen::Gfx10, 64),
            (Gen::Gfx11, 32),
            (Gen::Gfx11, 64),
        ] {
            let mut t = Target::new(gen);
            t.wave = gcnc::isa::Wave::from_lanes(wave).unwrap();
            let cfg = format!("{name} alpha {alpha:?} on {gen:?} w{wave}");
            let opts = gcnc::Options::new(t);
            let v = compile_stage_unlinked(&vs, Stage::Vertex, &opts).unwrap();
            let f = compile_stage_unlinked(&fs, Stage::Fragment, &opts).unwrap();
            let linked = link(&[&v.elf, &f.elf], &state).unwrap_or_else(|e| panic!("{cfg}: {e}"));
            let p = Pipeline::from_elf(&linked.elf, Some(t.wave)).unwrap();
            let (img, _) = draw::run(
                &p,
                &d,
                &draw::launch::entries(&d),
                &draw::Options::default(),
            )
            .unwrap_or_else(|e| panic!("{cfg}: {e}"));
            let killed = alpha.is_some_and(|a| a.func == CompareFunc::Less);
            for (k, a) in d.desc.color_attachments.iter().enumerate() {
                let want = if killed {
                    gcnc_emu::draw::output::encode(a.format, [0.0; 4])
                } else {
                    expected_pixel(a, k, dual)
                };
                for (i, px) in img.color[k].chunks(a.format.bytes()).enumerate() {
                    assert_eq!(
                        px,
                        &want[..],
                        "{cfg}: attachment {k} ({:?}) pixel {i}",
                        a.format
                    );
                }
            }
            if let Some(z) = &img.depth {
                let want: f32 = if killed { 1.0 } else { 0.25 };
                for px in z.chunks(4) {
                    assert_eq!(px, &want.to_le_bytes(), "{cfg}: depth");
                }
            }
            draws += 1;
        }
    }
    assert_eq!(draws, 5 * (18 + 2 + 2));
}
