//! Specialization constants known only at link (issue 7).
//!
//! `tests/shaders/link/spec_choice.comp`: a bool spec constant (FAST) chooses between two
//! code paths, a uint one (SCALE) is arithmetic. Compiled once unlinked with both left to
//! the link stage, the shader carries `gcnc.spec.0` / `gcnc.spec.1` relocated literals and
//! both alternatives behind a uniform branch on the FAST literal; linked with each
//! (FAST, SCALE) — and with another descriptor and user-data layout, so the CS prolog and
//! the descriptor relocations run too — it computes exactly what the whole-pipeline build
//! specialized with the same values computes, and what Rust computes, on the emulator on
//! every configuration. Both alternatives are really present: the linked code for
//! FAST=0 and FAST=1 differs only in the relocated literals.
//!
//! A spec constant that sizes something (an array length, the local size) cannot be left
//! open: the unlinked translation fails with `NeedsWholePipeline` and produces nothing.

mod backend_support;

use backend_support::CONFIGS;
use gcnc::front::ErrorKind;
use gcnc::isa::{Gen, Target, Wave};
use gcnc::link::state::{BindingLayout, Item, PipelineState, UserDataLayout, UserSlot};
use gcnc::{compile_spirv, compile_spirv_unlinked, Missing, Options};
use gcnc_emu::{BufferDesc, Dispatch, Memory};
use std::collections::{BTreeMap, BTreeSet};

const SPEC_CHOICE: &[u8] = include_bytes!("shaders/link/spec_choice.spv");
const SPEC_ARRAY: &[u8] = include_bytes!("shaders/link/spec_array.spv");
const SPEC_LOCAL_SIZE: &[u8] = include_bytes!("shaders/compute/spec_local_size.spv");

const SETS: u64 = 0x20_0000;
const IN: u64 = 0x100_0000;
const OUT: u64 = 0x110_0000;
const PC_HI: u64 = 0x7000_0000_0000;
const TABLE_LO: u32 = 0x8000;
const N: usize = 128; // two workgroups of 64

fn input(i: usize) -> u32 {
    (i as u32).wrapping_mul(0x9e37_79b9) ^ 0x1234
}

fn expected(fast: bool, scale: u32) -> Vec<u32> {
    (0..N)
        .map(|i| {
            let mut x = input(i);
            if fast {
                x.wrapping_mul(scale).wrapping_add(7)
            } else {
                for k in 0..3 {
                    x = x.wrapping_mul(31).wrapping_add(k);
                }
                x ^ scale
            }
        })
        .collect()
}

/// Options for `main` on `gen`/`wave`: the given specialization constants, and `late`
/// ones left to the link stage (unlinked compiles).
fn options(gen: Gen, wave: Wave, spec: &[(u32, u64)], late: &[u32]) -> Options {
    let mut o = Options::new(Target::with_wave(gen, wave).unwrap());
    o.entry = Some("main".into());
    o.spec = spec.iter().copied().collect();
    o.missing.spec_constants = late.iter().copied().collect();
    o
}

fn words(bytes: &[u8]) -> Vec<u32> {
    gcnc::front::spirv::words_from_bytes(bytes).unwrap()
}

/// The front end's error of an unlinked compile that fails there.
fn front_error(bytes: &[u8], late: &[u32]) -> gcnc::front::Error {
    match compile_spirv_unlinked(&words(bytes), &options(Gen::Gfx10, Wave::W32, &[], late)) {
        Err(gcnc::Error::Front(e)) => e,
        other => panic!(
            "expected a front-end error, got {:?}",
            other.map(|c| c.stats)
        ),
    }
}

