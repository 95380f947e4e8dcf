//! Images, samplers and texel buffers (`img_*`): storage images of four formats, image
//! atomics, texel buffers, explicit-LOD sampling (nearest, bilinear, trilinear), gathers and
//! depth compare, cube maps, arrays of images. Expectations are computed here from the
//! image contents with Vulkan's texel-selection rules; point sampling, fetches, gathers and
//! compares are exact, filtered results are compared within 3 × 2⁻⁸ (8 bits of subtexel
//! and mip-blend precision on each of two axes and the mip blend; docs/emu.md).

use super::*;
use crate::images::{Address, Compare, Image, Sampler, TexelFormat, ViewType};

/// Images (storage, sampled or combined) at (set 0, `binding`).
pub(super) fn images(
    binding: u32,
    kind: DescriptorKind,
    images: Vec<Image>,
    samplers: Vec<Sampler>,
) -> Resource {
    Resource::Image {
        set: 0,
        binding,
        kind,
        images,
        samplers,
    }
}

pub(super) fn image_of(r: &Resource, k: usize) -> &Image {
    match r {
        Resource::Image { images, .. } => &images[k],
        _ => panic!("not an image resource"),
    }
}

/// Bytes of several images one after another (how a runner returns an image binding).
pub(super) fn concat(images: &[Image]) -> Vec<u8> {
    images.iter().flat_map(|i| i.data.iter().copied()).collect()
}

pub(super) fn rand_image(
    r: &mut Rng,
    format: TexelFormat,
    view: ViewType,
    size: [u32; 3],
    levels: u32,
) -> Image {
    Image::from_fn(format, view, size, levels, |_, _, _, _| {
        (0..format.bytes()).map(|_| r.u32() as u8).collect()
    })
}

// ---- img_storage

fn storage_inputs() -> Inputs {
    let mut r = Rng::new(120);
    let sz = [8, 8, 1];
    let rgba8 = rand_image(&mut r, TexelFormat::Rgba8Unorm, ViewType::D2, sz, 1);
    let r32f = Image::from_fn(TexelFormat::R32Float, ViewType::D2, sz, 1, |_, _, _, _| {
        (r.range(-200, 200) as f32 / 2.0).to_le_bytes().to_vec()
    });
    let rgba16f = Image::from_fn(
        TexelFormat::Rgba16Float,
        ViewType::D2,
        sz,
        1,
        |_, _, _, _| {
            (0..4)
                .flat_map(|_| f32_to_f16(r.range(-64, 64) as f32 / 8.0).to_le_bytes())
                .collect()
        },
    );
    let r32ui = rand_image(&mut r, TexelFormat::R32Uint, ViewType::D2, sz, 1);
    let st = DescriptorKind::StorageImage;
    Inputs {
        groups: [2, 2, 1],
        resources: vec![
            images(0, st, vec![rgba8], vec![]),
            images(1, st, vec![r32f], vec![]),
            images(2, st, vec![rgba16f], vec![]),
            images(3, st, vec![r32ui], vec![]),
            sb(4, vec![0xcc; 32]),
        ],
        push: vec![],
        spec: vec![],
    }
}

fn storage_expect(inp: &Inputs, _: &Env) -> Vec<Expect> {
    let rgba8: Vec<u8> = image_of(&inp.resources[0], 0)
        .data
        .chunks(4)
        .flat_map(|c| [c[3], c[2], c[1], c[0]])
        .collect();
    let r32f: Vec<f32> = from_bytes::<f32>(&image_of(&inp.resources[1], 0).data)
        .iter()
        .map(|f| f * 2.0 + 1.0)
        .collect();
    let h: Vec<u16> = from_bytes::<u16>(&image_of(&inp.resources[2], 0).data)
        .iter()
        .map(|&h| f32_to_f16(f16_to_f32(h) * 0.5 + 0.25))
        .collect();
    let u: Vec<u32> = from_bytes::<u32>(&image_of(&inp.resources[3], 0).data)
        .iter()
        .enumerate()
        .map(|(i, &u)| (u ^ 0x5a5a_5a5a).wrapping_add((i % 8 + 8 * (i / 8)) as u32))
        .collect();
    vec![
        exact(0, rgba8),
        exact(1, to_bytes(&r32f)),
        exact(2, to_bytes(&h)),
        exact(3, to_bytes(&u)),
        exact(4, to_bytes(&[8i32; 8])),
    ]
}

// ---- img_atomics

fn atomics_inputs() -> Inputs {
    let zero = |h| {
        Image::from_fn(
            TexelFormat::R32Uint,
            ViewType::D2,
            [8, h, 1],
            1,
            |_, _, _, _| vec![0; 4],
        )
    };
    let st = DescriptorKind::StorageImage;
    Inputs {
        groups: [4, 1, 1],
        resources: vec![
            images(0, st, vec![zero(32)], vec![]),
            images(1, st, vec![zero(8)], vec![]),
            sb(2, vec![0xcc; 4 * 256]),
        ],
        push: vec![],
        spec: vec![],
    }
}

