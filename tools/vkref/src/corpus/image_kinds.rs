//! Image dimensions, formats and samplers (`img_dims`, `img_unformatted`, `img_unformatted_store`,
//! `img_formats`, `img_samplers`). Expectations follow Vulkan's texel
//! selection, address modes and format conversions (`TexelFormat::decode` /
//! `TexelFormat::encode`). Loads, fetches, point sampling and stores are compared exactly
//! or within the float rounding of a conversion; linear filtering within 3 × 2⁻⁸ when a
//! runner may filter in 8-bit fixed point (lavapipe does for 8-bit formats; the weights
//! used here, 1/4, 1/2 and 3/4, are exact in 8 bits).

use super::images::{concat, image_of, images, rand_image, rgba16f_image};
use super::*;
use crate::images::{Address, Border, Filter, Image, Sampler, TexelFormat, ViewType};

/// Texel (x, y, slice) of `level` as the shader reads it; `None` outside the level.
fn fetch(img: &Image, level: u32, x: i64, y: i64, z: i64) -> Option<[f64; 4]> {
    if level >= img.levels {
        return None;
    }
    let [w, h, d] = img.extent(level);
    if !(0..w as i64).contains(&x) || !(0..h as i64).contains(&y) || !(0..d as i64).contains(&z) {
        return None;
    }
    let at = img.texel_offset(level, x as u32, y as u32, z as u32);
    img.format
        .decode(&img.data[at..at + img.format.bytes() as usize])
}

fn get(img: &Image, level: u32, x: i64, y: i64, z: i64) -> [f64; 4] {
    fetch(img, level, x, y, z).expect("a texel inside the image")
}

/// Vulkan's wrapping of integer texel coordinate `i` in a level `n` texels wide (`None`:
/// the border colour).
fn wrap(a: Address, i: i64, n: i64) -> Option<i64> {
    let mirror = |k: i64| if k >= 0 { k } else { -(1 + k) };
    Some(match a {
        Address::Repeat => i.rem_euclid(n),
        Address::MirroredRepeat => (n - 1) - mirror(i.rem_euclid(2 * n) - n),
        Address::ClampToEdge => i.clamp(0, n - 1),
        Address::ClampToBorder => return (0..n).contains(&i).then_some(i),
        Address::MirrorClampToEdge => mirror(i).clamp(0, n - 1),
    })
}

fn border(b: Border) -> [f64; 4] {
    match b {
        Border::TransparentBlack => [0.0; 4],
        Border::OpaqueBlack => [0.0, 0.0, 0.0, 1.0],
        Border::OpaqueWhite => [1.0; 4],
    }
}

/// `textureLod` at level 0 of a 2D (`uvw.len() == 2`) or 3D image with normalized
/// coordinates, by `s`'s filter (min = mag here) and address modes.
fn sample(img: &Image, s: &Sampler, uvw: &[f64]) -> [f64; 4] {
    let [w, h, d] = img.extent(0);
    let size = [w as i64, h as i64, d as i64];
    // per axis: the taps (texel index or border) and their weights
    let taps: Vec<Vec<(Option<i64>, f64)>> = uvw
        .iter()
        .enumerate()
        .map(|(k, &u)| {
            let t = u * size[k] as f64;
            match s.min {
                Filter::Nearest => vec![(wrap(s.address[k], t.floor() as i64, size[k]), 1.0)],
                Filter::Linear => {
                    let i0 = (t - 0.5).floor();
                    let a = t - 0.5 - i0;
                    let i0 = i0 as i64;
                    vec![
                        (wrap(s.address[k], i0, size[k]), 1.0 - a),
                        (wrap(s.address[k], i0 + 1, size[k]), a),
                    ]
                }
            }
        })
        .collect();
    let mut out = [0.0; 4];
    let zs = taps.get(2).cloned().unwrap_or(vec![(Some(0), 1.0)]);
    for &(x, wx) in &taps[0] {
        for &(y, wy) in &taps[1] {
            for &(z, wz) in &zs {
                let t = match (x, y, z) {
                    (Some(x), Some(y), Some(z)) => get(img, 0, x, y, z),
                    _ => border(s.border),
                };
                for c in 0..4 {
                    out[c] += wx * wy * wz * t[c];
                }
            }
        }
    }
    out
}

