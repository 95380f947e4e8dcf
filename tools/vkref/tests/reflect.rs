//! Reflection, as a specification: corpus modules in, the facts a pipeline needs out; and
//! malformed modules in, typed errors out (never a panic).

use rspirv::spirv::Capability;
use vkref::corpus;
use vkref::reflect::{self, DescriptorKind, Error, SizeDim, Stage};

fn module(name: &str) -> reflect::Module {
    let c = corpus::cases()
        .into_iter()
        .find(|c| c.name == name)
        .expect("case");
    reflect::reflect_bytes(c.spirv).expect("reflects")
}

fn fixed(v: u32) -> SizeDim {
    SizeDim {
        value: v,
        spec_id: None,
    }
}

#[test]
fn literal_local_size_bindings_and_push_constants() {
    let m = module("push_constants");
    let ep = m.entry("main").unwrap();
    assert_eq!(ep.stage, Stage::Compute);
    assert_eq!(ep.local_size, Some([fixed(64), fixed(1), fixed(1)]));
    assert_eq!(ep.push_constant_size, Some(36));
    let b: Vec<_> = ep
        .bindings
        .iter()
        .map(|b| (b.set, b.binding, b.kind, b.count))
        .collect();
    assert_eq!(
        b,
        [
            (0, 0, DescriptorKind::StorageBuffer, Some(1)),
            (0, 1, DescriptorKind::StorageBuffer, Some(1))
        ]
    );
}

#[test]
fn std140_uniform_block_size() {
    let m = module("std140_ubo");
    let ep = m.entry("main").unwrap();
    assert_eq!(ep.bindings[0].kind, DescriptorKind::UniformBuffer);
    assert_eq!(ep.bindings[0].block_size, Some(180));
    assert_eq!(ep.bindings[1].kind, DescriptorKind::StorageBuffer);
    assert_eq!(ep.bindings[1].block_size, Some(0), "runtime array only");
    let m = module("row_major");
    assert_eq!(m.entry("main").unwrap().bindings[0].block_size, Some(208));
}

#[test]
fn local_size_id_from_spec_constants() {
    let m = module("spec_local_size");
    assert_eq!(m.version, (1, 6));
    let ep = m.entry("main").unwrap();
    assert_eq!(
        ep.local_size,
        Some([
            SizeDim {
                value: 1,
                spec_id: Some(0)
            },
            SizeDim {
                value: 1,
                spec_id: Some(1)
            },
            fixed(1)
        ])
    );
    let mut ids: Vec<_> = m
        .spec_constants
        .iter()
        .map(|s| (s.spec_id, s.bits, s.default))
        .collect();
    ids.dedup();
    assert_eq!(ids, [(0, 32, 1), (1, 32, 1), (2, 32, 1)]);
}

#[test]
fn spec_constants_of_each_kind() {
    let m = module("spec_constants");
    let ids: Vec<_> = m
        .spec_constants
        .iter()
        .map(|s| (s.spec_id, s.bits, s.default))
        .collect();
    assert_eq!(
        ids,
        [
            (0, 32, 3),
            (1, 32, (-2i32) as u32 as u64),
            (2, 1, 0),
            (3, 32, 1.5f32.to_bits() as u64),
            (4, 64, 1),
            (5, 32, 11),
        ]
    );
    assert!(m.has_capability(Capability::Int64));
}

#[test]
fn capabilities_and_buffer_device_address_push_block() {
    assert!(module("atomics_i64").has_capability(Capability::Int64Atomics));
    assert!(module("memory_model").has_capability(Capability::VulkanMemoryModel));
    assert!(module("arith_i8").has_capability(Capability::StorageBuffer8BitAccess));
    assert!(module("arith_f16").has_capability(Capability::Float16));
    assert!(module("subgroup_shuffle").has_capability(Capability::GroupNonUniformShuffleRelative));
    let m = module("bda_pointer");
    assert!(m.has_capability(Capability::PhysicalStorageBufferAddresses));
    let ep = m.entry("main").unwrap();
    assert!(ep.bindings.is_empty());
    assert_eq!(ep.push_constant_size, Some(20));
}