fn atomics_expect(_: &Inputs, _: &Env) -> Vec<Expect> {
    let mut sums = vec![0u32; 8 * 32];
    let mut claims = vec![0u32; 64];
    for i in 0..256u32 {
        let t = (i % 64) as usize;
        sums[t] = sums[t].wrapping_add(i);
        sums[64 + t] = sums[64 + t].max(i.wrapping_mul(2654435761));
        sums[128 + t] |= 1 << (i / 64);
        sums[192 + t] ^= i.wrapping_mul(40503);
        if i < 64 {
            claims[t] = i + 1;
        }
    }
    let won: Vec<u32> = (0..256).map(|i| (i < 64) as u32).collect();
    vec![
        exact(0, to_bytes(&sums)),
        exact(1, to_bytes(&claims)),
        exact(2, to_bytes(&won)),
    ]
}

// ---- img_atomics64

/// 8 × `h` texels of the 64-bit format `f`, each from `texel`.
fn image64(f: TexelFormat, h: u32, mut texel: impl FnMut() -> u64) -> Image {
    Image::from_fn(f, ViewType::D2, [8, h, 1], 1, |_, _, _, _| {
        texel().to_le_bytes().to_vec()
    })
}

fn atomics64_inputs() -> Inputs {
    let mut r = Rng::new(122);
    let st = DescriptorKind::StorageImage;
    let mut row = 0;
    // rows 0..16 add and max from 0, 16..24 and from all ones, 24..32 or from 0, 32..40 xor
    let sums = image64(TexelFormat::R64Uint, 40, || {
        row += 1;
        match (row - 1) / 64 {
            2 => !0,
            4 => r.u64(),
            _ => 0,
        }
    });
    let signed = image64(TexelFormat::R64Sint, 16, || r.u64());
    let mut row = 0;
    let claims = image64(TexelFormat::R64Uint, 16, || {
        row += 1;
        if row <= 64 {
            0
        } else {
            r.u64()
        }
    });
    let rw = image64(TexelFormat::R64Uint, 8, || r.u64());
    Inputs {
        groups: [4, 1, 1],
        resources: vec![
            images(0, st, vec![sums], vec![]),
            images(1, st, vec![signed], vec![]),
            images(2, st, vec![claims], vec![]),
            images(3, st, vec![rw], vec![]),
            sb(4, vec![0xcc; 8 * 256]),
        ],
        push: vec![],
        spec: vec![],
    }
}

fn atomics64_expect(inp: &Inputs, _: &Env) -> Vec<Expect> {
    let init = |k: usize| from_bytes::<u64>(&image_of(&inp.resources[k], 0).data);
    let (mut sums, mut signed, mut claims, mut rw) = (init(0), init(1), init(2), init(3));
    let mut old = vec![0u64; 256];
    for i in 0..256u64 {
        let t = (i % 64) as usize;
        let i32_ = i as u32;
        sums[t] = sums[t].wrapping_add(i << 32 | i32_.wrapping_mul(2654435761) as u64);
        sums[64 + t] = sums[64 + t].max((i32_.wrapping_mul(40503) as u64) << 24 | i);
        sums[128 + t] &= !(1 << (i / 64 + 40)) & !(1 << (i % 7));
        sums[192 + t] |= 1 << (i / 64 + 33) | i;
        sums[256 + t] ^= i.wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let s = (i as i64) * 0x1_0000_0001 - 0x80_0000_0080;
        signed[t] = (signed[t] as i64).min(s) as u64;
        signed[64 + t] = (signed[64 + t] as i64).max(-s) as u64;
        let v = (i + 1) << 32 | !i32_ as u64;
        match i {
            0..=63 => {
                old[i as usize] = claims[t];
                claims[t] = v;
            }
            64..=127 => old[i as usize] = 0,
            128..=191 => {
                old[i as usize] = claims[64 + t];
                claims[64 + t] = v;
            }
            _ => {
                old[i as usize] = rw[t];
                rw[t] = rw[t].wrapping_add(0xf_ffff_ffff + i);
            }
        }
    }
    vec![
        exact(0, to_bytes(&sums)),
        exact(1, to_bytes(&signed)),
        exact(2, to_bytes(&claims)),
        exact(3, to_bytes(&rw)),
        exact(4, to_bytes(&old)),
    ]
}

// ---- img_texel_buffers

const TEXELS: usize = 64;

fn texel_inputs() -> Inputs {
    let mut r = Rng::new(121);
    let mut src = Vec::new();
    for _ in 0..TEXELS * 4 {
        // 0..=64 without 32 (v / 64 · 255 would be a rounding tie)
        let v = [r.range(0, 31), r.range(33, 64)][r.range(0, 1) as usize];
        src.push(v as f32);
    }
    Inputs {
        groups: [1, 1, 1],
        resources: vec![
            Resource::TexelBuffer {
                set: 0,
                binding: 0,
                kind: DescriptorKind::UniformTexelBuffer,
                format: TexelFormat::Rgba32Float,
                data: to_bytes(&src),
            },
            Resource::TexelBuffer {
                set: 0,
                binding: 1,
                kind: DescriptorKind::StorageTexelBuffer,
                format: TexelFormat::R32Uint,
                data: vec![0; 4 * (TEXELS + 2)],
            },
            Resource::TexelBuffer {
                set: 0,
                binding: 2,
                kind: DescriptorKind::StorageTexelBuffer,
                format: TexelFormat::Rgba8Unorm,
                data: vec![0xcc; 4 * TEXELS],
            },
        ],
        push: vec![],
        spec: vec![],
    }
}

