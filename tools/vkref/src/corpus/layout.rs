//! Memory-layout and parameter cases: std430 and std140 blocks, row- and column-major
//! matrices, push constants, specialization constants (values and workgroup size), vectors
//! and a dynamically indexed private array. The expectations read and write the buffers at
//! byte offsets computed by hand from the std140/std430 rules (spelled out beside each
//! case), not from any reflection of the shader.

use super::*;

fn f(b: &[u8], o: usize) -> f32 {
    at::<f32>(b, o)
}

fn small(r: &mut Rng, m: i64) -> f32 {
    r.range(-m, m) as f32
}

// std430 Item (128 bytes): pos vec3 @0, w @12, id ivec2 @16, s @24, flags @28, m mat4 @32
// (column c at 32+16c), uv vec2 @96, extra[3] @104 (stride 4). Out (64 bytes): a vec3 @0,
// b @12, c vec4 @16, d vec2 @32, e[2] @40, f vec3 @48.
fn std430_inputs() -> Inputs {
    let mut r = Rng::new(20);
    let mut items = Vec::new();
    for _ in 0..64 {
        let mut it = vec![0u8; 128];
        for k in 0..3 {
            put_at(&mut it, 4 * k, small(&mut r, 8));
        }
        put_at(&mut it, 12, small(&mut r, 4));
        put_at(&mut it, 16, r.range(-100, 100) as i32);
        put_at(&mut it, 20, r.range(-100, 100) as i32);
        put_at(&mut it, 24, small(&mut r, 50));
        put_at(&mut it, 28, r.u32());
        for k in 0..16 {
            put_at(&mut it, 32 + 4 * k, small(&mut r, 8));
        }
        for k in 0..5 {
            put_at(&mut it, 96 + 4 * k, small(&mut r, 20));
        }
        items.extend(it);
    }
    Inputs {
        groups: [2, 1, 1],
        resources: vec![sb(0, items), sb(1, vec![0; 64 * 64])],
        push: vec![],
        spec: vec![],
    }
}

fn std430_expect(inp: &Inputs, _: &Env) -> Vec<Expect> {
    let mut out = Vec::new();
    for it in data(inp, 0).chunks(128) {
        let pos = [f(it, 0), f(it, 4), f(it, 8)];
        let w = f(it, 12);
        let id = [at::<i32>(it, 16), at::<i32>(it, 20)];
        let m = |c: usize, r: usize| f(it, 32 + 16 * c + 4 * r);
        let mut o = vec![0u8; 64];
        let a = [
            pos[0] * w + id[0] as f32,
            pos[1] * w + id[1] as f32,
            pos[2] * w + f(it, 24),
        ];
        for (k, v) in a.iter().enumerate() {
            put_at(&mut o, 4 * k, *v);
        }
        put_at(&mut o, 12, at::<u32>(it, 28) ^ id[0] as u32);
        for r in 0..4 {
            let v = m(0, r) * pos[0] + m(1, r) * pos[1] + m(2, r) * pos[2] + m(3, r);
            put_at(&mut o, 16 + 4 * r, v);
        }
        put_at(&mut o, 32, f(it, 100) - f(it, 104));
        put_at(&mut o, 36, f(it, 96) - f(it, 112));
        put_at(&mut o, 40, f(it, 108) * 2.0);
        put_at(&mut o, 44, m(2, 1));
        let fz = [m(3, 0) + pos[2], m(3, 1) + pos[0], m(3, 2) + pos[1]];
        for (k, v) in fz.iter().enumerate() {
            put_at(&mut o, 48 + 4 * k, *v);
        }
        out.extend(o);
    }
    vec![exact(1, out)]
}

// std140 U: f[4] @0 (stride 16), v vec3 @64, g @76, m3 @80 (columns at 80, 96, 112),
// iv ivec2 @128, arr[2] vec2 @144 (stride 16), scale @176; 180 bytes.
fn std140_inputs() -> Inputs {
    let mut r = Rng::new(21);
    let mut u = vec![0u8; 192];
    for k in 0..4 {
        put_at(&mut u, 16 * k, small(&mut r, 9));
    }
    for k in 0..3 {
        put_at(&mut u, 64 + 4 * k, small(&mut r, 8));
    }
    put_at(&mut u, 76, small(&mut r, 5));
    for c in 0..3 {
        for row in 0..3 {
            put_at(&mut u, 80 + 16 * c + 4 * row, small(&mut r, 8));
        }
        // Poison the std140 padding word of each column: the shader must not read it.
        put_at(&mut u, 80 + 16 * c + 12, 1.0e9f32);
    }
    put_at(&mut u, 128, 3i32);
    put_at(&mut u, 132, -11i32);
    for k in 0..2 {
        put_at(&mut u, 144 + 16 * k, small(&mut r, 7));
        put_at(&mut u, 148 + 16 * k, small(&mut r, 7));
    }
    put_at(&mut u, 176, 4u32);
    Inputs {
        groups: [1, 1, 1],
        resources: vec![ub(0, u), sb(1, vec![0; 64 * 16])],
        push: vec![],
        spec: vec![],
    }
}

