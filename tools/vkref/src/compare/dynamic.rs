//! Dynamic instruction count of gcnc's code (issue 15): how many instructions a wave
//! executes, measured on the emulator with the shader's own inputs.
//!
//! Only shaders of the compute corpus ([`crate::corpus`]) have inputs: a compared shader is
//! matched to the corpus case with the same name *and* the same SPIR-V bytes, compiled as
//! the corpus test compiles it (the case's entry point and specialization constants, the
//! compared target's wave size), and dispatched once with the case's workgroups, push
//! constants and resources, placed as [`place_of`] says. The count is the emulator's
//! executed instructions over all waves divided by the waves (rounded to nearest). Any
//! other shader has no count (absent, not zero).

use crate::corpus::{self, AddressTarget, Inputs, SpecValue};
use crate::lavapipe::Resource;
use crate::radv::Family;
use crate::reflect::DescriptorKind;
use gcnc_emu::pipeline::{self, Place, Setup};

/// The corpus case `name` when its SPIR-V is exactly `spirv`.
pub fn corpus_case(name: &str, spirv: &[u8]) -> Option<corpus::Case> {
    corpus::cases()
        .into_iter()
        .find(|c| c.name == name && c.spirv == spirv)
}

/// gcnc's options for a corpus case on `target`: its entry point and spec constants.
pub fn case_options(
    case: &corpus::Case,
    inputs: &Inputs,
    target: gcnc::isa::Target,
) -> gcnc::Options {
    let mut o = gcnc::Options::new(target);
    o.entry = Some(case.entry.to_string());
    o.spec = inputs
        .spec
        .iter()
        .map(|(id, v)| {
            let bits = match v {
                SpecValue::U32(x) => *x as u64,
                SpecValue::U64(x) => *x,
            };
            (*id, bits)
        })
        .collect();
    o
}

/// The emulator dispatch of a corpus case's inputs for a shader compiled with `opts`
/// (the descriptor layout the compiler used: sets packed from the declared bindings).
pub fn emu_setup(inputs: &Inputs, words: &[u32], opts: &gcnc::Options) -> Result<Setup, String> {
    let mut setup = Setup::new(inputs.groups);
    setup.push = inputs.push.clone();
    setup.wave = Some(opts.target.wave);
    setup.layout = pipeline::default_layout(words, opts).map_err(|e| format!("layout: {e}"))?;
    for r in &inputs.resources {
        setup.resources.push(pipeline::Resource {
            data: r.data().to_vec(),
            place: place_of(r),
        });
    }
    Ok(setup)
}

/// Where the emulator harness puts a corpus resource (images: the T# format and swizzle
/// of their Vulkan format, the S# of their sampler).
pub fn place_of(r: &Resource) -> Place {
    use crate::images::{TexelFormat as F, ViewType as V};
    use gcnc_emu::image::{
        TYPE_1D, TYPE_1D_ARRAY, TYPE_2D, TYPE_2D_ARRAY, TYPE_2D_MSAA, TYPE_2D_MSAA_ARRAY, TYPE_3D,
        TYPE_CUBE,
    };
    let format = |f: F| f.amd();
    let sampler = |s: &crate::images::Sampler| s.to_emu().encode();
    match r {
        Resource::Buffer { set, binding, .. } => Place::Binding {
            set: *set,
            binding: *binding,
        },
        Resource::Buffers { set, binding, .. } => Place::Buffers {
            set: *set,
            binding: *binding,
            ranges: r.buffer_ranges(),
        },
        Resource::Address { target, .. } => match *target {
            AddressTarget::Push(off) => Place::PushAddress(off),
            AddressTarget::Resource { index, offset } => Place::ResourceAddress { index, offset },
        },
        Resource::Image {
            set,
            binding,
            kind,
            images,
            samplers,
        } => Place::Images {
            set: *set,
            binding: *binding,
            images: images
                .iter()
                .enumerate()
                .map(|(k, i)| {
                    let (fmt, dst_sel) = format(i.format);
                    pipeline::ImageView {
                        ty: match i.view {
                            V::D2 if i.samples > 1 => TYPE_2D_MSAA,
                            V::D2Array if i.samples > 1 => TYPE_2D_MSAA_ARRAY,
                            V::D1 => TYPE_1D,
                            V::D2 => TYPE_2D,
                            V::D3 => TYPE_3D,
                            // a storage view of a cube is a 2D array of its faces, as
                            // RADV describes it (radv_tex_dim); sampled cubes are cubes
                            V::Cube | V::CubeArray if *kind == DescriptorKind::StorageImage => {
                                TYPE_2D_ARRAY
                            }
                            V::Cube | V::CubeArray => TYPE_CUBE,
                            V::D1Array => TYPE_1D_ARRAY,
                            V::D2Array => TYPE_2D_ARRAY,
                        },
                        fmt,
                        size: i.size,
                        levels: i.levels,
                        samples: i.samples,
                        dst_sel,
                        sampler: samplers.get(k).map(sampler),
                    }
                })
                .collect(),
        },
        Resource::Sampler {
            set,
            binding,
            samplers,
        } => Place::Samplers {
            set: *set,
            binding: *binding,
            samplers: samplers.iter().map(sampler).collect(),
        },
        Resource::TexelBuffer {
            set,
            binding,
            format: f,
            ..
        } => Place::TexelBuffer {
            set: *set,
            binding: *binding,
            format: format(*f).0,
        },
    }
}

/// Instructions executed per wave by gcnc's code for the corpus shader `name` on `family`
/// (its wave size as compared, [`super::wave_for`]): `None` for a shader the corpus does
/// not hold, an error when it does not compile or run.
pub fn executed_per_wave(name: &str, spirv: &[u8], family: Family) -> Option<Result<u64, String>> {
    let case = corpus_case(name, spirv)?;
    Some(run_case(&case, family))
}

fn run_case(case: &corpus::Case, family: Family) -> Result<u64, String> {
    let inputs = (case.inputs)();
    let words = gcnc::front::spirv::words_from_bytes(case.spirv).map_err(|e| e.to_string())?;
    let target = gcnc::isa::Target {
        gen: family.gen(),
        wave: super::wave_for(family),
    };
    let opts = case_options(case, &inputs, target);
    let c = gcnc::compile_spirv(&words, &opts).map_err(|e| format!("{}: {e}", e.phase().name()))?;
    let setup = emu_setup(&inputs, &words, &opts)?;
    let (_, stats) = pipeline::run_elf(&c.elf, &setup).map_err(|e| format!("emulator: {e}"))?;
    if stats.waves == 0 {
        return Err("the dispatch ran no wave".into());
    }
    Ok((stats.instructions + stats.waves / 2) / stats.waves)
}