/// Stores `v` into texel (x, y) of level 0, slice 0, converted by the image's format.
fn put(img: &mut Image, x: u32, y: u32, v: [f64; 4]) {
    let at = img.texel_offset(0, x, y, 0);
    let b = img.format.encode(v).expect("a format the case stores");
    img.data[at..at + b.len()].copy_from_slice(&b);
}

pub(super) fn f32s(v: &[[f64; 4]]) -> Vec<u8> {
    to_bytes(&v.iter().flatten().map(|&x| x as f32).collect::<Vec<f32>>())
}

fn u32s(v: &[[f64; 4]]) -> Vec<u8> {
    to_bytes(&v.iter().flatten().map(|&x| x as u32).collect::<Vec<u32>>())
}

/// Normalized texels read as floats: within 2 ULP of the correctly rounded conversion
/// (lavapipe multiplies by approximate reciprocals), or 2⁻²⁰ near zero.
pub(super) const CONVERTED: Check = Check::F32 {
    ulp: 2,
    abs: 1.0 / 1048576.0,
};

/// Linear filtering: 8-bit filtering precision (see the module doc).
const FILTERED: Check = Check::F32 {
    ulp: 0,
    abs: 3.0 / 256.0,
};

pub(super) fn sampled(
    binding: u32,
    kind: DescriptorKind,
    imgs: Vec<Image>,
    s: Sampler,
) -> Resource {
    let n = imgs.len();
    images(binding, kind, imgs, vec![s; n])
}

// ---- img_dims

/// R32F texel value of (level, x, y, slice): all different and exact.
fn dims_value(l: u32, x: u32, y: u32, z: u32) -> Vec<u8> {
    ((1000 * l + 100 * z + 10 * y + x) as f32 + 0.25)
        .to_le_bytes()
        .to_vec()
}

fn r32f(view: ViewType, size: [u32; 3], levels: u32) -> Image {
    Image::from_fn(TexelFormat::R32Float, view, size, levels, dims_value)
}

fn dims_inputs() -> Inputs {
    let comb = DescriptorKind::CombinedImageSampler;
    let st = DescriptorKind::StorageImage;
    let one = |b, i| sampled(b, comb, vec![i], Sampler::nearest());
    Inputs {
        groups: [1, 1, 1],
        resources: vec![
            one(0, r32f(ViewType::D1, [8, 1, 1], 2)),
            one(1, r32f(ViewType::D1Array, [8, 1, 3], 2)),
            one(2, r32f(ViewType::D3, [4, 4, 4], 2)),
            one(3, r32f(ViewType::CubeArray, [4, 4, 12], 2)),
            images(4, st, vec![r32f(ViewType::D1, [64, 1, 1], 1)], vec![]),
            images(5, st, vec![r32f(ViewType::D1Array, [8, 1, 8], 1)], vec![]),
            images(6, st, vec![r32f(ViewType::D3, [4, 4, 4], 1)], vec![]),
            images(
                7,
                st,
                vec![r32f(ViewType::CubeArray, [2, 2, 18], 1)],
                vec![],
            ),
            sb(8, vec![0xcc; 16 * (64 * 6 + 8)]),
        ],
        push: vec![],
        spec: vec![],
    }
}

