//! Linked compute shaders run on the emulator (tools/emu): a main part compiled against
//! an assumed user-SGPR placement, linked with layouts that differ from it (forcing the CS
//! prolog's moves, cycles, table loads and system-SGPR moves), computes the same result as
//! the same main part linked with the layout it assumed (no prolog) — for every workgroup,
//! on gfx900 (wave64), gfx1030 and gfx1100 (wave32 and wave64). The emulator reports any
//! read of an unwritten register, missing s_waitcnt or hazard, so a prolog that leaves one
//! across the splice fails here.

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