#[test]
fn two_dimensional_workgroup() {
    let m = module("shared_transpose");
    assert_eq!(
        m.entry("main").unwrap().local_size,
        Some([fixed(16), fixed(16), fixed(1)])
    );
}

#[test]
fn malformed_modules_are_typed_errors() {
    let good = corpus::cases()
        .into_iter()
        .find(|c| c.name == "arith_i32")
        .unwrap()
        .spirv
        .to_vec();
    assert_eq!(
        reflect::reflect_bytes(&good[..7]),
        Err(Error::Unaligned { len: 7 })
    );
    assert!(matches!(
        reflect::reflect_bytes(&good[..8]),
        Err(Error::Header { .. })
    ));
    let mut bad_magic = good.clone();
    bad_magic[0] ^= 0xff;
    assert!(matches!(
        reflect::reflect_bytes(&bad_magic),
        Err(Error::Header { .. })
    ));
    // Cut inside the first instruction after the header: its word count overruns the end.
    let first_count = (u32::from_le_bytes([good[20], good[21], good[22], good[23]]) >> 16) as usize;
    assert!(first_count > 1);
    match reflect::reflect_bytes(&good[..24]) {
        Err(Error::Parse { why }) => assert!(why.contains("word 5"), "{why}"),
        other => panic!("{other:?}"),
    }
    // A zero word count.
    let mut zero = good.clone();
    zero[22] = 0;
    zero[23] = 0;
    assert!(matches!(
        reflect::reflect_bytes(&zero),
        Err(Error::Parse { .. })
    ));
    let m = reflect::reflect_bytes(&good).unwrap();
    assert!(matches!(m.entry("nope"), Err(Error::NoEntryPoint { .. })));
}

#[test]
fn corrupted_modules_never_panic() {
    // Deterministic corruption of every corpus module: truncations at every 97th word and
    // single-word replacements; each must reflect or fail with an error.
    let mut state = 0x1234_5678u32;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        state
    };
    let mut errors = 0;
    for c in corpus::cases() {
        let words = reflect::words_of(c.spirv).unwrap();
        for cut in (5..words.len()).step_by(97) {
            errors += reflect::reflect(&words[..cut]).is_err() as usize;
        }
        for _ in 0..40 {
            let mut w = words.clone();
            let at = 5 + next() as usize % (w.len() - 5);
            w[at] = match next() % 3 {
                0 => next(),
                1 => w[at] ^ (1 << (next() % 32)),
                _ => next() % 64,
            };
            errors += reflect::reflect(&w).is_err() as usize;
        }
    }
    assert!(errors > 0);
}

fn draw_shader(name: &str) -> reflect::Module {
    let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/shaders/draw")
        .join(name);
    reflect::reflect_bytes(&std::fs::read(p).unwrap()).expect("reflects")
}

#[test]
fn interface_locations_of_vertex_inputs_and_fragment_outputs() {
    use reflect::{Location, ScalarKind::Float};
    let l = |output, location, components| Location {
        output,
        location,
        components,
        kind: Float,
        bits: 32,
    };
    // vec4 pos, vec4 col, vec3 inst in; vec4 out; gl_Position (a built-in) left out
    let m = draw_shader("vs_instanced.spv");
    let ep = m.entry("main").unwrap();
    assert_eq!(
        ep.locations,
        [
            l(false, 0, 4),
            l(false, 1, 4),
            l(false, 2, 3),
            l(true, 0, 4)
        ]
    );
    // vec4 in; vec4, vec4, float out
    let m = draw_shader("fs_mrt.spv");
    let ep = m.entry("main").unwrap();
    assert_eq!(
        ep.locations,
        [l(false, 0, 4), l(true, 0, 4), l(true, 1, 4), l(true, 2, 1)]
    );
}