fn dims_expect(inp: &Inputs, _: &Env) -> Vec<Expect> {
    let img = |r: usize| image_of(&inp.resources[r], 0);
    let x1 = |r: usize, l: u32, x: i64, y: i64, z: i64| get(img(r), l, x, y, z)[0];
    let mut o: Vec<[f64; 4]> = Vec::new();
    let mut stored: Vec<Image> = (4..8).map(|r| img(r).clone()).collect();
    for i in 0..64i64 {
        let (x, l, z) = (i % 8, (i / 8) % 3, i / 16);
        o.push([
            x1(0, 0, x, 0, 0),
            x1(0, 1, x / 2, 0, 0),
            x1(0, 0, x, 0, 0),
            x1(0, 1, x / 2, 0, 0),
        ]);
        o.push([
            x1(1, 0, x, 0, l),
            x1(1, 1, x / 2, 0, l),
            x1(1, 0, x, 0, l),
            x1(1, 1, x / 2, 0, l),
        ]);
        let p3 = [x % 4, x / 4 + 2 * (i / 32), z];
        o.push([
            x1(2, 0, p3[0], p3[1], p3[2]),
            x1(2, 1, p3[0] / 2, p3[1] / 2, p3[2] / 2),
            x1(2, 0, p3[0], p3[1], p3[2]),
            x1(2, 1, p3[0] / 2, p3[1] / 2, p3[2] / 2),
        ]);
        let (f, a, b, cube) = (i % 6, (i / 6) % 4, (i / 24) % 4, i / 32);
        let slice = 6 * cube + f;
        o.push([
            x1(3, 0, a, b, slice),
            x1(3, 1, a / 2, b / 2, slice),
            x1(3, 0, a, b, slice),
            0.0,
        ]);
        let s = [
            x1(4, 0, i, 0, 0),
            x1(5, 0, x, 0, i / 8),
            x1(6, 0, i % 4, (i / 4) % 4, i / 16),
            x1(7, 0, i % 2, (i / 2) % 2, i / 4),
        ];
        o.push(s);
        o.push([f as f64, a as f64, b as f64, cube as f64]);
        let put = |img: &mut Image, x: i64, y: i64, z: i64, v: f64| {
            let at = img.texel_offset(0, x as u32, y as u32, z as u32);
            img.data[at..at + 4].copy_from_slice(&(v as f32).to_le_bytes());
        };
        put(&mut stored[0], i, 0, 0, s[0] * 2.0 + 1.0);
        put(&mut stored[1], x, 0, i / 8, s[1] - 3.0);
        put(&mut stored[2], i % 4, (i / 4) % 4, i / 16, -s[2]);
        put(&mut stored[3], i % 2, (i / 2) % 2, i / 4, s[3] + 0.5);
    }
    let sizes: [[i32; 4]; 8] = [
        [8, 4, 0, 0],
        [8, 3, 4, 3],
        [4, 4, 4, 0],
        [2, 2, 2, 0],
        [4, 4, 2, 0],
        [2, 2, 2, 0],
        [64, 8, 8, 0],
        [4, 4, 4, 2],
    ];
    let mut out = f32s(&o);
    out.extend(to_bytes(&sizes.concat()));
    let mut ex = vec![exact(8, out)];
    for (k, img) in stored.into_iter().enumerate() {
        ex.push(exact(4 + k, img.data));
    }
    ex
}

// ---- img_unformatted

const UNFORMATTED_F: [TexelFormat; 6] = [
    TexelFormat::Rgba8Unorm,
    TexelFormat::Rgba8Snorm,
    TexelFormat::Rgba16Float,
    TexelFormat::A2b10g10r10Unorm,
    TexelFormat::R32Float,
    TexelFormat::Rg16Float,
];
const UNFORMATTED_U: [TexelFormat; 3] = [
    TexelFormat::R32Uint,
    TexelFormat::Rgba8Uint,
    TexelFormat::Rgba32Uint,
];

/// Random texels of `f` that are exact through the shader (no NaN or infinity).
fn random_texels(r: &mut Rng, f: TexelFormat, size: [u32; 3]) -> Image {
    match f {
        TexelFormat::Rgba16Float => rgba16f_image(r, ViewType::D2, size, 1),
        TexelFormat::Rg16Float => Image::from_fn(f, ViewType::D2, size, 1, |_, _, _, _| {
            (0..2)
                .flat_map(|_| f32_to_f16(r.range(-64, 64) as f32 / 8.0).to_le_bytes())
                .collect()
        }),
        TexelFormat::R32Float => Image::from_fn(f, ViewType::D2, size, 1, |_, _, _, _| {
            r.f32_bits(20, 20).to_le_bytes().to_vec()
        }),
        TexelFormat::B10g11r11Ufloat => Image::from_fn(f, ViewType::D2, size, 1, |_, _, _, _| {
            // exponents below 15: values under 1 (denormals included)
            let mut c = |bits: u32| (r.range(0, 14) as u32) << bits | r.u32() & ((1 << bits) - 1);
            (c(6) | c(6) << 11 | c(5) << 22).to_le_bytes().to_vec()
        }),
        f => rand_image(r, f, ViewType::D2, size, 1),
    }
}

