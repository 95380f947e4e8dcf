//! Link time: one compute main part (a few hundred instructions) linked with a layout that
//! needs the CS prolog, per target — cold (a fresh part cache, so the prolog is built) and
//! warm (the part is cached, as on every link after the first in a process). Short mode for
//! CI: `cargo bench --bench link -- --test`.

#[path = "../tests/link_support/mod.rs"]
mod link_support;

use criterion::{criterion_group, criterion_main, Criterion};
use gcnc::binary::prelink::UserSgpr;
use gcnc::binary::Target;
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

fn main_elf(t: Target) -> Vec<u8> {
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
    for t in Target::ALL {
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

criterion_group!(benches, bench);
criterion_main!(benches);
