//! Image cases at the edges of what texels and descriptors hold: 64-, 96- and 128-bit
//! texels, whose components lie past the first 64 bits of the texel (`img_wide_texels`);
//! the size of storage cube images, whose descriptor is a 2D array of faces
//! (`img_cube_size`); reads and writes outside the image under robustImageAccess2
//! (`img_robust`); multisampled images read sample by sample (`img_ms`). Expectations
//! follow Vulkan's format conversions
//! (`TexelFormat::decode` / `TexelFormat::encode`) and its texel replacement rules; every
//! value is exact except normalized texels (within the rounding of the conversion).

use super::image_kinds::{f32s, sampled, CONVERTED};
use super::images::{image_of, images, rand_image};
use super::*;
use crate::images::{Image, Sampler, TexelFormat, ViewType};

/// An image whose float channels are small multiples of 1/4 (exact, never NaN or denormal).
fn quarters(r: &mut Rng, format: TexelFormat, view: ViewType, size: [u32; 3]) -> Image {
    let n = format.bytes() / 4;
    Image::from_fn(format, view, size, 1, |_, _, _, _| {
        (0..n)
            .flat_map(|_| (r.range(-4000, 4000) as f32 / 4.0).to_le_bytes())
            .collect()
    })
}

/// Texel (x, y, z) of level 0 as the shader reads it.
fn texel(img: &Image, x: u32, y: u32, z: u32) -> [f64; 4] {
    sample(img, x, y, z, 0)
}

/// Sample `s` of texel (x, y, z) of level 0 (0 for an image of one sample) as the shader
/// reads it.
fn sample(img: &Image, x: u32, y: u32, z: u32, s: u32) -> [f64; 4] {
    let at = img.sample_offset(x, y, z, s);
    img.format
        .decode(&img.data[at..at + img.format.bytes() as usize])
        .expect("a format with a reference conversion")
}

// ---- img_wide_texels

fn wide_inputs() -> Inputs {
    let mut r = Rng::new(2101);
    let st = DescriptorKind::StorageImage;
    let comb = DescriptorKind::CombinedImageSampler;
    let u128 = rand_image(&mut r, TexelFormat::Rgba32Uint, ViewType::D2, [8, 8, 1], 1);
    let f128 = quarters(&mut r, TexelFormat::Rgba32Float, ViewType::D3, [4, 4, 4]);
    let f64i = quarters(&mut r, TexelFormat::Rg32Float, ViewType::D2, [8, 8, 1]);
    let s128 = quarters(&mut r, TexelFormat::Rgba32Float, ViewType::D2, [8, 8, 1]);
    let s96 = quarters(&mut r, TexelFormat::Rgb32Float, ViewType::D2, [8, 8, 1]);
    Inputs {
        groups: [1, 1, 1],
        resources: vec![
            images(0, st, vec![u128], vec![]),
            images(1, st, vec![f128], vec![]),
            images(2, st, vec![f64i], vec![]),
            sampled(3, comb, vec![s128], Sampler::nearest()),
            sampled(4, comb, vec![s96], Sampler::nearest()),
            sb(5, vec![0xcc; 16 * 64 * 4]),
        ],
        push: vec![],
        spec: vec![],
    }
}

fn wide_expect(inp: &Inputs, _: &Env) -> Vec<Expect> {
    let img = |k: usize| image_of(&inp.resources[k], 0);
    let mut u128 = img(0).clone();
    let mut f64i = img(2).clone();
    let mut o: Vec<[f64; 4]> = Vec::new();
    for i in 0..64u32 {
        let (x, y) = (i % 8, i / 8);
        let at = u128.texel_offset(0, x, y, 0);
        let u: Vec<u32> = from_bytes::<u32>(&u128.data[at..at + 16]);
        let new = [
            u[0].wrapping_add(u[3]),
            u[1] ^ u[2],
            u[2].wrapping_mul(3).wrapping_add(i),
            u[3].wrapping_sub(u[0]),
        ];
        u128.data[at..at + 16].copy_from_slice(&to_bytes(&new));
        let g = texel(&f64i, x, y, 0);
        let at = f64i.texel_offset(0, x, y, 0);
        let b = TexelFormat::Rg32Float
            .encode([g[1] * 2.0, g[0] - 1.0, 0.0, 0.0])
            .unwrap();
        f64i.data[at..at + 8].copy_from_slice(&b);
        o.push(texel(img(1), i % 4, (i / 4) % 4, i / 16));
        o.push(g);
        o.push(texel(img(3), y, x, 0));
        o.push(texel(img(4), x, y, 0));
    }
    vec![exact(0, u128.data), exact(2, f64i.data), exact(5, f32s(&o))]
}