fn std140_expect(inp: &Inputs, _: &Env) -> Vec<Expect> {
    let u = data(inp, 0);
    let mut o = Vec::new();
    for i in 0..64usize {
        let t = i as f32;
        let vt = [f(u, 64) + t, f(u, 68) + t, f(u, 72) + t];
        let mut r = [0f32; 3];
        for (row, rv) in r.iter_mut().enumerate() {
            *rv = (0..3).map(|c| f(u, 80 + 16 * c + 4 * row) * vt[c]).sum();
        }
        let scale = at::<u32>(u, 176) as f32;
        let arr = |k: usize| [f(u, 144 + 16 * k), f(u, 148 + 16 * k)];
        let (a0, a1) = (arr(i & 1), arr((i + 1) & 1));
        let w = f(u, 16 * (i & 3)) * f(u, 76)
            + (at::<i32>(u, 128) * i as i32 - at::<i32>(u, 132)) as f32;
        o.extend([
            r[0] + a0[0] * scale,
            r[1] + a0[1] * scale,
            r[2] + a1[0] * scale,
            w + a1[1] * scale,
        ]);
    }
    vec![exact(1, to_bytes(&o))]
}

// std430 M: R row-major mat4 @0 ((row r, col c) at 16r+4c), C column-major mat4 @64
// (at 64+16c+4r), R23 row-major mat2x3 @128 (3 rows of vec2: at 128+8r+4c), R3 row-major
// mat3 @160 (rows of vec3 with 16-byte stride: at 160+16r+4c); 208 bytes.
fn row_major_inputs() -> Inputs {
    let mut r = Rng::new(22);
    let mut m = vec![0u8; 208];
    for k in 0..52 {
        put_at(&mut m, 4 * k, small(&mut r, 6));
    }
    let v: Vec<f32> = (0..64 * 4).map(|_| small(&mut r, 9)).collect();
    Inputs {
        groups: [1, 1, 1],
        resources: vec![sb(0, m), sb(1, to_bytes(&v)), sb(2, vec![0; 64 * 4 * 16])],
        push: vec![],
        spec: vec![],
    }
}

fn row_major_expect(inp: &Inputs, _: &Env) -> Vec<Expect> {
    let m = data(inp, 0);
    let rm = |r: usize, c: usize| f(m, 16 * r + 4 * c);
    let cm = |r: usize, c: usize| f(m, 64 + 16 * c + 4 * r);
    let r23 = |r: usize, c: usize| f(m, 128 + 8 * r + 4 * c);
    let r3 = |r: usize, c: usize| f(m, 160 + 16 * r + 4 * c);
    let v = from_bytes::<f32>(data(inp, 1));
    let mut o = Vec::new();
    for x in v.chunks(4) {
        o.extend((0..4).map(|r| (0..4).map(|c| rm(r, c) * x[c]).sum::<f32>()));
        o.extend((0..4).map(|c| (0..4).map(|r| x[r] * cm(r, c)).sum::<f32>()));
        o.extend((0..3).map(|r| r23(r, 0) * x[0] + r23(r, 1) * x[1]));
        o.push(r23(2, 1));
        o.extend((0..3).map(|r| (0..3).map(|c| r3(r, c) * x[1 + c]).sum::<f32>()));
        o.push(rm(2, 1));
    }
    vec![exact(2, to_bytes(&o))]
}

// Push block (std430): n @0, scale @4, off ivec2 @8, color vec4 @16, mask @32; 36 bytes.
fn push_inputs() -> Inputs {
    let mut p = Vec::new();
    put_at(&mut p, 0, 37u32);
    put_at(&mut p, 4, 1.5f32);
    put_at(&mut p, 8, -3i32);
    put_at(&mut p, 12, 7i32);
    for (k, c) in [1.0f32, 2.0, -4.0, 0.5].iter().enumerate() {
        put_at(&mut p, 16 + 4 * k, *c);
    }
    put_at(&mut p, 32, 0x5au32);
    Inputs {
        groups: [4, 1, 1],
        resources: vec![sb(0, vec![0; 256 * 16]), sb(1, vec![0; 256 * 4])],
        push: p,
        spec: vec![],
    }
}