fn texel_expect(inp: &Inputs, _: &Env) -> Vec<Expect> {
    let src = from_bytes::<f32>(data(inp, 0));
    let mut dst = vec![0u32; TEXELS + 2];
    let mut dst8 = Vec::new();
    for i in 0..TEXELS {
        let v = &src[4 * i..4 * i + 4];
        dst[i] = (v[0] + v[1] * v[2] + v[3]) as u32;
        dst8.extend(v.iter().map(|x| (x / 64.0 * 255.0).round() as u8));
        if v[3] > 32.0 {
            dst[TEXELS] += 1;
        }
    }
    dst[TEXELS + 1] = (TEXELS as u32 + 2) * 1000 + TEXELS as u32;
    vec![exact(1, to_bytes(&dst)), exact(2, dst8)]
}

/// UNORM8 texels read as floats: within 2 ULP of the correctly rounded `b / 255`
/// (lavapipe multiplies by an approximation of 1/255).
const UNORM8: Check = Check::F32 { ulp: 2, abs: 0.0 };

// ---- sampling helpers (Vulkan's texel selection, clamp to edge)

/// Texel (x, y) of `level`, `slice` as RGBA floats (UNORM8, RGBA16F and 32-bit float
/// formats).
fn texel(img: &Image, level: u32, x: i64, y: i64, slice: u32) -> [f64; 4] {
    let [w, h, _] = img.extent(level);
    let x = x.clamp(0, w as i64 - 1) as u32;
    let y = y.clamp(0, h as i64 - 1) as u32;
    let at = img.texel_offset(level, x, y, slice);
    let b = &img.data[at..at + img.format.bytes() as usize];
    match img.format {
        TexelFormat::Rgba8Unorm => std::array::from_fn(|k| b[k] as f64 / 255.0),
        TexelFormat::R32Float | TexelFormat::D32Float => [at_f32(b), 0.0, 0.0, 1.0],
        TexelFormat::Rgba16Float => {
            std::array::from_fn(|k| f16_to_f32(u16::from_le_bytes([b[2 * k], b[2 * k + 1]])) as f64)
        }
        f => panic!("no reference sampling for {f:?}"),
    }
}

fn at_f32(b: &[u8]) -> f64 {
    f32::from_le_bytes([b[0], b[1], b[2], b[3]]) as f64
}

/// Bilinear filtering at normalized (u, v) of `level`.
fn bilinear(img: &Image, level: u32, u: f64, v: f64) -> [f64; 4] {
    let [w, h, _] = img.extent(level);
    let (s, t) = (u * w as f64 - 0.5, v * h as f64 - 0.5);
    let (i0, j0) = (s.floor(), t.floor());
    let (a, b) = (s - i0, t - j0);
    let (i0, j0) = (i0 as i64, j0 as i64);
    let mut out = [0f64; 4];
    for (di, dj, wgt) in [
        (0, 0, (1.0 - a) * (1.0 - b)),
        (1, 0, a * (1.0 - b)),
        (0, 1, (1.0 - a) * b),
        (1, 1, a * b),
    ] {
        let t = texel(img, level, i0 + di, j0 + dj, 0);
        for k in 0..4 {
            out[k] += wgt * t[k];
        }
    }
    out
}

fn f32s(v: [f64; 4]) -> [f32; 4] {
    v.map(|x| x as f32)
}

// ---- img_sample_lod

fn sample_inputs() -> Inputs {
    let mut r = Rng::new(122);
    let img = rand_image(&mut r, TexelFormat::Rgba8Unorm, ViewType::D2, [8, 8, 1], 4);
    let comb = DescriptorKind::CombinedImageSampler;
    Inputs {
        groups: [1, 1, 1],
        resources: vec![
            images(0, comb, vec![img.clone()], vec![Sampler::nearest()]),
            images(1, comb, vec![img], vec![Sampler::linear()]),
            sb(2, vec![0xcc; 16 * 5 * 64]),
            sb(3, vec![0xcc; 16 * 2 * 64]),
        ],
        push: vec![],
        spec: vec![],
    }
}

fn sample_expect(inp: &Inputs, _: &Env) -> Vec<Expect> {
    let img = image_of(&inp.resources[0], 0);
    let mut ex: Vec<f32> = Vec::new();
    let mut fl: Vec<f32> = Vec::new();
    for i in 0..64i64 {
        let (x, y) = (i % 8, i / 8);
        ex.extend(f32s(texel(img, 0, x, y, 0)));
        ex.extend(f32s(texel(img, 1, x / 2, y / 2, 0)));
        // (x + 0.25, y + 0.75) texels: nearest is texel (x, y)
        ex.extend(f32s(texel(img, 0, x, y, 0)));
        ex.extend([8.0, 8.0, 2.0, 4.0]);
        ex.extend(f32s(texel(img, 0, x / 2 + 3, y / 2 + 2, 0)));
        let (u, v) = ((x as f64 + 0.25) / 8.0, (y as f64 + 0.75) / 8.0);
        let b0 = bilinear(img, 0, u, v);
        let b1 = bilinear(img, 1, u, v);
        fl.extend(f32s(b0));
        fl.extend(f32s(std::array::from_fn(|k| 0.5 * b0[k] + 0.5 * b1[k])));
    }
    vec![
        Expect {
            resource: 2,
            bytes: to_bytes(&ex),
            check: UNORM8,
        },
        Expect {
            resource: 3,
            bytes: to_bytes(&fl),
            check: Check::F32 {
                ulp: 0,
                abs: 3.0 / 256.0,
            },
        },
    ]
}

