//! Link time: one compute main part (a few hundred instructions) linked with a layout that
//! needs the CS prolog, per target — cold (a fresh part cache, so the prolog is built) and
//! warm (the part is cached, as on every link after the first in a process). Short mode for
//! CI: `cargo bench --bench link -- --test`.
//!
//! Group `unlinked_vs_whole`: for a few corpus shaders (the module after the middle-end
//! prepared once) on gfx1030, the backend's unlinked compile, the link of that ELF with a
//! state that differs from what it assumed (descriptor offsets, a user-data layout that
//! needs the CS prolog; warm part cache), and the whole-pipeline compile (which itself
//! includes a link without a prolog) — so link time reads beside compile time.
//!
//! Group `graphics`: the draw corpus's `vs_color` + `fs_color` (two vec4 attributes, one
//! FP16 colour attachment) per target — each stage compiled unlinked once, then the link of
//! vertex-fetch prolog + VS + parameter-export epilog + FS + colour-export epilog with a
//! warm part cache, beside the whole-pipeline compile of the same pair (which itself goes
//! through the same parts and link).

#[path = "../tests/link_support/mod.rs"]
mod link_support;

use criterion::{criterion_group, criterion_main, Criterion};
use gcnc::binary::prelink::UserSgpr;
use gcnc::isa::Gen;
use gcnc::link::{link, PipelineState};
use gcnc::parts::PartCache;
use link_support::MainPart;

const STATE: &str = r#"{
  "descriptor_layout": [{"set": 0, "binding": 0, "kind": "buffer", "offset": 48}],
  "user_data": {"sgprs": [{"item": {"push_constant": 1}, "entry": 0},
                          {"item": {"push_constant": 0}, "entry": 1},
                          {"item": "descriptor_table", "entry": 2}],
                "table": [{"descriptor_set": 1}, {"descriptor_set": 0}]},
  "spec_constants": {"0": 5}
}"#;

fn main_elf(t: Gen) -> Vec<u8> {
    let mp = MainPart::new(
        t,
        vec![UserSgpr::DescriptorSet(0), UserSgpr::PushConstant(0)],
    );
    let mut lines = vec![(
        "s_add_u32 s4, s0, 0x5eed0000",
        Some("gcnc.desc.0.0.buffer.offset"),
    )];
    for _ in 0..100 {
        lines.push(("s_add_u32 s7, s7, 0x5eed0000", Some("gcnc.spec.0")));
        lines.push(("s_add_u32 s7, s7, s1", None));
    }
    lines.extend(link_support::endpgm(t));
    mp.elf(&lines)
}

fn bench(c: &mut Criterion) {
    let state = PipelineState::from_json(STATE).unwrap();
    for t in Gen::ALL {
        let elf = main_elf(t);
        c.bench_function(&format!("link_cold_{t}"), |b| {
            b.iter(|| link(&[&elf], &state, &PartCache::new()).unwrap())
        });
        let warm = PartCache::new();
        c.bench_function(&format!("link_warm_{t}"), |b| {
            b.iter(|| link(&[&elf], &state, &warm).unwrap())
        });
    }
}

/// The corpus shader `name` after the front and middle end, and the options that compile
/// it for gfx1030 without running the middle end again (the bench times the backend).
fn corpus_module(name: &str) -> (gcnc::ir::Module, gcnc::Options) {
    let case = vkref::corpus::cases()
        .into_iter()
        .find(|c| c.name == name)
        .expect("corpus case");
    let words = gcnc::front::spirv::words_from_bytes(case.spirv).unwrap();
    let mut opts = gcnc::Options::new(gcnc::isa::Target::new(Gen::Gfx10));
    opts.entry = Some(case.entry.to_string());
    let m = gcnc::optimize_spirv(&words, &opts).unwrap();
    opts.optimize = false;
    (m, opts)
}