fn push_expect(inp: &Inputs, _: &Env) -> Vec<Expect> {
    let p = &inp.push;
    let (n, scale, mask) = (at::<u32>(p, 0), f(p, 4), at::<u32>(p, 32));
    let (ox, oy) = (at::<i32>(p, 8) as f32, at::<i32>(p, 12) as f32);
    let mut o = Vec::new();
    let mut cnt = Vec::new();
    for i in 0..256u32 {
        o.extend([
            f(p, 16) * scale + ox,
            f(p, 20) * scale + oy,
            f(p, 24) * scale + i as f32,
            f(p, 28) * scale,
        ]);
        cnt.push((0..n).map(|k| (i ^ k) & mask).fold(0u32, u32::wrapping_add));
    }
    vec![exact(0, to_bytes(&o)), exact(1, to_bytes(&cnt))]
}

fn spec_inputs() -> Inputs {
    Inputs {
        groups: [4, 1, 1],
        resources: vec![sb(0, vec![0; 256 * 16]), sb(1, vec![0; 256 * 8])],
        push: vec![],
        spec: vec![
            (0, SpecValue::U32(5)),
            (1, SpecValue::U32(7)),
            (2, SpecValue::U32(1)),
            (3, SpecValue::U32(2.25f32.to_bits())),
            (4, SpecValue::U64(0x1_0000_0003)),
        ],
    }
}

fn spec_expect(_: &Inputs, _: &Env) -> Vec<Expect> {
    let (k, s, f, big, unset) = (5u32, 7u32, 2.25f32, 0x1_0000_0003u64, 11u32);
    let kk = k * 2 + 1;
    let mut o = Vec::new();
    let mut q = Vec::new();
    for i in 0..256u32 {
        o.extend([
            (i * kk + s) ^ 0xff,
            (i as f32 * f).to_bits(),
            unset + i % k,
            (i % kk) * (i % kk) + i,
        ]);
        q.push(big.wrapping_mul(i as u64).wrapping_add(k as u64));
    }
    vec![exact(0, to_bytes(&o)), exact(1, to_bytes(&q))]
}

const LS: [u32; 2] = [16, 4];
const GROUPS: [u32; 2] = [2, 3];

fn spec_size_inputs() -> Inputs {
    let n = (LS[0] * GROUPS[0] * LS[1] * GROUPS[1]) as usize;
    Inputs {
        groups: [GROUPS[0], GROUPS[1], 1],
        resources: vec![sb(0, vec![0; n * 4]), sb(1, vec![0; n * 4])],
        push: vec![],
        spec: vec![
            (0, SpecValue::U32(LS[0])),
            (1, SpecValue::U32(LS[1])),
            (2, SpecValue::U32(3)),
        ],
    }
}

fn spec_size_expect(_: &Inputs, _: &Env) -> Vec<Expect> {
    let width = LS[0] * GROUPS[0];
    let height = LS[1] * GROUPS[1];
    let mut o = vec![0u32; (width * height) as usize];
    let mut g = o.clone();
    for gy in 0..height {
        for gx in 0..width {
            let (lx, ly) = (gx % LS[0], gy % LS[1]);
            let idx = (gy * width + gx) as usize;
            o[idx] = (ly * LS[0] + lx) * 3 + (LS[0] << 16) + (LS[1] << 24);
            g[idx] = gx / LS[0] + 10 * (gy / LS[1]) + 100 * GROUPS[1] + 1000 * ly;
        }
    }
    vec![exact(0, to_bytes(&o)), exact(1, to_bytes(&g))]
}

fn swizzle_inputs() -> Inputs {
    let mut r = Rng::new(23);
    let a: Vec<f32> = (0..256).map(|_| r.range(-20, 20) as f32 / 2.0).collect();
    let b: Vec<i32> = (0..256).map(|_| r.range(-12, 12) as i32).collect();
    Inputs {
        groups: [1, 1, 1],
        resources: vec![
            sb(0, to_bytes(&a)),
            sb(1, to_bytes(&b)),
            sb(2, vec![0; 64 * 48]),
            sb(3, vec![0; 64 * 32]),
        ],
        push: vec![],
        spec: vec![],
    }
}