fn unformatted_inputs() -> Inputs {
    let mut r = Rng::new(130);
    let sz = [8, 4, 1];
    let st = DescriptorKind::StorageImage;
    let zero = |f: TexelFormat| {
        Image::from_fn(f, ViewType::D2, sz, 1, |_, _, _, _| {
            vec![0x55; f.bytes() as usize]
        })
    };
    let fimg = UNFORMATTED_F
        .iter()
        .map(|&f| random_texels(&mut r, f, sz))
        .collect();
    // RGBA32UI read and written in place is left out: the emulator ran it with z and w
    // unwritten (open; img_unformatted_store stores RGBA32UI correctly)
    let uimg = UNFORMATTED_U[..2]
        .iter()
        .map(|&f| random_texels(&mut r, f, sz))
        .collect();
    Inputs {
        groups: [1, 1, 1],
        resources: vec![
            images(0, st, fimg, vec![]),
            images(1, st, UNFORMATTED_F.map(zero).to_vec(), vec![]),
            images(2, st, uimg, vec![]),
            sb(3, vec![0xcc; 16 * 6 * 32]),
            sb(4, vec![0xcc; 16 * 2 * 32]),
        ],
        push: vec![],
        spec: vec![],
    }
}

fn unformatted_expect(inp: &Inputs, _: &Env) -> Vec<Expect> {
    let mut fimg: Vec<Image> = (0..6)
        .map(|k| image_of(&inp.resources[0], k).clone())
        .collect();
    let mut fout: Vec<Image> = (0..6)
        .map(|k| image_of(&inp.resources[1], k).clone())
        .collect();
    let mut uimg: Vec<Image> = (0..2)
        .map(|k| image_of(&inp.resources[2], k).clone())
        .collect();
    let (mut floats, mut uints) = (vec![[0.0; 4]; 6 * 32], vec![[0.0; 4]; 2 * 32]);
    for i in 0..32u32 {
        let (x, y) = (i % 8, i / 8);
        for k in 0..6 {
            let v = get(&fimg[k], 0, x as i64, y as i64, 0);
            floats[32 * k + i as usize] = v;
            put(&mut fimg[k], x, y, [v[2], v[1], v[0], v[3]]);
            let b = i + k as u32;
            put(
                &mut fout[k],
                x,
                y,
                [0, 1, 2, 3].map(|s| ((b >> s) & 1) as f64),
            );
        }
        for k in 0..2 {
            let v = get(&uimg[k], 0, x as i64, y as i64, 0);
            uints[32 * k + i as usize] = v;
            let p = [v[1], v[0], v[3], v[2]].map(|c| (c as u32 ^ i) as f64);
            put(&mut uimg[k], x, y, p);
        }
    }
    vec![
        exact(0, concat(&fimg)),
        exact(1, concat(&fout)),
        exact(2, concat(&uimg)),
        Expect {
            resource: 3,
            bytes: f32s(&floats),
            check: CONVERTED,
        },
        exact(4, u32s(&uints)),
    ]
}

// ---- img_unformatted_store

fn unformatted_store_inputs() -> Inputs {
    let sz = [8, 4, 1];
    let st = DescriptorKind::StorageImage;
    let fill = |f: TexelFormat| {
        Image::from_fn(f, ViewType::D2, sz, 1, |_, _, _, _| {
            vec![0x55; f.bytes() as usize]
        })
    };
    Inputs {
        groups: [1, 1, 1],
        resources: vec![
            images(0, st, UNFORMATTED_F.map(fill).to_vec(), vec![]),
            images(1, st, UNFORMATTED_U.map(fill).to_vec(), vec![]),
        ],
        push: vec![],
        spec: vec![],
    }
}

