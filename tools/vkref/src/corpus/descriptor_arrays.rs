//! Runtime-sized descriptor arrays (`desc_runtime_*`): `RuntimeDescriptorArray` bindings of
//! combined image samplers, sampled images, storage buffers and storage images, each the
//! last binding of its set, indexed by constants, by a dynamically uniform push constant
//! and per invocation (`nonuniformEXT`). The harnesses bind as many elements as the
//! resource lists; every expectation is exact.

use super::images::{concat, image_of};
use super::*;
use crate::images::{Image, Sampler, TexelFormat, ViewType};

fn image_array(
    set: u32,
    binding: u32,
    kind: DescriptorKind,
    images: Vec<Image>,
    samplers: Vec<Sampler>,
) -> Resource {
    Resource::Image {
        set,
        binding,
        kind,
        images,
        samplers,
    }
}

fn buffer_array(set: u32, binding: u32, elements: Vec<Vec<u32>>) -> Resource {
    Resource::Buffers {
        set,
        binding,
        kind: DescriptorKind::StorageBuffer,
        elements: elements.iter().map(|e| to_bytes(e)).collect(),
    }
}

fn elements(r: &Resource) -> Vec<Vec<u32>> {
    match r {
        Resource::Buffers { elements, .. } => elements.iter().map(|e| from_bytes(e)).collect(),
        _ => panic!("not a buffer array"),
    }
}

/// R32F images whose texel (x, y) of element `e` is 10 (e + 1) + x + 4 y.
fn r32f_numbered(e: u32, size: [u32; 3]) -> Image {
    Image::from_fn(
        TexelFormat::R32Float,
        ViewType::D2,
        size,
        1,
        move |_, x, y, _| ((10 * (e + 1) + x + 4 * y) as f32).to_le_bytes().to_vec(),
    )
}

fn r32ui_numbered(e: u32, size: [u32; 3]) -> Image {
    Image::from_fn(
        TexelFormat::R32Uint,
        ViewType::D2,
        size,
        1,
        move |_, x, y, _| (100 * e + x + size[0] * y).to_le_bytes().to_vec(),
    )
}

/// What a `textureLod` at the centre of texel (i % 4, (i / 4) % 4) reads from
/// [`r32f_numbered`] element `e`.
fn numbered_at(e: u32, i: u32) -> u32 {
    10 * (e + 1) + i % 4 + 4 * ((i / 4) % 4)
}

// ---- desc_runtime_arrays

/// Push constants k = 3 (the element written), m = 0.
const K: u32 = 3;
const M: u32 = 0;

fn runtime_inputs() -> Inputs {
    // element 0 is 8 x 2 (its size is queried), the others 4 x 4
    let tex = (0..4)
        .map(|e| r32f_numbered(e, if e == 0 { [8, 2, 1] } else { [4, 4, 1] }))
        .collect();
    let bufs = (0..4u32)
        .map(|e| (0..64).map(|j| 1000 * (e + 1) + 5 * j).collect())
        .collect();
    let imgs = (0..4).map(|e| r32ui_numbered(e, [2, 1, 1])).collect();
    let comb = DescriptorKind::CombinedImageSampler;
    Inputs {
        groups: [1, 1, 1],
        resources: vec![
            sb(0, vec![0xcc; 16 * 64]),
            image_array(0, 1, comb, tex, vec![Sampler::nearest(); 4]),
            buffer_array(1, 0, bufs),
            image_array(2, 0, DescriptorKind::StorageImage, imgs, vec![]),
        ],
        push: to_bytes(&[K, M]),
        spec: vec![],
    }
}

fn runtime_expect(inp: &Inputs, _: &Env) -> Vec<Expect> {
    let mut bufs = elements(&inp.resources[2]);
    let mut imgs: Vec<Image> = (0..4)
        .map(|e| image_of(&inp.resources[3], e).clone())
        .collect();
    let mut out = Vec::new();
    for i in 0..64u32 {
        let a = numbered_at(2, i);
        let b = numbered_at(K, i);
        let c = bufs[1][(i % 16) as usize] + bufs[M as usize][(i % 8) as usize] * 3;
        // imgs[0] (element 0 of r32ui_numbered): texel x holds x
        let d = i % 2;
        out.extend([a + 1000 * b, c, d, 8 * 100 + 2]);
    }
    for i in 0..64u32 {
        bufs[K as usize][i as usize] = numbered_at(2, i) * 7 + i;
        let at = 4 * (i % 2) as usize;
        let t = &mut imgs[K as usize].data[at..at + 4];
        let v = u32::from_le_bytes(t.try_into().unwrap()) + i + 1;
        t.copy_from_slice(&v.to_le_bytes());
    }
    let bufs = Resource::Buffers {
        set: 1,
        binding: 0,
        kind: DescriptorKind::StorageBuffer,
        elements: bufs.iter().map(|e| to_bytes(e)).collect(),
    };
    vec![
        exact(0, to_bytes(&out)),
        exact(2, bufs.data().into_owned()),
        exact(3, concat(&imgs)),
    ]
}

// ---- desc_runtime_nonuniform

fn nonuniform_inputs() -> Inputs {
    let tex = (0..3).map(|e| r32f_numbered(e, [4, 4, 1])).collect();
    let bufs = (0..4u32)
        .map(|e| {
            let mut v: Vec<u32> = (0..64).map(|j| 1000 * (e + 1) + 3 * j).collect();
            v.push(0);
            v
        })
        .collect();
    let imgs = (0..3).map(|e| r32ui_numbered(e, [8, 8, 1])).collect();
    Inputs {
        groups: [1, 1, 1],
        resources: vec![
            sb(0, vec![0xcc; 16 * 64]),
            Resource::Sampler {
                set: 0,
                binding: 1,
                samplers: vec![Sampler::nearest()],
            },
            image_array(0, 2, DescriptorKind::SampledImage, tex, vec![]),
            buffer_array(1, 0, bufs),
            image_array(2, 0, DescriptorKind::StorageImage, imgs, vec![]),
        ],
        push: vec![],
        spec: vec![],
    }
}

fn nonuniform_expect(inp: &Inputs, _: &Env) -> Vec<Expect> {
    let mut bufs = elements(&inp.resources[3]);
    let mut imgs: Vec<Vec<u32>> = (0..3)
        .map(|e| from_bytes(&image_of(&inp.resources[4], e).data))
        .collect();
    let mut out = Vec::new();
    for i in 0..64u32 {
        let t = (i * 5 + 1) % 3;
        let k = ((i + i / 3) % 4) as usize;
        let m = ((i * 3) % 2 + i / 32) as usize;
        let a = numbered_at(t, i);
        let b = bufs[k][i as usize];
        bufs[k][i as usize] = b * 3 + a;
        bufs[k][64] += i + 1;
        let c = imgs[m][i as usize];
        imgs[m][i as usize] = c + a * 16 + k as u32;
        out.extend([a, b, c, t + 4 * k as u32 + 16 * m as u32]);
    }
    let bufs = Resource::Buffers {
        set: 1,
        binding: 0,
        kind: DescriptorKind::StorageBuffer,
        elements: bufs.iter().map(|e| to_bytes(e)).collect(),
    };
    vec![
        exact(0, to_bytes(&out)),
        exact(3, bufs.data().into_owned()),
        exact(4, imgs.iter().flat_map(|v| to_bytes(v)).collect()),
    ]
}

pub fn cases() -> Vec<Case> {
    vec![
        case!("desc_runtime_arrays", runtime_inputs, runtime_expect),
        case!(
            "desc_runtime_nonuniform",
            nonuniform_inputs,
            nonuniform_expect
        ),
    ]
}