// ---- img_cube_size

/// R32F texel value of (level, x, y, face or layer): all different and exact.
fn cube_value(l: u32, x: u32, y: u32, z: u32) -> Vec<u8> {
    ((1000 * l + 100 * z + 10 * y + x) as f32 + 0.5)
        .to_le_bytes()
        .to_vec()
}

fn cube_size_inputs() -> Inputs {
    let st = DescriptorKind::StorageImage;
    let comb = DescriptorKind::CombinedImageSampler;
    let r32f =
        |view, size, levels| Image::from_fn(TexelFormat::R32Float, view, size, levels, cube_value);
    Inputs {
        groups: [1, 1, 1],
        resources: vec![
            images(0, st, vec![r32f(ViewType::Cube, [4, 4, 6], 1)], vec![]),
            images(
                1,
                st,
                vec![r32f(ViewType::CubeArray, [2, 2, 18], 1)],
                vec![],
            ),
            sampled(
                2,
                comb,
                vec![r32f(ViewType::Cube, [8, 8, 6], 2)],
                Sampler::nearest(),
            ),
            sb(3, vec![0xcc; 16 * (4 + 64)]),
        ],
        push: vec![],
        spec: vec![],
    }
}

fn cube_size_expect(inp: &Inputs, _: &Env) -> Vec<Expect> {
    let sizes: [[i32; 4]; 4] = [[4, 4, 0, 0], [2, 2, 3, 0], [8, 8, 4, 4], [3, 2, 2, 4]];
    let mut out = to_bytes(&sizes.concat());
    let o: Vec<[f64; 4]> = (0..64u32)
        .map(|i| {
            [
                texel(
                    image_of(&inp.resources[0], 0),
                    (i / 6) % 4,
                    (i / 24) % 4,
                    i % 6,
                )[0],
                texel(image_of(&inp.resources[1], 0), i % 2, (i / 2) % 2, i / 4)[0],
                403.0,
                0.0,
            ]
        })
        .collect();
    out.extend(f32s(&o));
    vec![exact(3, out)]
}

// ---- img_robust

fn robust_inputs() -> Inputs {
    let mut r = Rng::new(2103);
    let st = DescriptorKind::StorageImage;
    let comb = DescriptorKind::CombinedImageSampler;
    let sz = [4, 4, 1];
    let u8 = rand_image(&mut r, TexelFormat::Rgba8Uint, ViewType::D2, sz, 1);
    let f1 = quarters(&mut r, TexelFormat::R32Float, ViewType::D2Array, [4, 4, 2]);
    let h2 = Image::from_fn(
        TexelFormat::Rg16Float,
        ViewType::D3,
        [4, 4, 2],
        1,
        |_, _, _, _| {
            (0..2)
                .flat_map(|_| f32_to_f16(r.range(-64, 64) as f32 / 8.0).to_le_bytes())
                .collect()
        },
    );
    let t8 = rand_image(&mut r, TexelFormat::Rgba8Unorm, ViewType::D2, sz, 1);
    let t32 = rand_image(&mut r, TexelFormat::R32Uint, ViewType::D2, sz, 1);
    let w = Image::from_fn(TexelFormat::R32Uint, ViewType::D2, sz, 1, |_, _, _, _| {
        vec![0xee; 4]
    });
    Inputs {
        groups: [1, 1, 1],
        resources: vec![
            images(0, st, vec![u8], vec![]),
            images(1, st, vec![f1], vec![]),
            images(2, st, vec![h2], vec![]),
            sampled(3, comb, vec![t8], Sampler::nearest()),
            sampled(4, comb, vec![t32], Sampler::nearest()),
            images(5, st, vec![w], vec![]),
            sb(6, vec![0xcc; 16 * 64 * 4]),
            sb(7, vec![0xcc; 16 * 64]),
        ],
        push: vec![],
        spec: vec![],
    }
}