// ---- img_gather_shadow

fn gather_inputs() -> Inputs {
    let mut r = Rng::new(123);
    let tex = rand_image(&mut r, TexelFormat::Rgba8Unorm, ViewType::D2, [4, 4, 1], 1);
    let depth = Image::from_fn(
        TexelFormat::D32Float,
        ViewType::D2,
        [4, 4, 1],
        1,
        |_, x, y, _| ((x + 4 * y) as f32 / 16.0).to_le_bytes().to_vec(),
    );
    let comb = DescriptorKind::CombinedImageSampler;
    let shadow = Sampler {
        compare: Some(Compare::Less),
        ..Sampler::nearest()
    };
    Inputs {
        groups: [1, 1, 1],
        resources: vec![
            images(0, comb, vec![tex], vec![Sampler::nearest()]),
            images(1, comb, vec![depth], vec![shadow]),
            sb(2, vec![0xcc; 16 * 5 * 16]),
        ],
        push: vec![],
        spec: vec![],
    }
}

fn gather_expect(inp: &Inputs, _: &Env) -> Vec<Expect> {
    let tex = image_of(&inp.resources[0], 0);
    let depth = image_of(&inp.resources[1], 0);
    let mut o: Vec<f32> = Vec::new();
    // the 2x2 footprint from (i0, j0) in gather order (i0,j1) (i1,j1) (i1,j0) (i0,j0)
    let foot = |i0: i64, j0: i64| [(i0, j0 + 1), (i0 + 1, j0 + 1), (i0 + 1, j0), (i0, j0)];
    for i in 0..16i64 {
        let (x, y) = (i % 4, i / 4);
        let r = 0.0625 * i as f64 + 0.03125;
        let less = |d: f64| (r < d) as u32 as f32;
        for comp in [0, 1] {
            o.extend(foot(x, y).map(|(a, b)| texel(tex, 0, a, b, 0)[comp] as f32));
        }
        o.extend(foot(x + 1, y - 1).map(|(a, b)| texel(tex, 0, a, b, 0)[0] as f32));
        o.extend([less(texel(depth, 0, x, y, 0)[0]); 4]);
        o.extend(foot(x, y).map(|(a, b)| less(texel(depth, 0, a, b, 0)[0])));
    }
    vec![Expect {
        resource: 2,
        bytes: to_bytes(&o),
        check: UNORM8,
    }]
}

// ---- img_cube

/// The direction towards the centre of texel (x, y) of face `f` of a 2x2 cube face
/// (Vulkan's cube face selection table: sc, tc and the major axis per face).
fn cube_dir(f: u32, x: u32, y: u32) -> [f32; 3] {
    let sc = x as f32 - 0.5;
    let tc = y as f32 - 0.5;
    match f {
        0 => [1.0, -tc, -sc],
        1 => [-1.0, -tc, sc],
        2 => [sc, 1.0, tc],
        3 => [sc, -1.0, -tc],
        4 => [sc, -tc, 1.0],
        _ => [-sc, -tc, -1.0],
    }
}

fn cube_inputs() -> Inputs {
    let val = |_, x: u32, y: u32, z: u32| ((10 * z + x + 2 * y) as f32).to_le_bytes().to_vec();
    let cube = Image::from_fn(TexelFormat::R32Float, ViewType::Cube, [2, 2, 6], 1, val);
    let cubes = Image::from_fn(
        TexelFormat::R32Float,
        ViewType::CubeArray,
        [2, 2, 12],
        1,
        val,
    );
    let mut dirs = Vec::new();
    for f in 0..6 {
        for t in 0..4 {
            let d = cube_dir(f, t % 2, t / 2);
            dirs.extend([d[0], d[1], d[2], 0.0]);
        }
    }
    let comb = DescriptorKind::CombinedImageSampler;
    Inputs {
        groups: [1, 1, 1],
        resources: vec![
            images(0, comb, vec![cube], vec![Sampler::nearest()]),
            images(1, comb, vec![cubes], vec![Sampler::nearest()]),
            sb(2, to_bytes(&dirs)),
            sb(3, vec![0xcc; 8 * 24]),
        ],
        push: vec![],
        spec: vec![],
    }
}

fn cube_expect(_: &Inputs, _: &Env) -> Vec<Expect> {
    let mut o: Vec<f32> = Vec::new();
    for f in 0..6 {
        for t in 0..4 {
            let (x, y) = (t % 2, t / 2);
            o.push((10 * f + x + 2 * y) as f32);
            o.push((10 * (6 + f) + x + 2 * y) as f32);
        }
    }
    vec![exact(3, to_bytes(&o))]
}

// ---- img_arrays

