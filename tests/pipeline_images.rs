//! The emulator harness places image, sampler and texel-buffer descriptors where the
//! compiler expects them: at the packed default layout of the shader's declared bindings
//! (`pipeline::default_layout`), a T# per array element at `offset + element · stride`, a
//! combined image sampler's S# at its sampler offset, each image at its own aligned address
//! holding the given bytes.

use gcnc::isa::{Gen, Target};
use gcnc::{compile_spirv, Options};
use gcnc_emu::image::{ImageDesc, TYPE_2D, TYPE_2D_ARRAY};
use gcnc_emu::pipeline::{self, ImageView, Place, Resource, Setup, SETS_BASE};
use gcnc_emu::sampler::SamplerDesc;
use gcnc_emu::texformat::TexFormat;

fn words(name: &str) -> Vec<u32> {
    let p = format!(
        "{}/tests/shaders/compute/{name}.spv",
        env!("CARGO_MANIFEST_DIR")
    );
    gcnc::front::spirv::words_from_bytes(&std::fs::read(p).unwrap()).unwrap()
}

fn view(ty: u32, fmt: &str, size: [u32; 3], sampler: Option<[u32; 4]>) -> ImageView {
    ImageView {
        ty,
        fmt: TexFormat::named(fmt).unwrap(),
        size,
        levels: 1,
        samples: 1,
        dst_sel: [4, 5, 6, 7],
        sampler,
    }
}

#[test]
fn image_descriptors_land_at_the_compilers_default_layout() {
    for gen in Gen::ALL {
        let o = Options::new(Target::new(gen));
        // img_arrays declares: 0 = three storage images, 1 = a combined image sampler,
        // 2 = a sampled image, 3 = a sampler; packed: 0, 96, 144, 176
        let layout = pipeline::default_layout(&words("img_arrays"), &o).unwrap();
        // any compiled ELF gives the user-data mapping (set 0's pointer)
        let elf = compile_spirv(&words("arith_i32"), &o).unwrap().elf;
        let smp = SamplerDesc {
            mag_linear: true,
            ..SamplerDesc::default()
        }
        .encode();
        let r32 = |k: u8| vec![k; 64];
        let mut setup = Setup::new([1, 1, 1]);
        setup.layout = layout;
        setup.resources = vec![
            Resource {
                data: [r32(1), r32(2), r32(3)].concat(),
                place: Place::Images {
                    set: 0,
                    binding: 0,
                    images: vec![view(TYPE_2D, "32_FLOAT", [4, 4, 1], None); 3],
                },
            },
            Resource {
                data: vec![9; 4 * 4 * 3 * 4],
                place: Place::Images {
                    set: 0,
                    binding: 1,
                    images: vec![view(TYPE_2D_ARRAY, "32_FLOAT", [4, 4, 3], Some(smp))],
                },
            },
            Resource {
                data: vec![7; 64],
                place: Place::Images {
                    set: 0,
                    binding: 2,
                    images: vec![view(TYPE_2D, "32_FLOAT", [4, 4, 1], None)],
                },
            },
            Resource {
                data: vec![],
                place: Place::Samplers {
                    set: 0,
                    binding: 3,
                    samplers: vec![smp],
                },
            },
        ];
        let p = pipeline::prepare(&elf, &setup).unwrap();
        let t_at = |off: u64| -> ImageDesc {
            let mut t = [0u32; 8];
            for (k, x) in t.iter_mut().enumerate() {
                *x = p.mem.read_u32(SETS_BASE + off + 4 * k as u64).unwrap();
            }
            ImageDesc::decode(gen, &t).unwrap()
        };
        for e in 0..3u64 {
            let d = t_at(32 * e);
            let (addr, len) = p.pieces[0][e as usize];
            assert_eq!(
                (d.base, d.ty, d.width),
                (addr, TYPE_2D, 4),
                "{gen} element {e}"
            );
            assert_eq!(p.mem.read_vec(addr, len).unwrap(), r32(e as u8 + 1));
            assert_eq!(addr % 256, 0, "T# bases are 256-byte aligned");
        }
        assert_eq!(t_at(96).depth, 3, "{gen} combined image at 96");
        let s_at = |off: u64| -> Vec<u32> {
            (0..4)
                .map(|k| p.mem.read_u32(SETS_BASE + off + 4 * k).unwrap())
                .collect()
        };
        assert_eq!(
            s_at(96 + 32),
            smp.to_vec(),
            "{gen} combined S# after its T#"
        );
        assert_eq!(t_at(144).base, p.addrs[2], "{gen} sampled image at 144");
        assert_eq!(s_at(176), smp.to_vec(), "{gen} sampler at 176");
        assert_eq!(p.resource(0).unwrap(), [r32(1), r32(2), r32(3)].concat());
    }
}