fn unformatted_store_expect(inp: &Inputs, _: &Env) -> Vec<Expect> {
    let mut f: Vec<Image> = (0..6)
        .map(|k| image_of(&inp.resources[0], k).clone())
        .collect();
    let mut u: Vec<Image> = (0..3)
        .map(|k| image_of(&inp.resources[1], k).clone())
        .collect();
    for i in 0..32u32 {
        let (x, y) = (i % 8, i / 8);
        for (k, img) in f.iter_mut().enumerate() {
            let b = i + k as u32;
            let s = if b & 16 != 0 { -1.0 } else { 1.0 };
            put(img, x, y, [0, 1, 2, 3].map(|j| s * ((b >> j) & 1) as f64));
        }
        for (k, img) in u.iter_mut().enumerate() {
            let v = [i, 3 * i, 255 - i, 7 * k as u32 + i];
            put(img, x, y, v.map(|c| c as f64));
        }
    }
    vec![exact(0, concat(&f)), exact(1, concat(&u))]
}

// ---- img_formats

const SAMPLED_FORMATS: [TexelFormat; 5] = [
    TexelFormat::A2b10g10r10Unorm,
    TexelFormat::B10g11r11Ufloat,
    TexelFormat::R5g6b5Unorm,
    TexelFormat::Rgba8Snorm,
    TexelFormat::Rgba16Snorm,
];

/// sRGB decoding: lavapipe approximates the curve (up to 1.2e-3 off on these texels);
/// AMD hardware and the emulator decode 8-bit sRGB exactly to f32 precision.
const SRGB: Check = Check::F32 {
    ulp: 0,
    abs: 1.0 / 512.0,
};

fn formats_inputs() -> Inputs {
    let mut r = Rng::new(131);
    let sz = [4, 4, 1];
    let comb = DescriptorKind::CombinedImageSampler;
    let tex = SAMPLED_FORMATS
        .iter()
        .map(|&f| random_texels(&mut r, f, sz))
        .collect();
    let utex = random_texels(&mut r, TexelFormat::A2b10g10r10Uint, sz);
    let srgb = random_texels(&mut r, TexelFormat::Rgba8Srgb, sz);
    Inputs {
        groups: [1, 1, 1],
        resources: vec![
            sampled(0, comb, tex, Sampler::linear()),
            sampled(1, comb, vec![utex], Sampler::nearest()),
            sampled(2, comb, vec![srgb], Sampler::linear()),
            sb(3, vec![0xcc; 16 * 16 * 5]),
            sb(4, vec![0xcc; 16 * 16 * 5]),
            sb(5, vec![0xcc; 16 * 16]),
            sb(6, vec![0xcc; 16 * 16 * 2]),
        ],
        push: vec![],
        spec: vec![],
    }
}

/// texelFetch of texel i of a 4 x 4 image, and the bilinear sample half-way between it and
/// its neighbours to the right and below.
fn fetch_and_filter(img: &Image) -> (Vec<[f64; 4]>, Vec<[f64; 4]>) {
    (0..16i64)
        .map(|i| {
            let (x, y) = (i % 4, i / 4);
            let uv = [(x + 1) as f64 / 4.0, (y + 1) as f64 / 4.0];
            (get(img, 0, x, y, 0), sample(img, &Sampler::linear(), &uv))
        })
        .unzip()
}

fn formats_expect(inp: &Inputs, _: &Env) -> Vec<Expect> {
    let (mut fetched, mut filtered) = (Vec::new(), Vec::new());
    for k in 0..5 {
        let (f, l) = fetch_and_filter(image_of(&inp.resources[0], k));
        fetched.extend(f);
        filtered.extend(l);
    }
    let utex = image_of(&inp.resources[1], 0);
    let u: Vec<[f64; 4]> = (0..16).map(|i| get(utex, 0, i % 4, i / 4, 0)).collect();
    let (sf, sl) = fetch_and_filter(image_of(&inp.resources[2], 0));
    vec![
        Expect {
            resource: 3,
            bytes: f32s(&fetched),
            check: CONVERTED,
        },
        Expect {
            resource: 4,
            bytes: f32s(&filtered),
            check: FILTERED,
        },
        exact(5, u32s(&u)),
        Expect {
            resource: 6,
            bytes: f32s(&[sf, sl].concat()),
            check: SRGB,
        },
    ]
}

