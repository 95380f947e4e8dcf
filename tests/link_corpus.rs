//! The proof of issue 7 on the compute corpus: every case in `PASSING` of
//! `tests/backend_corpus.rs` (read from that file, so the list here grows with it) is
//! compiled twice — whole-pipeline (`compile_module`) and unlinked (`compile_module_unlinked`
//! with the descriptor layout and the user-data layout missing) — and the unlinked ELF is
//! linked with a state that differs from what the compile assumed:
//!
//! - descriptors at other offsets (`64 + 32·binding` instead of `16·binding`) in set memory
//!   at another address, so every descriptor load goes through its relocated literal;
//! - a user-data layout whose first user SGPR is the descriptor table, whose first two
//!   assumed items are loaded from that table and the rest sit in user SGPRs in reverse
//!   order, so the CS prolog loads, moves (cycles included) and shifts the system SGPRs.
//!
//! Both builds run on the emulator (strict: unwritten registers, missing waits, hazards)
//! on gfx900 w64, gfx1030 w32/w64, gfx1100 w32/w64; every resource must equal the
//! corpus expectation and the whole-pipeline build's bytes, and the linked ELF must
//! disassemble cleanly with llvm-objdump-19 (decoding every word, no relocation left).
//! One code path: the whole-pipeline compile given the same final user-data layout
//! (`Options::user_data`) splices the same CS prolog in front of its main part; in both
//! linked builds the prolog falls through into the main part (no branch inside it, main
//! right after it on a 256-byte boundary) and the results are the same.
//! A shader the unlinked compile refuses to leave the user-data layout open for (it reads
//! the dispatch dimensions, which no user-data layout supplies) is compiled with only the
//! descriptor layout missing and linked keeping its placement; the table says so.

mod backend_support;

use backend_support::CONFIGS;
use gcnc::binary::prelink::UserSgpr;
use gcnc::isa::{Gen, Target, Wave};
use gcnc::link::state::{BindingLayout, Item, PipelineState, UserDataLayout, UserSlot};
use gcnc::{compile_module, compile_module_unlinked, Missing, Options};
use gcnc_emu::{BufferDesc, Dispatch, Memory};
use vkref::corpus::{self, AddressTarget, Env, SpecValue};
use vkref::lavapipe::Resource;

const PUSH: u64 = 0x10_0000;
const WGCOUNT: u64 = 0x30_0000;
const DATA: u64 = 0x100_0000;
/// Set memory of the whole-pipeline run (the backend's ABI: binding b at 16·b).
const SETS_WHOLE: u64 = 0x20_0000;
/// Set memory of the linked run, elsewhere, with the linked layout's offsets.
const SETS_LINKED: u64 = 0x40_0000;
/// The emulator's code base: `s_getpc_b64`'s high half gives the table's high half.
const PC_HI: u64 = 0x7000_0000_0000;
const TABLE_LO: u32 = 0x8000;

/// The cases `tests/backend_corpus.rs` requires to pass, read from its `PASSING` list.
fn passing() -> Vec<String> {
    let src = include_str!("backend_corpus.rs");
    let start = src
        .find("const PASSING: &[&str] = &[")
        .expect("backend_corpus.rs has a PASSING list");
    let body = &src[start..];
    let end = body.find("];").expect("PASSING ends");
    body[..end]
        .lines()
        .skip(1)
        .filter_map(|l| {
            let l = l.trim();
            l.strip_prefix('"')
                .and_then(|r| r.split('"').next())
                .map(str::to_string)
        })
        .collect()
}

/// Where the run puts descriptors: (set memory base, byte offset of set/binding).
struct Placement {
    sets: u64,
    offset: fn(u32) -> u32,
}

fn whole_offset(b: u32) -> u32 {
    16 * b
}
fn linked_offset(b: u32) -> u32 {
    64 + 32 * b
}