fn arrays_inputs() -> Inputs {
    let small = |k: u32| {
        Image::from_fn(
            TexelFormat::R32Float,
            ViewType::D2,
            [4, 4, 1],
            1,
            move |_, x, y, _| ((k * 16 + x + 4 * y) as f32).to_le_bytes().to_vec(),
        )
    };
    let layers = Image::from_fn(
        TexelFormat::R32Float,
        ViewType::D2Array,
        [4, 4, 3],
        1,
        |_, x, y, l| ((100 * l + x + 4 * y) as f32).to_le_bytes().to_vec(),
    );
    let plain = Image::from_fn(
        TexelFormat::R32Float,
        ViewType::D2,
        [4, 4, 1],
        1,
        |_, x, y, _| ((1 + (x + y) % 3) as f32).to_le_bytes().to_vec(),
    );
    let point = Sampler {
        address: [Address::Repeat; 3],
        ..Sampler::nearest()
    };
    Inputs {
        groups: [1, 1, 1],
        resources: vec![
            images(
                0,
                DescriptorKind::StorageImage,
                (0..3).map(small).collect(),
                vec![],
            ),
            images(
                1,
                DescriptorKind::CombinedImageSampler,
                vec![layers],
                vec![Sampler::nearest()],
            ),
            images(2, DescriptorKind::SampledImage, vec![plain], vec![]),
            Resource::Sampler {
                set: 0,
                binding: 3,
                samplers: vec![point],
            },
        ],
        push: to_bytes(&[2i32]),
        spec: vec![],
    }
}

fn arrays_expect(inp: &Inputs, _: &Env) -> Vec<Expect> {
    let mut imgs: Vec<Image> = (0..3)
        .map(|k| image_of(&inp.resources[0], k).clone())
        .collect();
    for y in 0..4u32 {
        for x in 0..4u32 {
            let layer = (x & 1) + 1;
            let a = (100 * layer + x + 4 * y) as f32;
            let b = (1 + (x + y) % 3) as f32;
            let at = (4 * (x + 4 * y)) as usize;
            for (k, f) in [(2usize, None), (0, Some(b))] {
                let c = f32::from_le_bytes(imgs[k].data[at..at + 4].try_into().unwrap());
                let v = match f {
                    None => c + a,
                    Some(b) => c * b,
                };
                imgs[k].data[at..at + 4].copy_from_slice(&v.to_le_bytes());
            }
        }
    }
    vec![exact(0, concat(&imgs))]
}

// ---- nonuniform_index

fn nonuniform_inputs() -> Inputs {
    let words = |v: Vec<u32>| to_bytes(&v);
    let src = (0..4u32)
        .map(|k| words((0..16 * (k + 1)).map(|j| 1000 * (k + 1) + 3 * j).collect()))
        .collect();
    let dst = (0..3u32)
        .map(|e| words((0..65 + 3 * e).map(|j| 0xdead_0000 + j).collect()))
        .collect();
    let tex = (0..3u32)
        .map(|e| {
            Image::from_fn(
                TexelFormat::R32Float,
                ViewType::D2,
                [4, 4, 1],
                1,
                move |_, x, y, _| ((10 * (e + 1) + x + 4 * y) as f32).to_le_bytes().to_vec(),
            )
        })
        .collect();
    let scale = (0..2u32)
        .map(|e| words((0..16).map(|j| 2 + 4 * e + j / 4 + 100 * (j % 4)).collect()))
        .collect();
    let counters = (0..2u32)
        .map(|e| {
            Image::from_fn(
                TexelFormat::R32Uint,
                ViewType::D2,
                [2, 1, 1],
                1,
                move |_, x, _, _| (7 * e + x).to_le_bytes().to_vec(),
            )
        })
        .collect();
    let buffers = |binding, kind, elements| Resource::Buffers {
        set: 0,
        binding,
        kind,
        elements,
    };
    Inputs {
        groups: [1, 1, 1],
        resources: vec![
            buffers(0, DescriptorKind::StorageBuffer, src),
            buffers(1, DescriptorKind::StorageBuffer, dst),
            buffers(2, DescriptorKind::UniformBuffer, scale),
            images(
                3,
                DescriptorKind::CombinedImageSampler,
                tex,
                vec![Sampler::nearest(); 3],
            ),
            images(4, DescriptorKind::StorageImage, counters, vec![]),
            sb(5, to_bytes(&[u32::MAX; 64])),
        ],
        push: vec![],
        spec: vec![],
    }
}