/// Runs `elf`: set s at `SETS + 4096·s`, binding b's V# at `offset(b)`; user SGPRs
/// `sgprs`, descriptor-table dwords `table`. Returns the output buffer.
fn run(
    elf: &[u8],
    gen: Gen,
    wave: Wave,
    offset: fn(u32) -> u32,
    sgprs: Vec<u32>,
    table: &[u32],
) -> Vec<u32> {
    let mut d = Dispatch::from_elf(elf, Some(wave)).expect("dispatch");
    d.groups = [2, 1, 1];
    d.user_sgprs = sgprs;
    let mut mem = Memory::new();
    mem.map(SETS, 8 * 4096);
    mem.map(IN, 4 * N as u64);
    mem.map(OUT, 4 * N as u64);
    mem.map(PC_HI + TABLE_LO as u64, 4096);
    for (k, w) in table.iter().enumerate() {
        mem.write_u32(PC_HI + TABLE_LO as u64 + 4 * k as u64, *w)
            .unwrap();
    }
    for i in 0..N {
        mem.write_u32(IN + 4 * i as u64, input(i)).unwrap();
    }
    for (set, binding, addr) in [(0u64, 0u32, IN), (1, 2, OUT)] {
        let v = BufferDesc::raw(gen, addr, 4 * N as u32);
        for (j, w) in v.iter().enumerate() {
            mem.write_u32(
                SETS + 4096 * set + offset(binding) as u64 + 4 * j as u64,
                *w,
            )
            .unwrap();
        }
    }
    gcnc_emu::run(&d, &mut mem).unwrap_or_else(|e| panic!("emulator: {e}"));
    (0..N)
        .map(|i| mem.read_u32(OUT + 4 * i as u64).unwrap())
        .collect()
}

fn value(item: &Item) -> u32 {
    match item {
        Item::DescriptorSet(s) => (SETS + 4096 * *s as u64) as u32,
        Item::DescriptorSetHi(s) => ((SETS + 4096 * *s as u64) >> 32) as u32,
        Item::DescriptorTable => TABLE_LO,
        other => panic!("no value for {other:?}"),
    }
}

fn whole_sgprs(c: &gcnc::compile::Compiled) -> Vec<u32> {
    c.program
        .abi
        .user_sgprs
        .iter()
        .map(|u| match *u {
            gcnc::binary::UserData::Entry(n) if n >= 2 => {
                let a = SETS + 4096 * ((n as u64 - 2) / 2);
                if n % 2 == 0 {
                    a as u32
                } else {
                    (a >> 32) as u32
                }
            }
            other => panic!("unexpected user data {other:?}"),
        })
        .collect()
}

