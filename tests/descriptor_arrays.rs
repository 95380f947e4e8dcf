//! Runtime-sized descriptor arrays placed by a layout other than the packed default: the
//! corpus cases `desc_runtime_arrays` (constant and push-constant indices) and
//! `desc_runtime_nonuniform` (`nonuniformEXT` indices) compiled with a JSON layout that
//! moves each array and gives it a stride wider than its descriptor, and compiled unlinked
//! (each array's offset and stride relocated, `gcnc.desc.S.B.KIND.{offset,stride}`) then
//! linked with the same places. Each run on the emulator, descriptors written where the
//! layout says, must equal the case's expectation on gfx900 wave64, gfx1030 and gfx1100
//! (wave32 and wave64).

mod backend_support;

use backend_support::CONFIGS;
use gcnc::amdgpu::abi::PipelineLayout;
use gcnc::isa::{Target, Wave};
use gcnc::link::state::BindingLayout;
use gcnc::link::PipelineState;
use gcnc::{compile_spirv, compile_spirv_unlinked, Options};
use gcnc_emu::pipeline;
use vkref::compare::dynamic;
use vkref::corpus::{self, Env};

/// (case, its layout as `--layout` JSON, the same places as the link state's
/// `descriptor_layout`: a combined binding's S# is the `sampler` kind of its binding).
/// Sets 1 (storage buffers) and 2 (storage images) hold one runtime array each, at an
/// offset past the packed place and with a stride wider than the descriptor.
fn layouts() -> Vec<(&'static str, &'static str, Vec<BindingLayout>)> {
    let b = |set, binding, kind: &str, offset, stride| BindingLayout {
        set,
        binding,
        kind: kind.into(),
        offset,
        stride,
    };
    // the output buffer and the arrays of sets 1 and 2 are the same in both shaders
    let with = |own: [BindingLayout; 2]| {
        let mut v = vec![
            b(0, 0, "buffer", 16, 16),
            b(1, 0, "buffer", 48, 48),
            b(2, 0, "image", 96, 80),
        ];
        v.extend(own);
        v
    };
    vec![
        (
            "desc_runtime_arrays",
            r#"{"sets": {"0": {"0": 16, "1": {"offset": 64, "stride": 64, "sampler_offset": 48}},
                "1": {"0": {"offset": 48, "stride": 48}}, "2": {"0": {"offset": 96, "stride": 80}}}}"#,
            with([b(0, 1, "image", 64, 64), b(0, 1, "sampler", 112, 64)]),
        ),
        (
            "desc_runtime_nonuniform",
            r#"{"sets": {"0": {"0": 16, "1": 32, "2": {"offset": 256, "stride": 64}},
                "1": {"0": {"offset": 48, "stride": 48}}, "2": {"0": {"offset": 96, "stride": 80}}}}"#,
            with([b(0, 1, "sampler", 32, 16), b(0, 2, "image", 256, 64)]),
        ),
    ]
}

/// Runs `elf` with the case's inputs, descriptors at `layout`, against its expectation.
fn check_run(
    case: &corpus::Case,
    elf: &[u8],
    layout: &PipelineLayout,
    wave: Wave,
) -> Result<(), String> {
    let inputs = (case.inputs)();
    let words = gcnc::front::spirv::words_from_bytes(case.spirv).unwrap();
    // the dispatch's wave size is the compile's; the layout is the same on every target
    let t = Target::with_wave(gcnc::isa::Gen::Gfx10, wave).unwrap();
    let mut o = dynamic::case_options(case, &inputs, t);
    o.layout = layout.clone();
    let setup = dynamic::emu_setup(&inputs, &words, &o)?;
    let (ran, _) = pipeline::run_elf(elf, &setup).map_err(|e| format!("emulator: {e}"))?;
    let env = Env {
        subgroup_size: wave.lanes(),
    };
    for e in (case.expect)(&inputs, &env) {
        let got = ran.resource(e.resource).unwrap();
        corpus::compare(&got, &e).map_err(|m| format!("resource {}: {m}", e.resource))?;
    }
    Ok(())
}

/// Calls `body` for both cases on every configuration with (the case, its layout, its link
/// places, its SPIR-V words, its compile options there, the wave size) and fails with every
/// error it returns.
fn on_every_config(
    mut body: impl FnMut(
        &corpus::Case,
        &PipelineLayout,
        &[BindingLayout],
        &[u32],
        Options,
        Wave,
    ) -> Result<(), String>,
) {
    let mut failures = Vec::new();
    for (name, json, places) in layouts() {
        let case = corpus::cases()
            .into_iter()
            .find(|c| c.name == name)
            .unwrap_or_else(|| panic!("no corpus case {name}"));
        let layout = PipelineLayout::from_json(json).unwrap();
        let words = gcnc::front::spirv::words_from_bytes(case.spirv).unwrap();
        for (g, w) in CONFIGS {
            let inputs = (case.inputs)();
            let o = dynamic::case_options(&case, &inputs, Target::with_wave(g, w).unwrap());
            if let Err(e) = body(&case, &layout, &places, &words, o, w) {
                failures.push(format!("{name} {}w{}: {e}", g.mcpu(), w.lanes()));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn runtime_arrays_follow_a_json_layouts_offsets_and_strides() {
    on_every_config(|case, layout, _, words, mut o, w| {
        o.layout = layout.clone();
        let c = compile_spirv(words, &o).map_err(|e| e.to_string())?;
        check_run(case, &c.elf, layout, w)
    });
}

#[test]
fn unlinked_runtime_arrays_are_relocated_then_linked_to_the_layout() {
    on_every_config(|case, layout, places, words, mut o, w| {
        o.missing.descriptor_layout = true;
        let u = compile_spirv_unlinked(words, &o).map_err(|e| format!("unlinked: {e}"))?;
        let symbols: Vec<String> = u.program.symbols.iter().map(|s| s.name()).collect();
        // the runtime arrays' strides are relocated like a fixed array's
        for want in ["gcnc.desc.1.0.buffer.stride", "gcnc.desc.2.0.image.stride"] {
            if !symbols.iter().any(|s| s == want) {
                return Err(format!("no {want} in {symbols:?}"));
            }
        }
        let state = PipelineState {
            descriptor_layout: places.to_vec(),
            ..Default::default()
        };
        let l = gcnc::link::link(&[&u.elf], &state, &gcnc::parts::PartCache::new())
            .map_err(|e| format!("link: {e}"))?;
        check_run(case, &l.elf, layout, w)
    });
}