fn nonuniform_expect(inp: &Inputs, _: &Env) -> Vec<Expect> {
    let elements = |r: usize| -> Vec<Vec<u32>> {
        match &inp.resources[r] {
            Resource::Buffers { elements, .. } => elements.iter().map(|e| from_bytes(e)).collect(),
            _ => panic!("not a buffer array"),
        }
    };
    let (src, scale) = (elements(0), elements(2));
    let mut dst = elements(1);
    let mut counters: Vec<Image> = (0..2)
        .map(|e| image_of(&inp.resources[4], e).clone())
        .collect();
    let mut out = vec![0u32; 64];
    for i in 0..64u32 {
        let k = ((i * 7 + 3) % 4) as usize;
        let w = ((i + i / 5) % 3) as usize;
        let a = src[k][i as usize % src[k].len()];
        let s = scale[((i >> 1) & 1) as usize][4 * (i % 4) as usize];
        dst[w][i as usize] = a.wrapping_mul(s).wrapping_add(k as u32);
        dst[w][64] = dst[w][64].wrapping_add(a + 1);
        let t = 10 * (i % 3 + 1) + i % 4 + 4 * ((i / 4) % 4);
        let c = &mut counters[k & 1];
        let at = 4 * (i % 2) as usize;
        let v = u32::from_le_bytes(c.data[at..at + 4].try_into().unwrap()) + i;
        c.data[at..at + 4].copy_from_slice(&v.to_le_bytes());
        out[i as usize] = t + 1000 * k as u32;
    }
    let dst = Resource::Buffers {
        set: 0,
        binding: 1,
        kind: DescriptorKind::StorageBuffer,
        elements: dst.iter().map(|e| to_bytes(e)).collect(),
    };
    vec![
        exact(1, dst.data().into_owned()),
        exact(4, concat(&counters)),
        exact(5, to_bytes(&out)),
    ]
}

// ---- img_sparse

fn sparse_inputs() -> Inputs {
    let mut r = Rng::new(127);
    let tex = rand_image(&mut r, TexelFormat::Rgba8Unorm, ViewType::D2, [8, 8, 1], 2);
    let img = rand_image(&mut r, TexelFormat::Rgba8Unorm, ViewType::D2, [8, 8, 1], 1);
    let uimg = rand_image(&mut r, TexelFormat::R32Uint, ViewType::D2, [8, 8, 1], 1);
    Inputs {
        groups: [1, 1, 1],
        resources: vec![
            images(
                0,
                DescriptorKind::CombinedImageSampler,
                vec![tex],
                vec![Sampler::nearest()],
            ),
            images(1, DescriptorKind::StorageImage, vec![img], vec![]),
            images(2, DescriptorKind::StorageImage, vec![uimg], vec![]),
            sb(3, vec![0xcc; 16 * 4 * 64]),
            sb(4, vec![0xcc; 4 * 8 * 64]),
        ],
        push: vec![],
        spec: vec![],
    }
}

/// Every texel is resident: each code is 0 (what a TFE status of 0 reads as) and each
/// texel what the plain read returns.
fn sparse_expect(inp: &Inputs, _: &Env) -> Vec<Expect> {
    let tex = image_of(&inp.resources[0], 0);
    let img = image_of(&inp.resources[1], 0);
    let u = from_bytes::<u32>(&image_of(&inp.resources[2], 0).data);
    let foot = |i0: i64, j0: i64| [(i0, j0 + 1), (i0 + 1, j0 + 1), (i0 + 1, j0), (i0, j0)];
    let (mut t, mut c): (Vec<f32>, Vec<u32>) = (Vec::new(), Vec::new());
    for i in 0..64i64 {
        let (x, y) = (i % 8, i / 8);
        t.extend(f32s(texel(tex, 0, x, y, 0)));
        t.extend(f32s(texel(tex, 0, x, y, 0)));
        t.extend(foot(x, y).map(|(a, b)| texel(tex, 0, a, b, 0)[1] as f32));
        t.extend(f32s(texel(img, 0, x, y, 0)));
        c.extend([0, 0, 0, 0, 0, 0, u[i as usize], 1]);
    }
    vec![
        Expect {
            resource: 3,
            bytes: to_bytes(&t),
            check: UNORM8,
        },
        exact(4, to_bytes(&c)),
    ]
}

// ---- img_d16

/// An RGBA16F image of multiples of 1/8 in [-8, 8): exact in f16 and through the shader's
/// arithmetic.
pub(super) fn rgba16f_image(r: &mut Rng, view: ViewType, size: [u32; 3], levels: u32) -> Image {
    Image::from_fn(
        TexelFormat::Rgba16Float,
        view,
        size,
        levels,
        |_, _, _, _| {
            (0..4)
                .flat_map(|_| f32_to_f16(r.range(-64, 64) as f32 / 8.0).to_le_bytes())
                .collect()
        },
    )
}

fn d16_inputs() -> Inputs {
    let mut r = Rng::new(126);
    let tex = rgba16f_image(&mut r, ViewType::D2, [8, 8, 1], 4);
    let img = rgba16f_image(&mut r, ViewType::D2, [8, 8, 1], 1);
    let layers = rgba16f_image(&mut r, ViewType::D2Array, [8, 8, 2], 1);
    let comb = DescriptorKind::CombinedImageSampler;
    Inputs {
        groups: [1, 1, 1],
        resources: vec![
            images(0, comb, vec![tex], vec![Sampler::nearest()]),
            images(1, DescriptorKind::StorageImage, vec![img], vec![]),
            images(2, comb, vec![layers], vec![Sampler::nearest()]),
            sb(3, vec![0xcc; 16 * 8 * 64]),
        ],
        push: vec![],
        spec: vec![],
    }
}