fn swizzle_expect(inp: &Inputs, _: &Env) -> Vec<Expect> {
    let a = from_bytes::<f32>(data(inp, 0));
    let b = from_bytes::<i32>(data(inp, 1));
    let (mut o, mut p) = (Vec::new(), Vec::new());
    for (x, y) in a.chunks(4).zip(b.chunks(4)) {
        let fy: Vec<f32> = y.iter().map(|v| *v as f32).collect();
        o.extend([
            x[3] * 2.0 + x[0],
            x[2] * 2.0 + x[0],
            x[1] * 2.0 + x[1],
            x[0] * 2.0 + x[1],
        ]);
        o.extend([
            x[1] * fy[2] - x[2] * fy[1],
            x[2] * fy[0] - x[0] * fy[2],
            x[0] * fy[1] - x[1] * fy[0],
            (0..4).map(|c| x[c] * fy[c]).sum(),
        ]);
        let t = [fy[3], x[1], fy[1], x[3]];
        o.extend((0..4).map(|c| if x[c] < fy[c] { fy[c] } else { t[c] }));
        let sw = [y[2], y[3], y[0], y[1]];
        p.extend((0..4).map(|c| sw[c] * 3 - (y[c] >> 1) + (y[c] >= 0) as i32));
        p.extend([
            (0..4).any(|c| x[c] > fy[c]) as i32,
            (0..4).all(|c| x[c] < 10.0) as i32,
            x[0] as i32,
            y[3].clamp(-5, 5),
        ]);
    }
    vec![exact(2, to_bytes(&o)), exact(3, to_bytes(&p))]
}

fn dyn_inputs() -> Inputs {
    let mut r = Rng::new(24);
    let d: Vec<u32> = (0..128).map(|_| r.u32()).collect();
    Inputs {
        groups: [2, 1, 1],
        resources: vec![sb(0, to_bytes(&d)), sb(1, vec![0; 128 * 8])],
        push: vec![],
        spec: vec![],
    }
}

fn dyn_expect(inp: &Inputs, _: &Env) -> Vec<Expect> {
    let mut o = Vec::new();
    for s in from_bytes::<u32>(data(inp, 0)) {
        let mut arr: Vec<u32> = (0..16u32)
            .map(|k| s.wrapping_mul(k + 1) ^ (s >> k))
            .collect();
        let mut acc = 0u32;
        for k in 0..8 {
            let idx = ((s >> (k * 4)) & 15) as usize;
            acc = acc.wrapping_add(arr[idx]);
            arr[(idx + 3) & 15] ^= acc;
        }
        o.extend([acc, arr[(s & 15) as usize]]);
    }
    vec![exact(1, to_bytes(&o))]
}

/// Buffer sizes that are not multiples of anything larger than an element: 37 uints,
/// 16 header bytes + 11 structs of 16, 9 uvec2.
fn length_inputs() -> Inputs {
    let mut r = Rng::new(31);
    let a: Vec<u32> = (0..37).map(|_| r.u32()).collect();
    let mut b: Vec<u8> = to_bytes(&[0u32; 4]);
    for k in 0..11 {
        b.extend(to_bytes(&[1.5f32, -2.0, 0.25, k as f32 * 3.0]));
    }
    let c: Vec<u32> = (0..18).map(|_| r.u32()).collect();
    Inputs {
        groups: [2, 1, 1],
        resources: vec![
            sb(0, to_bytes(&a)),
            sb(1, b),
            sb(2, to_bytes(&c)),
            sb(3, vec![0; 128 * 16]),
        ],
        push: vec![],
        spec: vec![],
    }
}

fn length_expect(inp: &Inputs, _: &Env) -> Vec<Expect> {
    let a = from_bytes::<u32>(data(inp, 0));
    let b = from_bytes::<f32>(data(inp, 1));
    let c = from_bytes::<u32>(data(inp, 2));
    let (na, ns, nc) = (a.len() as u32, (b.len() as u32 - 4) / 4, c.len() as u32 / 2);
    let mut o = Vec::new();
    for i in 0..128u32 {
        let w = b[4 + 4 * (i % ns) as usize + 3] as u32;
        let v = a[(i % na) as usize]
            .wrapping_add(w)
            .wrapping_add(c[2 * (i % nc) as usize + 1]);
        o.extend([na, ns, nc, v]);
    }
    vec![exact(3, to_bytes(&o))]
}

pub fn cases() -> Vec<Case> {
    vec![
        case!("ssbo_length", length_inputs, length_expect),
        case!("std430_struct", std430_inputs, std430_expect),
        case!("std140_ubo", std140_inputs, std140_expect),
        case!("row_major", row_major_inputs, row_major_expect),
        case!("push_constants", push_inputs, push_expect),
        case!("spec_constants", spec_inputs, spec_expect),
        case!("spec_local_size", spec_size_inputs, spec_size_expect),
        case!("vec_swizzle", swizzle_inputs, swizzle_expect),
        case!("dynamic_index", dyn_inputs, dyn_expect),
    ]
}