fn robust_expect(inp: &Inputs, _: &Env) -> Vec<Expect> {
    let img = |k: usize| image_of(&inp.resources[k], 0);
    // a read outside: zero for the format's components, (0, 0, 1) for the missing ones
    let read = |k: usize, x: i64, y: i64, z: i64, missing: [f64; 4]| {
        let m = img(k);
        let [w, h, d] = m.size;
        let inside =
            (0..w as i64).contains(&x) && (0..h as i64).contains(&y) && (0..d as i64).contains(&z);
        if inside {
            texel(m, x as u32, y as u32, z as u32)
        } else {
            missing
        }
    };
    let rgba = [0.0; 4];
    let r_only = [0.0, 0.0, 0.0, 1.0];
    let mut ints: Vec<u32> = Vec::new();
    let mut floats: Vec<[f64; 4]> = Vec::new();
    let mut unorm: Vec<[f64; 4]> = Vec::new();
    let mut e: Vec<u32> = Vec::new();
    let mut w = img(5).clone();
    for i in 0..64i64 {
        let (x, y, l) = (i % 8 - 2, i / 8 - 2, i % 3);
        ints.extend(read(0, x, y, 0, rgba).map(|c| c as u32));
        floats.push(read(1, x, y, l, r_only));
        e.extend(read(4, x, y, 0, r_only).map(|c| c as u32));
        unorm.push(read(3, x, y, 0, rgba));
        if (0..4).contains(&x) && (0..4).contains(&y) {
            let at = w.texel_offset(0, x as u32, y as u32, 0);
            w.data[at..at + 4].copy_from_slice(&(i as u32 + 1).to_le_bytes());
        }
    }
    let halves: Vec<[f64; 4]> = (0..64i64)
        .map(|i| read(2, i % 8 - 2, i / 8 - 2, i % 3, r_only))
        .collect();
    let mut out = to_bytes(&ints);
    out.extend(f32s(&floats));
    out.extend(f32s(&halves));
    out.extend(to_bytes(&e));
    vec![
        exact(5, w.data),
        exact(6, out),
        Expect {
            resource: 7,
            bytes: f32s(&unorm),
            check: CONVERTED,
        },
    ]
}

// ---- img_ms

fn ms_inputs() -> Inputs {
    let mut r = Rng::new(2104);
    let st = DescriptorKind::StorageImage;
    let comb = DescriptorKind::CombinedImageSampler;
    let t = Image::multisampled(
        TexelFormat::Rgba8Unorm,
        ViewType::D2,
        [4, 4, 1],
        4,
        |_, _, _, _| (0..4).map(|_| r.u32() as u8).collect(),
    );
    let u = Image::multisampled(
        TexelFormat::R32Uint,
        ViewType::D2Array,
        [4, 4, 2],
        4,
        |_, _, _, _| r.u32().to_le_bytes().to_vec(),
    );
    let h = Image::multisampled(
        TexelFormat::Rgba16Float,
        ViewType::D2,
        [4, 4, 1],
        4,
        |_, _, _, _| {
            (0..4)
                .flat_map(|_| f32_to_f16(r.range(-64, 64) as f32 / 8.0).to_le_bytes())
                .collect()
        },
    );
    Inputs {
        groups: [1, 1, 1],
        resources: vec![
            sampled(0, comb, vec![t], Sampler::nearest()),
            images(1, st, vec![u], vec![]),
            images(2, st, vec![h], vec![]),
            sb(3, vec![0xcc; 16 * (64 * 2 + 1)]),
            sb(4, vec![0xcc; 16 * 64]),
        ],
        push: vec![],
        spec: vec![],
    }
}

fn ms_expect(inp: &Inputs, _: &Env) -> Vec<Expect> {
    let img = |k: usize| image_of(&inp.resources[k], 0);
    let mut a: Vec<[f64; 4]> = Vec::new();
    let mut b: Vec<u32> = Vec::new();
    let mut c: Vec<[f64; 4]> = Vec::new();
    for i in 0..64u32 {
        let (x, y, s) = (i % 4, (i / 4) % 4, i / 16);
        a.push(sample(img(0), x, y, 0, s));
        b.extend([
            sample(img(1), x, y, 0, s)[0] as u32,
            sample(img(1), x, y, 1, 3 - s)[0] as u32,
            0,
            0,
        ]);
        c.push(sample(img(2), x, y, 0, s));
    }
    let mut out = to_bytes(&b);
    out.extend(f32s(&c));
    out.extend(to_bytes(&[4i32, 4, 4, 0]));
    vec![
        exact(3, out),
        Expect {
            resource: 4,
            bytes: f32s(&a),
            check: CONVERTED,
        },
    ]
}

pub fn cases() -> Vec<Case> {
    vec![
        case!("img_wide_texels", wide_inputs, wide_expect),
        case!("img_cube_size", cube_size_inputs, cube_size_expect),
        case!("img_robust", robust_inputs, robust_expect),
        case!("img_ms", ms_inputs, ms_expect),
    ]
}