#[test]
fn link_time_spec_constants_choose_either_alternative() {
    for (gen, wave) in CONFIGS {
        let tag = format!("{}w{}", gen.mcpu(), wave.lanes());
        let mut o = options(gen, wave, &[], &[0, 1]);
        o.missing = Missing {
            spec_constants: o.missing.spec_constants,
            ..Missing::all()
        };
        let unlinked = compile_spirv_unlinked(&words(SPEC_CHOICE), &o)
            .unwrap_or_else(|e| panic!("{tag}: {e}"));
        let input = gcnc::link::input::read_input(0, &unlinked.elf).unwrap();
        let syms: BTreeSet<&str> = input
            .relocations
            .iter()
            .map(|r| r.symbol.as_str())
            .collect();
        for s in [
            "gcnc.spec.0",
            "gcnc.spec.1",
            "gcnc.desc.0.0.buffer.offset",
            "gcnc.desc.1.2.buffer.offset",
        ] {
            assert!(
                syms.contains(s),
                "{tag}: no relocation against {s}: {syms:?}"
            );
        }
        assert!(input
            .prelink
            .missing_state
            .contains(&"spec_constants".to_string()));
        // the prolog's layout: table pointer, first two assumed items from the table
        let assumed: Vec<Item> = input
            .prelink
            .user_sgprs
            .iter()
            .map(|u| Item::from_assumed(u).unwrap())
            .collect();
        let k = assumed.len().min(2);
        let mut sgprs = vec![Item::DescriptorTable];
        sgprs.extend(assumed[k..].iter().rev().cloned());
        let ud = UserDataLayout {
            sgprs: sgprs
                .iter()
                .enumerate()
                .map(|(i, it)| UserSlot {
                    item: it.clone(),
                    entry: Some(i as u32),
                })
                .collect(),
            table: assumed[..k].to_vec(),
        };
        let mut texts = Vec::new();
        for (fast, scale) in [(false, 3u32), (true, 3), (false, 1000), (true, 0xdead_beef)] {
            let want = expected(fast, scale);
            // whole pipeline, specialized by the front-end
            let wo = options(gen, wave, &[(0, fast as u64), (1, scale as u64)], &[]);
            let whole = compile_spirv(&words(SPEC_CHOICE), &wo).unwrap();
            let got_whole = run(&whole.elf, gen, wave, |b| 16 * b, whole_sgprs(&whole), &[]);
            assert_eq!(got_whole, want, "{tag} whole FAST={fast} SCALE={scale}");
            // the one unlinked ELF, linked with these values
            let state = PipelineState {
                descriptor_layout: [(0u32, 0u32), (1, 2)]
                    .iter()
                    .map(|&(set, binding)| BindingLayout {
                        set,
                        binding,
                        kind: "buffer".into(),
                        offset: 64 + 32 * binding,
                        stride: 32,
                    })
                    .collect(),
                user_data: Some(ud.clone()),
                spec_constants: BTreeMap::from([(0, fast as u32), (1, scale)]),
                ..Default::default()
            };
            let linked =
                gcnc::link::link(&[&unlinked.elf], &state, gcnc::parts::PartCache::global())
                    .unwrap_or_else(|e| panic!("{tag}: link: {e}"));
            let sg: Vec<u32> = sgprs.iter().map(value).collect();
            let table: Vec<u32> = ud.table.iter().map(value).collect();
            let got = run(&linked.elf, gen, wave, |b| 64 + 32 * b, sg, &table);
            assert_eq!(got, want, "{tag} linked FAST={fast} SCALE={scale}");
            texts.push((fast, scale, linked.object.text.clone()));
        }
        // same code for every value: only the relocated literals differ
        let (a, b) = (&texts[0].2, &texts[1].2);
        assert_eq!(a.len(), b.len(), "{tag}");
        let differing: Vec<usize> = (0..a.len() / 4)
            .filter(|&w| a[4 * w..4 * w + 4] != b[4 * w..4 * w + 4])
            .collect();
        assert_eq!(
            differing.len(),
            1,
            "{tag}: FAST=0 vs 1 differ in exactly the FAST literal"
        );
    }
}

#[test]
fn spec_constants_that_size_things_need_the_whole_pipeline() {
    let e = front_error(SPEC_ARRAY, &[0]);
    assert_eq!(e.kind, ErrorKind::NeedsWholePipeline, "{e}");
    assert!(e.to_string().contains("array length"), "{e}");
    // the local size (LocalSizeId)
    let e = front_error(SPEC_LOCAL_SIZE, &[0]);
    assert_eq!(e.kind, ErrorKind::NeedsWholePipeline, "{e}");
    // the same shaders translate when the constant is known
    compile_spirv(
        &words(SPEC_ARRAY),
        &options(Gen::Gfx10, Wave::W32, &[(0, 4)], &[]),
    )
    .unwrap();
    // a spec constant used only in arithmetic can be left open in the same shader
    let mut o = options(Gen::Gfx10, Wave::W32, &[(0, 8), (1, 2)], &[2]);
    o.missing.descriptor_layout = true;
    let u = compile_spirv_unlinked(&words(SPEC_LOCAL_SIZE), &o).unwrap();
    let input = gcnc::link::input::read_input(0, &u.elf).unwrap();
    assert!(input.relocations.iter().any(|r| r.symbol == "gcnc.spec.2"));
}