/// A state for `elf`: every assumed set's bindings 0..8 at `64 + 32·b`, the descriptor
/// table in user SGPR 0 holding the first assumed item, the rest reversed.
fn differing_state(elf: &[u8]) -> PipelineState {
    use gcnc::link::state::{BindingLayout, Item, UserDataLayout, UserSlot};
    let input = gcnc::link::input::read_input(0, elf).unwrap();
    let assumed: Vec<Item> = input
        .prelink
        .user_sgprs
        .iter()
        .map(|u| Item::from_assumed(u).unwrap())
        .collect();
    let mut sgprs = vec![Item::DescriptorTable];
    sgprs.extend(assumed.iter().skip(1).rev().cloned());
    let mut descriptor_layout = Vec::new();
    for set in 0..7 {
        for binding in 0..8 {
            descriptor_layout.push(BindingLayout {
                set,
                binding,
                kind: "buffer".into(),
                offset: 64 + 32 * binding,
                stride: 32,
            });
        }
    }
    PipelineState {
        descriptor_layout,
        user_data: Some(UserDataLayout {
            sgprs: sgprs
                .into_iter()
                .enumerate()
                .map(|(i, item)| UserSlot {
                    item,
                    entry: Some(i as u32),
                })
                .collect(),
            table: assumed.into_iter().take(1).collect(),
        }),
        ..Default::default()
    }
}

fn unlinked_vs_whole(c: &mut Criterion) {
    use gcnc::{compile_module, compile_module_unlinked, Missing};
    let mut g = c.benchmark_group("unlinked_vs_whole");
    for name in ["arith_f32", "nested_loops", "std430_struct"] {
        let (m, whole) = corpus_module(name);
        let mut unl = whole.clone();
        unl.missing = Missing::all();
        let elf = compile_module_unlinked(&m, &unl).unwrap().elf;
        let state = differing_state(&elf);
        let parts = PartCache::new();
        link(&[&elf], &state, &parts).unwrap();
        g.bench_function(format!("compile_unlinked/{name}"), |b| {
            b.iter(|| compile_module_unlinked(&m, &unl).unwrap())
        });
        g.bench_function(format!("link/{name}"), |b| {
            b.iter(|| link(&[&elf], &state, &parts).unwrap())
        });
        g.bench_function(format!("compile_whole/{name}"), |b| {
            b.iter(|| compile_module(&m, &whole).unwrap())
        });
    }
    g.finish();
}

const GRAPHICS_STATE: &str = r#"{"graphics": {
  "vertex_bindings": [{"binding": 0, "stride": 32, "per_instance": false}],
  "vertex_attributes": [{"location": 0, "binding": 0, "offset": 0, "format": "R32G32B32A32_SFLOAT"},
                        {"location": 1, "binding": 0, "offset": 16, "format": "R32G32B32A32_SFLOAT"}],
  "color_formats": [{"location": 0, "format": "FP16_ABGR"}]
}}"#;

fn graphics(c: &mut Criterion) {
    use gcnc::compile_graphics::compile_pipeline;
    use gcnc::compile_graphics_unlinked::compile_stage_unlinked;
    use gcnc::ir::Stage;
    let spv = |name: &str| {
        let path = format!("{}/tests/shaders/draw/{name}", env!("CARGO_MANIFEST_DIR"));
        gcnc::front::spirv::words_from_bytes(&std::fs::read(path).unwrap()).unwrap()
    };
    let (vs, fs) = (spv("vs_color.spv"), spv("fs_color.spv"));
    let state = PipelineState::from_json(GRAPHICS_STATE).unwrap();
    let st = state.graphics.as_ref().unwrap().to_state().unwrap();
    let mut g = c.benchmark_group("graphics");
    for t in Gen::ALL {
        let opts = gcnc::Options::new(gcnc::isa::Target::new(t));
        let vs_elf = compile_stage_unlinked(&vs, Stage::Vertex, &opts)
            .unwrap()
            .elf;
        let fs_elf = compile_stage_unlinked(&fs, Stage::Fragment, &opts)
            .unwrap()
            .elf;
        let warm = PartCache::new();
        let linked = link(&[&vs_elf, &fs_elf], &state, &warm).unwrap();
        assert_eq!(linked.placed.len(), 5, "prolog, VS, epilog, FS, epilog");
        g.bench_function(format!("link_warm/{t}"), |b| {
            b.iter(|| link(&[&vs_elf, &fs_elf], &state, &warm).unwrap())
        });
        // The stages' inputs read once (kept by a driver beside its cached ELFs).
        let read = [
            gcnc::link::input::read_input(0, &vs_elf).unwrap(),
            gcnc::link::input::read_input(1, &fs_elf).unwrap(),
        ];
        g.bench_function(format!("link_warm_read/{t}"), |b| {
            b.iter(|| gcnc::link::link_read(&read, &state, &warm).unwrap())
        });
        g.bench_function(format!("compile_pipeline/{t}"), |b| {
            b.iter(|| compile_pipeline(&vs, &fs, &opts, &st).unwrap())
        });
    }
    g.finish();
}

criterion_group!(benches, bench, unlinked_vs_whole, graphics);
criterion_main!(benches);