fn d16_expect(inp: &Inputs, _: &Env) -> Vec<Expect> {
    let tex = image_of(&inp.resources[0], 0);
    let img = image_of(&inp.resources[1], 0);
    let layers = image_of(&inp.resources[2], 0);
    let h = |x: f64| f16_to_f32(f32_to_f16(x as f32)) as f64;
    let mut o: Vec<f32> = Vec::new();
    for i in 0..64i64 {
        let (x, y) = (i % 8, i / 8);
        let t0 = texel(tex, 0, x, y, 0);
        // (x + 0.25, y + 0.75) / 8 at level 1 (4 x 4) and a LOD of 1: texel (x / 2, y / 2)
        let t1 = texel(tex, 1, x / 2, y / 2, 0);
        o.extend(f32s(t0));
        o.extend(f32s(t1));
        o.extend(f32s(t1));
        o.extend(f32s([t0[2], t0[0], 0.0, 1.0]));
        o.extend(f32s(t1));
        o.extend(f32s(t1));
        o.extend(f32s(texel(layers, 0, x, y, (i & 1) as u32)));
        let s = texel(img, 0, x, y, 0);
        o.extend(f32s([s[1], s[3], h(s[0] + s[2]), 0.0]));
    }
    let stored: Vec<u16> = from_bytes::<u16>(&img.data)
        .iter()
        .map(|&v| f32_to_f16(f16_to_f32(v) * 0.5 + 0.25))
        .collect();
    vec![exact(1, to_bytes(&stored)), exact(3, to_bytes(&o))]
}

// ---- img_fold16

fn fold16_inputs() -> Inputs {
    let mut r = Rng::new(127);
    let tex = rgba16f_image(&mut r, ViewType::D2, [8, 8, 1], 4);
    // small values, so that f16 rounding of the filtered result stays far below the
    // filter's tolerance
    let lin = Image::from_fn(
        TexelFormat::Rgba16Float,
        ViewType::D2,
        [8, 8, 1],
        4,
        |_, _, _, _| {
            (0..4)
                .flat_map(|_| f32_to_f16(r.range(-16, 16) as f32 / 8.0).to_le_bytes())
                .collect()
        },
    );
    let img = rgba16f_image(&mut r, ViewType::D2, [8, 8, 1], 1);
    let layers = rgba16f_image(&mut r, ViewType::D2Array, [8, 8, 2], 1);
    let comb = DescriptorKind::CombinedImageSampler;
    Inputs {
        groups: [1, 1, 1],
        resources: vec![
            images(0, comb, vec![tex], vec![Sampler::nearest()]),
            images(1, comb, vec![lin], vec![Sampler::linear()]),
            images(2, DescriptorKind::StorageImage, vec![img], vec![]),
            images(3, comb, vec![layers], vec![Sampler::nearest()]),
            sb(4, vec![0xcc; 16 * 8 * 64]),
            sb(5, vec![0xcc; 16 * 64]),
        ],
        push: vec![],
        spec: vec![],
    }
}

fn fold16_expect(inp: &Inputs, _: &Env) -> Vec<Expect> {
    let tex = image_of(&inp.resources[0], 0);
    let lin = image_of(&inp.resources[1], 0);
    let img = image_of(&inp.resources[2], 0);
    let layers = image_of(&inp.resources[3], 0);
    let mut o: Vec<f32> = Vec::new();
    let mut fo: Vec<f32> = Vec::new();
    for i in 0..64i64 {
        let (x, y) = (i % 8, i / 8);
        let l = (i & 1) as u32;
        let t0 = texel(tex, 0, x, y, 0);
        // (x + 0.25, y + 0.75) / 8 at level 1 (4 x 4): texel (x / 2, y / 2)
        let t1 = texel(tex, 1, x / 2, y / 2, 0);
        o.extend(f32s(t0));
        o.extend(f32s(t1));
        o.extend(f32s(texel(tex, l, x >> l, y >> l, 0)));
        o.extend(f32s([t0[2], t0[0], 0.0, 1.0]));
        o.extend(f32s(t1));
        o.extend(f32s(t1));
        o.extend(f32s(texel(layers, 0, x, y, l)));
        o.extend(f32s(texel(img, 0, x, y, 0)));
        let (u, v) = ((x as f64 + 0.25) / 8.0, (y as f64 + 0.75) / 8.0);
        let (b0, b1) = (bilinear(lin, 0, u, v), bilinear(lin, 1, u, v));
        fo.extend(f32s(std::array::from_fn(|k| 0.5 * b0[k] + 0.5 * b1[k])));
    }
    vec![
        exact(4, to_bytes(&o)),
        Expect {
            resource: 5,
            bytes: to_bytes(&fo),
            check: Check::F32 {
                ulp: 0,
                abs: 3.0 / 256.0,
            },
        },
    ]
}

// ---- img_texel16

fn texel16_inputs() -> Inputs {
    let mut r = Rng::new(128);
    let src: Vec<u16> = (0..64 * 4)
        .map(|_| f32_to_f16(r.range(-64, 64) as f32 / 8.0))
        .collect();
    let img = Image::from_fn(
        TexelFormat::Rgba16Float,
        ViewType::D2,
        [8, 8, 1],
        1,
        |_, _, _, _| vec![0xcc; 8],
    );
    Inputs {
        groups: [1, 1, 1],
        resources: vec![
            Resource::TexelBuffer {
                set: 0,
                binding: 0,
                kind: DescriptorKind::UniformTexelBuffer,
                format: TexelFormat::Rgba16Float,
                data: to_bytes(&src),
            },
            Resource::TexelBuffer {
                set: 0,
                binding: 1,
                kind: DescriptorKind::StorageTexelBuffer,
                format: TexelFormat::Rgba16Float,
                data: vec![0xcc; 8 * 64],
            },
            images(2, DescriptorKind::StorageImage, vec![img], vec![]),
            sb(3, vec![0xcc; 16 * 3 * 64]),
        ],
        push: vec![],
        spec: vec![],
    }
}