/// Dispatches `elf` with the corpus inputs; returns the resources' final bytes.
fn run(
    case: &corpus::Case,
    gen: Gen,
    wave: Wave,
    elf: &[u8],
    place: &Placement,
    user_sgprs: &dyn Fn(&Dispatch, &mut Memory) -> Vec<u32>,
) -> Result<Vec<Vec<u8>>, String> {
    let inputs = (case.inputs)();
    let mut d = Dispatch::from_elf(elf, Some(wave)).map_err(|e| e.to_string())?;
    d.groups = inputs.groups;
    let mut mem = Memory::new();
    mem.map(PUSH, 4096);
    mem.map(place.sets, 8 * 4096);
    mem.map(WGCOUNT, 4096);
    for k in 0..3 {
        mem.write_u32(WGCOUNT + 4 * k as u64, inputs.groups[k])
            .unwrap();
    }
    let mut push = inputs.push.clone();
    push.resize(4096, 0);
    let mut addrs = Vec::new();
    let mut next = DATA;
    for r in &inputs.resources {
        let len = r.data().len().max(16) as u64;
        mem.map(next, len.next_multiple_of(256));
        mem.write(next, &r.data()).unwrap();
        addrs.push(next);
        next += len.next_multiple_of(0x1_0000);
    }
    for (k, r) in inputs.resources.iter().enumerate() {
        match r {
            Resource::Buffer { set, binding, .. } => {
                let v = BufferDesc::raw(gen, addrs[k], r.data().len() as u32);
                let at = place.sets + 4096 * *set as u64 + (place.offset)(*binding) as u64;
                for (j, w) in v.iter().enumerate() {
                    mem.write_u32(at + 4 * j as u64, *w).unwrap();
                }
            }
            Resource::Address { target, .. } => match *target {
                AddressTarget::Push(off) => {
                    push[off as usize..off as usize + 8].copy_from_slice(&addrs[k].to_le_bytes())
                }
                AddressTarget::Resource { index, offset } => mem
                    .write(addrs[index] + offset as u64, &addrs[k].to_le_bytes())
                    .unwrap(),
            },
            _ => {
                return Err("image, sampler and texel-buffer resources are not set up here".into())
            }
        }
    }
    mem.write(PUSH, &push).unwrap();
    d.user_sgprs = user_sgprs(&d, &mut mem);
    gcnc_emu::run(&d, &mut mem).map_err(|e| format!("emulator: {e}"))?;
    let env = Env {
        subgroup_size: wave.lanes(),
    };
    for e in (case.expect)(&inputs, &env) {
        let got = mem.read_vec(addrs[e.resource], e.bytes.len()).unwrap();
        corpus::compare(&got, &e).map_err(|m| format!("resource {}: {m}", e.resource))?;
    }
    Ok(addrs
        .iter()
        .zip(&inputs.resources)
        .map(|(&a, r)| mem.read_vec(a, r.data().len()).unwrap())
        .collect())
}

/// The 32-bit value the driver would put in a user SGPR (or table dword) holding `item`.
fn value(item: &Item, sets: u64, d: &Dispatch) -> u32 {
    match item {
        Item::GlobalTable => d.global_table_lo(),
        Item::Unused => 0,
        Item::PushConstantPointer => PUSH as u32,
        Item::PushConstantPointerHi => (PUSH >> 32) as u32,
        Item::DescriptorSet(s) => (sets + 4096 * *s as u64) as u32,
        Item::DescriptorSetHi(s) => ((sets + 4096 * *s as u64) >> 32) as u32,
        Item::DescriptorTable => TABLE_LO,
        other => panic!("no value for {other:?}"),
    }
}

/// The linked run's layout: the global table stays in user SGPR 0 (PAL's rule), then the
/// descriptor table pointer; the first two other assumed items come from the table, the
/// rest sit in user SGPRs in reverse order.
fn differing_layout(assumed: &[Item]) -> UserDataLayout {
    let mut sgprs = Vec::new();
    if assumed.first() == Some(&Item::GlobalTable) {
        sgprs.push(Item::GlobalTable);
    }
    let rest: Vec<Item> = assumed
        .iter()
        .filter(|i| !matches!(i, Item::GlobalTable | Item::Unused))
        .cloned()
        .collect();
    let assumed = rest.as_slice();
    let k = assumed.len().min(2);
    sgprs.push(Item::DescriptorTable);
    sgprs.extend(assumed[k..].iter().rev().cloned());
    UserDataLayout {
        sgprs: sgprs
            .into_iter()
            .enumerate()
            .map(|(i, item)| UserSlot {
                entry: (item != Item::GlobalTable).then_some(i as u32),
                item,
            })
            .collect(),
        table: assumed[..k].to_vec(),
    }
}

fn objdump_clean(elf: &[u8], tag: &str, gen: Gen, wave: Wave) -> Result<(), String> {
    let Some(objdump) = backend_support::oracle("llvm-objdump-19") else {
        return Ok(());
    };
    let path = backend_support::temp_path(&format!("linked-{tag}.elf"));
    std::fs::write(&path, elf).unwrap();
    let mcpu = format!("--mcpu={}", gen.mcpu());
    let mut args = vec!["-d", "-r", &mcpu];
    if wave == Wave::W64 && gen != Gen::Gfx9 {
        args.push("--mattr=+wavefrontsize64");
    }
    let p = path.to_str().unwrap();
    args.push(p);
    let (ok, out) = backend_support::run_status(&objdump, &args);
    if !ok || out.contains("<unknown>") || out.contains("invalid") || out.contains("R_AMDGPU") {
        return Err(format!("llvm-objdump:\n{out}"));
    }
    Ok(())
}