// ---- img_samplers

const MODES: [(Address, Border); 7] = [
    (Address::Repeat, Border::TransparentBlack),
    (Address::MirroredRepeat, Border::TransparentBlack),
    (Address::ClampToEdge, Border::TransparentBlack),
    (Address::ClampToBorder, Border::TransparentBlack),
    (Address::ClampToBorder, Border::OpaqueBlack),
    (Address::ClampToBorder, Border::OpaqueWhite),
    (Address::MirrorClampToEdge, Border::TransparentBlack),
];

fn mode_sampler(m: usize, linear: bool) -> Sampler {
    let (a, b) = MODES[m];
    Sampler {
        address: [a; 3],
        border: b,
        ..if linear {
            Sampler::linear()
        } else {
            Sampler::nearest()
        }
    }
}

fn samplers_inputs() -> Inputs {
    let mut r = Rng::new(132);
    let t2 = rand_image(&mut r, TexelFormat::Rgba8Unorm, ViewType::D2, [4, 4, 1], 1);
    let t3 = rand_image(&mut r, TexelFormat::Rgba8Unorm, ViewType::D3, [4, 4, 4], 1);
    let smp = (0..14).map(|k| mode_sampler(k % 7, k >= 7)).collect();
    let sampled = DescriptorKind::SampledImage;
    Inputs {
        groups: [1, 1, 1],
        resources: vec![
            images(0, sampled, vec![t2], vec![]),
            images(1, sampled, vec![t3], vec![]),
            Resource::Sampler {
                set: 0,
                binding: 2,
                samplers: smp,
            },
            sb(3, vec![0xcc; 16 * 64 * 7 * 2]),
            sb(4, vec![0xcc; 16 * 64 * 7 * 2]),
        ],
        push: vec![],
        spec: vec![],
    }
}

fn samplers_expect(inp: &Inputs, _: &Env) -> Vec<Expect> {
    let (t2, t3) = (
        image_of(&inp.resources[0], 0),
        image_of(&inp.resources[1], 0),
    );
    let mut near = vec![[0.0; 4]; 64 * 14];
    let mut lin = vec![[0.0; 4]; 64 * 14];
    for i in 0..64u32 {
        let c = [
            (i % 16) as f64 - 4.5,
            (i / 16) as f64 * 3.0 - 3.5,
            (i % 5) as f64 * 2.0 - 3.5,
        ];
        let d = [c[0] + 0.25, c[1] - 0.25, c[2] + 0.25];
        let n = |v: [f64; 3]| v.map(|x| x / 4.0);
        for m in 0..7 {
            let o = 64 * m + i as usize;
            near[o] = sample(t2, &mode_sampler(m, false), &n(c)[..2]);
            near[64 * 7 + o] = sample(t3, &mode_sampler(m, false), &n(c));
            lin[o] = sample(t2, &mode_sampler(m, true), &n(d)[..2]);
            lin[64 * 7 + o] = sample(t3, &mode_sampler(m, true), &n(d));
        }
    }
    vec![
        Expect {
            resource: 3,
            bytes: f32s(&near),
            check: CONVERTED,
        },
        Expect {
            resource: 4,
            bytes: f32s(&lin),
            check: FILTERED,
        },
    ]
}

pub fn cases() -> Vec<Case> {
    vec![
        case!("img_dims", dims_inputs, dims_expect),
        case!("img_unformatted", unformatted_inputs, unformatted_expect),
        case!(
            "img_unformatted_store",
            unformatted_store_inputs,
            unformatted_store_expect
        ),
        case!("img_formats", formats_inputs, formats_expect),
        case!("img_samplers", samplers_inputs, samplers_expect),
    ]
}