fn texel16_expect(inp: &Inputs, _: &Env) -> Vec<Expect> {
    let src = from_bytes::<u16>(data(inp, 0));
    let (mut dst, mut img, mut o) = (Vec::<u16>::new(), vec![0u16; 64 * 4], Vec::<f32>::new());
    for i in 0..64usize {
        let h = &src[4 * (63 - i)..4 * (63 - i) + 4];
        let s: Vec<u16> = h
            .iter()
            .map(|&v| f32_to_f16(f16_to_f32(v) * 0.5 + 0.25))
            .collect();
        dst.extend(&s);
        for k in 0..4 {
            img[4 * i + k] = h[3 - k];
        }
        o.extend(h.iter().map(|&v| f16_to_f32(v)));
        o.extend(s.iter().map(|&v| f16_to_f32(v)));
        o.extend([64.0, 0.0, 0.0, 1.0]);
    }
    vec![
        exact(1, to_bytes(&dst)),
        exact(2, to_bytes(&img)),
        exact(3, to_bytes(&o)),
    ]
}

// ---- img_nsa

fn nsa_inputs() -> Inputs {
    let mut r = Rng::new(130);
    let vol = rand_image(&mut r, TexelFormat::Rgba8Unorm, ViewType::D3, [8, 8, 8], 2);
    let depth = Image::from_fn(
        TexelFormat::D32Float,
        ViewType::D2Array,
        [8, 8, 2],
        1,
        |_, x, y, z| {
            ((x + 8 * y) as f32 / 64.0 + z as f32 / 256.0)
                .to_le_bytes()
                .to_vec()
        },
    );
    let comb = DescriptorKind::CombinedImageSampler;
    let shadow = Sampler {
        compare: Some(Compare::Less),
        ..Sampler::nearest()
    };
    Inputs {
        groups: [1, 1, 1],
        resources: vec![
            images(0, comb, vec![vol], vec![Sampler::nearest()]),
            images(1, comb, vec![depth], vec![shadow]),
            sb(2, vec![0xcc; 16 * 3 * 64]),
        ],
        push: vec![],
        spec: vec![],
    }
}

fn nsa_expect(inp: &Inputs, _: &Env) -> Vec<Expect> {
    let vol = image_of(&inp.resources[0], 0);
    let depth = image_of(&inp.resources[1], 0);
    // texel (x, y, z) of a 3D level, clamped to its edges
    let at3 = |l: u32, [x, y, z]: [i64; 3]| {
        let [w, h, d] = vol.extent(l);
        let c = |v: i64, n: u32| v.clamp(0, n as i64 - 1) as u32;
        let off = vol.texel_offset(l, c(x, w), c(y, h), c(z, d));
        std::array::from_fn::<f32, 4, _>(|k| vol.data[off + k] as f32 / 255.0)
    };
    let mut o: Vec<f32> = Vec::new();
    for i in 0..64i64 {
        let p = [i % 4, (i / 4) % 4, i / 16];
        // rho 1: level 0 at texel 2p; rho 2: level 1 at texel p
        let (l, t) = if i & 1 == 0 {
            (0, p.map(|v| 2 * v))
        } else {
            (1, p)
        };
        o.extend(at3(l, t));
        o.extend(at3(l, [t[0] + 1, t[1], t[2] - 1]));
        let (x, y, layer) = (i % 8, i / 8, (i & 1) as u32);
        let r = ((i * 7) % 64) as f64 / 64.0 + 1.0 / 128.0;
        let less = |x: i64, y: i64| (r < texel(depth, 0, x, y, layer)[0]) as u32 as f32;
        o.extend([less(x, y), less(x - 1, y + 1), 0.0, 1.0]);
    }
    vec![Expect {
        resource: 2,
        bytes: to_bytes(&o),
        check: UNORM8,
    }]
}

pub fn cases() -> Vec<Case> {
    vec![
        case!("img_storage", storage_inputs, storage_expect),
        case!("img_atomics", atomics_inputs, atomics_expect),
        case!("img_atomics64", atomics64_inputs, atomics64_expect),
        case!("img_texel_buffers", texel_inputs, texel_expect),
        case!("img_sample_lod", sample_inputs, sample_expect),
        case!("img_gather_shadow", gather_inputs, gather_expect),
        case!("img_cube", cube_inputs, cube_expect),
        case!("img_arrays", arrays_inputs, arrays_expect),
        case!("img_sparse", sparse_inputs, sparse_expect),
        case!("img_d16", d16_inputs, d16_expect),
        case!("img_fold16", fold16_inputs, fold16_expect),
        case!("img_texel16", texel16_inputs, texel16_expect),
        case!("img_nsa", nsa_inputs, nsa_expect),
        case!("nonuniform_index", nonuniform_inputs, nonuniform_expect),
    ]
}