/// A whole-pipeline build with a prolog: the prolog fell through into the main part,
/// which follows it directly, and no instruction of the prolog is a branch.
fn check_splice(
    placed: &[gcnc::link::layout::PlacedPart],
    text: &[u8],
    gen: Gen,
) -> Result<(), String> {
    let [prolog, main] = placed else {
        return Err(format!("expected prolog + main, placed {placed:?}"));
    };
    if !prolog.symbol.starts_with("gcnc.part.") || !prolog.fell_through {
        return Err(format!("prolog not spliced by fall-through: {prolog:?}"));
    }
    if main.offset != prolog.offset + prolog.size || main.offset % 256 != 0 {
        return Err(format!("main part at {:#x} after {prolog:?}", main.offset));
    }
    let t = gcnc::isa::Target::new(gen);
    let mut off = prolog.offset as usize;
    while off < main.offset as usize {
        let (inst, len) = gcnc::isa::decode(text, off, t).map_err(|e| e.to_string())?;
        if inst.op.name().starts_with("s_branch") || inst.op.name().starts_with("s_cbranch") {
            return Err(format!("{} at {off:#x} inside the prolog", inst.op.name()));
        }
        off += len;
    }
    Ok(())
}

/// One case on one configuration: `Ok(note)` or a failure.
fn check(case: &corpus::Case, gen: Gen, wave: Wave) -> Result<&'static str, String> {
    let inputs = (case.inputs)();
    let words = gcnc::front::spirv::words_from_bytes(case.spirv).unwrap();
    let mut spec = std::collections::BTreeMap::new();
    for (id, v) in &inputs.spec {
        spec.insert(
            *id,
            match v {
                SpecValue::U32(x) => *x as u64,
                SpecValue::U64(x) => *x,
            },
        );
    }
    let mut o = Options::new(Target::with_wave(gen, wave).map_err(|e| e.to_string())?);
    o.entry = Some(case.entry.to_string());
    o.spec = spec;
    // front and middle end once; each compile below runs the backend on this IR
    let m = gcnc::optimize_spirv(&words, &o).map_err(|e| e.to_string())?;
    o.optimize = false;

    // whole pipeline
    let whole = compile_module(&m, &o).map_err(|e| format!("whole: {e}"))?;
    let abi = whole.program.abi.user_sgprs.clone();
    let whole_sgprs = |d: &Dispatch, _: &mut Memory| -> Vec<u32> {
        abi.iter()
            .map(|u| match *u {
                gcnc::binary::UserData::Entry(0) => PUSH as u32,
                gcnc::binary::UserData::Entry(1) => (PUSH >> 32) as u32,
                gcnc::binary::UserData::Entry(n) => {
                    let a = SETS_WHOLE + 4096 * ((n as u64 - 2) / 2);
                    if n % 2 == 0 {
                        a as u32
                    } else {
                        (a >> 32) as u32
                    }
                }
                gcnc::binary::UserData::Workgroup => WGCOUNT as u32,
                gcnc::binary::UserData::GlobalTable => d.global_table_lo(),
                _ => (WGCOUNT >> 32) as u32,
            })
            .collect()
    };
    let want = run(
        case,
        gen,
        wave,
        &whole.elf,
        &Placement {
            sets: SETS_WHOLE,
            offset: whole_offset,
        },
        &whole_sgprs,
    )
    .map_err(|e| format!("whole: {e}"))?;

    // unlinked, then linked with a differing state
    o.missing = Missing::all();
    let (unlinked, keep_placement) = match compile_module_unlinked(&m, &o) {
        Ok(u) => (u, false),
        Err(gcnc::Error::Backend(gcnc::amdgpu::Error::NeedsWholePipeline(_))) => {
            o.missing.user_data = false;
            (
                compile_module_unlinked(&m, &o).map_err(|e| format!("unlinked: {e}"))?,
                true,
            )
        }
        Err(e) => return Err(format!("unlinked: {e}")),
    };
    let descriptor_layout = inputs
        .resources
        .iter()
        .filter_map(|r| match r {
            Resource::Buffer { set, binding, .. } => Some(BindingLayout {
                set: *set,
                binding: *binding,
                kind: "buffer".into(),
                offset: linked_offset(*binding),
                stride: 32,
            }),
            _ => None,
        })
        .collect();
    let input = gcnc::link::input::read_input(0, &unlinked.elf).map_err(|e| e.to_string())?;
    let prelink = input.prelink.clone();
    let buffers = inputs
        .resources
        .iter()
        .filter(|r| matches!(r, Resource::Buffer { .. }))
        .count();
    let desc_relocs = input
        .relocations
        .iter()
        .filter(|r| r.symbol.starts_with("gcnc.desc."))
        .count();
    if buffers > 0 && desc_relocs == 0 {
        return Err("no descriptor relocation in the unlinked ELF".into());
    }
    let mut state = PipelineState {
        descriptor_layout,
        ..Default::default()
    };
    if !keep_placement {
        let assumed: Vec<Item> = prelink
            .user_sgprs
            .iter()
            .map(|u| Item::from_assumed(u).ok_or(format!("assumed {u:?}")))
            .collect::<Result<_, _>>()?;
        state.user_data = Some(differing_layout(&assumed));
    }
    let linked = gcnc::link::link(&[&unlinked.elf], &state, &gcnc::parts::PartCache::new())
        .map_err(|e| format!("link: {e}"))?;
    let tag = format!("{}-{}-{}", case.name, gen.mcpu(), wave.lanes());
    objdump_clean(&linked.elf, &tag, gen, wave)?;
    let assumed = prelink.user_sgprs.clone();
    let linked_sgprs = |d: &Dispatch, mem: &mut Memory| -> Vec<u32> {
        match &state.user_data {
            Some(ud) => {
                mem.map(PC_HI + TABLE_LO as u64, 4096);
                for (k, it) in ud.table.iter().enumerate() {
                    mem.write_u32(
                        PC_HI + TABLE_LO as u64 + 4 * k as u64,
                        value(it, SETS_LINKED, d),
                    )
                    .unwrap();
                }
                ud.sgprs
                    .iter()
                    .map(|s| value(&s.item, SETS_LINKED, d))
                    .collect()
            }
            None => assumed
                .iter()
                .map(|u| match u {
                    UserSgpr::Workgroup => WGCOUNT as u32,
                    UserSgpr::Other(..) => (WGCOUNT >> 32) as u32,
                    u => value(&Item::from_assumed(u).unwrap(), SETS_LINKED, d),
                })
                .collect(),
        }
    };
    let got = run(
        case,
        gen,
        wave,
        &linked.elf,
        &Placement {
            sets: SETS_LINKED,
            offset: linked_offset,
        },
        &linked_sgprs,
    )
    .map_err(|e| format!("linked: {e}"))?;
    if got != want {
        return Err("linked results differ from the whole-pipeline build's".into());
    }
    // the whole-pipeline compile with the same final layout: one code path, the same
    // prolog, spliced by fall-through (no branch left between prolog and main)
    if let Some(ud) = &state.user_data {
        o.missing = Missing::default();
        o.user_data = Some(ud.clone());
        let w2 = compile_module(&m, &o).map_err(|e| format!("whole with layout: {e}"))?;
        check_splice(&w2.placed, &w2.text, gen)?;
        objdump_clean(&w2.elf, &format!("{tag}-whole"), gen, wave)?;
        let got2 = run(
            case,
            gen,
            wave,
            &w2.elf,
            &Placement {
                sets: SETS_LINKED,
                offset: whole_offset,
            },
            &linked_sgprs,
        )
        .map_err(|e| format!("whole with layout: {e}"))?;
        if got2 != want {
            return Err("whole-pipeline results with the prolog differ".into());
        }
    }
    if linked.placed.len() > 1 {
        check_splice(&linked.placed, &linked.object.text, gen)?;
    }
    let prolog = linked
        .placed
        .iter()
        .any(|p| p.symbol.starts_with("gcnc.part."));
    Ok(match (keep_placement, prolog) {
        (true, _) => "pass(placement kept)",
        (false, true) => "pass(prolog)",
        (false, false) => "pass(no prolog needed)",
    })
}

#[test]
fn corpus_unlinked_and_linked_with_another_layout_equals_whole_pipeline() {
    let names = passing();
    assert!(names.len() >= 20, "PASSING parsed: {names:?}");
    let cases = corpus::cases();
    let mut summary = String::new();
    let mut failures = Vec::new();
    for name in &names {
        let case = cases
            .iter()
            .find(|c| c.name == name)
            .unwrap_or_else(|| panic!("{name} is not a corpus case"));
        let mut line = format!("{name:24}");
        for (g, w) in CONFIGS {
            let tag = format!("{}w{}", g.mcpu(), w.lanes());
            match check(case, g, w) {
                Ok(note) => line.push_str(&format!(" {tag}:{note}")),
                Err(why) => {
                    line.push_str(&format!(" {tag}:FAIL"));
                    failures.push(format!("{name} {tag}: {why}"));
                }
            }
        }
        summary.push_str(&line);
        summary.push('\n');
    }
    println!("{summary}");
    assert!(failures.is_empty(), "{}\n\n{summary}", failures.join("\n"));
}
