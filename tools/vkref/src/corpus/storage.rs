//! 8- and 16-bit storage in every address space (storage and uniform buffers, push
//! constants, shared memory, private arrays in scratch, buffer device addresses), uniform
//! buffers read at lane-dependent offsets, and arrays sized by specialization constants.
//!
//! Every output buffer that the shader writes only partly starts with a fill pattern, and
//! the expectation keeps the pattern in the bytes the shader does not write: a sub-dword
//! store that clobbered its neighbours fails the byte-exact comparison.

use super::*;

/// Lanes of the one-dimensional cases.
const N: usize = 128;

fn storage8_ssbo_inputs() -> Inputs {
    let mut r = Rng::new(120);
    let v: Vec<u8> = (0..4 * N).map(|_| r.u32() as u8).collect();
    let s: Vec<u8> = (0..N).map(|_| r.u32() as u8).collect();
    Inputs {
        groups: [2, 1, 1],
        resources: vec![
            sb(0, v),
            sb(1, s),
            sb(2, vec![0x5a; 4 * N]),
            sb(3, vec![0; 4 * N]),
            sb(4, vec![0xa5; 2 * N]),
            sb(5, vec![0; 4 * N]),
        ],
        push: vec![],
        spec: vec![],
    }
}

fn storage8_ssbo_expect(inp: &Inputs, _: &Env) -> Vec<Expect> {
    let v = data(inp, 0);
    let s = data(inp, 1);
    let mut o = data(inp, 2).to_vec();
    let mut w = vec![0u8; 4 * N];
    let mut pairs = data(inp, 4).to_vec();
    let mut x = Vec::new();
    for i in 0..N {
        let [vx, vy, vz, vw] = [v[4 * i], v[4 * i + 1], v[4 * i + 2], v[4 * i + 3]];
        o[4 * i] = vx.wrapping_add(vy);
        o[4 * i + 1] = s[i];
        o[4 * i + 2] = vw ^ i as u8;
        for (k, c) in [vw, vz, vy, vx].iter().enumerate() {
            w[4 * i + k] = c.wrapping_add(1);
        }
        pairs[2 * i + 1] = ((i * 7) as u8).wrapping_sub(vz);
        x.push(s[i] as i8 as i32 * 3 + vz as i32);
    }
    vec![
        exact(2, o),
        exact(3, w),
        exact(4, pairs),
        exact(5, to_bytes(&x)),
    ]
}

/// A float with two fraction bits in [-64, 64], as f16 bits (exact in f16, and so are
/// `x + 1`, `2x` and `4x`).
fn quarter16(r: &mut Rng) -> u16 {
    f32_to_f16(r.range(-256, 256) as f32 / 4.0)
}

// struct S (std430, 16 bytes): a u16 @0, b i16 @2, h2 f16vec2 @4, h3 f16vec3 @8, c u16 @14.
fn storage16_ssbo_inputs() -> Inputs {
    let mut r = Rng::new(121);
    let mut s = Vec::new();
    for _ in 0..N {
        let mut e = Vec::new();
        put_at(&mut e, 0, r.u32() as u16);
        put_at(&mut e, 2, r.u32() as u16);
        for k in 0..5 {
            put_at(&mut e, 4 + 2 * k, quarter16(&mut r));
        }
        put_at(&mut e, 14, r.u32() as u16);
        s.extend(e);
    }
    Inputs {
        groups: [2, 1, 1],
        resources: vec![sb(0, s), sb(1, vec![0xcd; 16 * N]), sb(2, vec![0; 8 * N])],
        push: vec![],
        spec: vec![],
    }
}

fn storage16_ssbo_expect(inp: &Inputs, _: &Env) -> Vec<Expect> {
    let s = data(inp, 0);
    let mut t = data(inp, 1).to_vec();
    let mut w = Vec::new();
    let h = |o: usize| f16_to_f32(at::<u16>(s, o));
    for i in 0..N {
        let b = 16 * i;
        let (a, bb, c) = (at::<u16>(s, b), at::<i16>(s, b + 2), at::<u16>(s, b + 14));
        put_at(&mut t, b, a.wrapping_mul(3).wrapping_add(i as u16));
        put_at(&mut t, b + 2, bb.wrapping_neg());
        put_at(&mut t, b + 4, f32_to_f16(h(b + 6) + 1.0));
        put_at(&mut t, b + 6, f32_to_f16(h(b + 4) + 1.0));
        put_at(&mut t, b + 8, f32_to_f16(h(b + 12) * 2.0));
        put_at(&mut t, b + 12, f32_to_f16(h(b + 8) * 2.0));
        w.push(bb as i32 * 5 + a as i32 + c as i32);
        w.push((h(b + 10) * 4.0) as i32);
    }
    vec![exact(1, t), exact(2, to_bytes(&w))]
}

fn storage16_shared_inputs() -> Inputs {
    let mut r = Rng::new(122);
    let d: Vec<u32> = (0..2 * N).map(|_| r.u32()).collect();
    Inputs {
        groups: [2, 1, 1],
        resources: vec![sb(0, to_bytes(&d)), sb(1, vec![0; 8 * 2 * N])],
        push: vec![],
        spec: vec![],
    }
}

fn storage16_shared_expect(inp: &Inputs, _: &Env) -> Vec<Expect> {
    let d = from_bytes::<u32>(data(inp, 0));
    let mut o = Vec::new();
    for group in d.chunks(128) {
        let h: Vec<u32> = group.iter().map(|x| *x & 0xffff).collect();
        let sh: Vec<i32> = group
            .iter()
            .map(|x| (*x >> 8) as u16 as i16 as i32)
            .collect();
        let b: Vec<u32> = group.iter().map(|x| (*x >> 16) & 0xff).collect();
        for l in 0..128 {
            let j = (l * 5 + 3) % 128;
            o.push(h[j] | b[127 - l] << 16 | b[j] << 24);
            o.push((sh[(l + 1) % 128] - sh[j]) as u32);
        }
    }
    vec![exact(1, to_bytes(&o))]
}

fn storage8_scratch_inputs() -> Inputs {
    let mut r = Rng::new(123);
    let d: Vec<u32> = (0..N).map(|_| r.u32()).collect();
    Inputs {
        groups: [2, 1, 1],
        resources: vec![sb(0, to_bytes(&d)), sb(1, vec![0; 8 * N])],
        push: vec![],
        spec: vec![],
    }
}

fn storage8_scratch_expect(inp: &Inputs, _: &Env) -> Vec<Expect> {
    let d = from_bytes::<u32>(data(inp, 0));
    let mut o = Vec::new();
    for (g, &x) in d.iter().enumerate() {
        let x = x as usize;
        let mut a: Vec<u32> = (0..16)
            .map(|k| ((x >> (k % 4 * 8)) as u8).wrapping_add(k as u8) as u32)
            .collect();
        let mut h: Vec<u32> = (0..8).map(|k| (x >> k) as u16 as u32).collect();
        a[x % 16] = 0xee;
        h[(x >> 4) % 8] = (g * 1000) as u16 as u32;
        let j = (x >> 8) % 16;
        o.push(a[j] | a[(j + 1) % 16] << 8 | a[(j + 5) % 16] << 16 | a[15 - j] << 24);
        let m = (x >> 12) % 8;
        o.push(h[m] | h[(m + 1) % 8] << 16);
    }
    vec![exact(1, to_bytes(&o))]
}

fn storage8_16_bda_inputs() -> Inputs {
    let mut r = Rng::new(124);
    let bytes: Vec<u8> = (0..2 * N).map(|_| r.u32() as u8).collect();
    let shorts: Vec<u16> = (0..2 * N).map(|_| r.u32() as u16).collect();
    let vecs: Vec<u8> = (0..4 * N).map(|_| r.u32() as u8).collect();
    let addr = |data: Vec<u8>, at: u32| Resource::Address {
        data,
        target: AddressTarget::Push(at),
    };
    Inputs {
        groups: [2, 1, 1],
        resources: vec![addr(bytes, 0), addr(to_bytes(&shorts), 8), addr(vecs, 16)],
        push: vec![0; 24],
        spec: vec![],
    }
}

fn storage8_16_bda_expect(inp: &Inputs, _: &Env) -> Vec<Expect> {
    let mut bytes = data(inp, 0).to_vec();
    let mut shorts = from_bytes::<u16>(data(inp, 1));
    let mut vecs = data(inp, 2).to_vec();
    for i in 0..N {
        let x = bytes[2 * i];
        let y = shorts[2 * i];
        bytes[2 * i + 1] = x.wrapping_mul(3).wrapping_add(i as u8);
        shorts[2 * i + 1] = (x as i8 as i32 * 100 + y as i16 as i32) as u16;
        vecs[4 * i..4 * i + 4].reverse();
    }
    vec![exact(0, bytes), exact(1, to_bytes(&shorts)), exact(2, vecs)]
}

// Push block (std430): a u16 @0, b i16 @2, c u8 @4, d i8 @5, h f16 @6, k[8] u32 @8,
// s[8] u16 @40, t[8] u8 @56; 64 bytes. Two workgroups of 32. UBO (std140): q[16] u16vec4 @16n, e[4] i8vec4 @256+16n.
fn storage16_push_ubo_inputs() -> Inputs {
    let mut r = Rng::new(125);
    let mut p = Vec::new();
    put_at(&mut p, 0, 40000u16);
    put_at(&mut p, 2, -1234i16);
    put_at(&mut p, 4, 200u8);
    put_at(&mut p, 5, -100i8);
    put_at(&mut p, 6, f32_to_f16(1.5));
    for k in 0..8 {
        put_at(&mut p, 8 + 4 * k, r.u32());
        put_at(&mut p, 40 + 2 * k, r.u32() as u16);
        put_at(&mut p, 56 + k, r.u32() as u8);
    }
    let mut u = vec![0u8; 320];
    for n in 0..16 {
        for c in 0..4 {
            put_at(&mut u, 16 * n + 2 * c, r.u32() as u16);
        }
    }
    for n in 0..4 {
        for c in 0..4 {
            put_at(&mut u, 256 + 16 * n + c, r.u32() as u8);
        }
    }
    Inputs {
        groups: [2, 1, 1],
        resources: vec![ub(0, u), sb(1, vec![0; 64 * 16])],
        push: p,
        spec: vec![],
    }
}

fn storage16_push_ubo_expect(inp: &Inputs, _: &Env) -> Vec<Expect> {
    let (p, u) = (&inp.push, data(inp, 0));
    let r = (at::<u16>(p, 0) as u32)
        .wrapping_add(at::<i16>(p, 2) as i32 as u32)
        .wrapping_add(at::<u8>(p, 4) as u32)
        .wrapping_add(at::<i8>(p, 5) as i32 as u32);
    let h = f16_to_f32(at::<u16>(p, 6));
    let q = |n: usize, c: usize| at::<u16>(u, 16 * n + 2 * c) as u32;
    let e = |n: usize, c: usize| at::<i8>(u, 256 + 16 * n + c) as i32;
    let mut o = Vec::new();
    for i in 0..64 {
        o.push(
            r.wrapping_add(q(i % 16, 0))
                .wrapping_add(q(i % 16, 3) << 16),
        );
        o.push(at::<u32>(p, 8 + 4 * (i % 8)) ^ (e(i % 4, 1) * 1000 + e(i % 4, 3)) as u32);
        o.push(at::<u16>(p, 40 + 2 * (i * 3 % 8)) as u32 | q((i + 1) % 16, 1) << 16);
        let w = i / 32;
        let t = at::<u8>(p, 56 + (w * 3 % 8)) as u32;
        o.push((h * i as f32).to_bits() ^ ((at::<u16>(p, 40 + 2 * (w + 1)) as u32) << 16 | t));
    }
    vec![exact(1, to_bytes(&o))]
}

// UBO (std140): tab[64] vec4 @0, pairs[32] uvec2 @1024 (stride 16), scale @1536.
fn ubo_divergent_inputs() -> Inputs {
    let mut r = Rng::new(126);
    let mut u = vec![0u8; 1552];
    for k in 0..256 {
        put_at(&mut u, 4 * k, r.range(-4000, 4000) as f32 / 4.0);
    }
    for n in 0..32 {
        put_at(&mut u, 1024 + 16 * n, r.range(0, 5000) as u32);
        put_at(&mut u, 1028 + 16 * n, r.range(0, 5000) as u32);
    }
    put_at(&mut u, 1536, 2.0f32);
    Inputs {
        groups: [2, 1, 1],
        resources: vec![ub(0, u), sb(1, vec![0; 128 * 16])],
        push: vec![],
        spec: vec![],
    }
}

fn ubo_divergent_expect(inp: &Inputs, _: &Env) -> Vec<Expect> {
    let u = data(inp, 0);
    let tab = |n: usize, c: usize| at::<f32>(u, 16 * n + 4 * c);
    let scale = at::<f32>(u, 1536);
    let mut o = Vec::new();
    for wg in 0..2 {
        for l in 0..64 {
            let px = at::<u32>(u, 1024 + 16 * (l / 2)) as f32;
            let py = at::<u32>(u, 1028 + 16 * (l / 2)) as f32;
            let add = [px, py, tab(l * 7 % 64, 1), tab(wg, 3)];
            for (c, a) in add.iter().enumerate() {
                o.push(tab(63 - l, c) * scale + a);
            }
        }
    }
    vec![exact(1, to_bytes(&o))]
}

/// The specialization values the test runs `spec_array` with (defaults 32 and 2).
const BLOCK_SIZE: usize = 48;
const ROWS: usize = 3;

fn spec_array_inputs() -> Inputs {
    Inputs {
        groups: [2, 1, 1],
        resources: vec![sb(0, vec![0; 2 * 64 * 12])],
        push: vec![],
        spec: vec![
            (0, SpecValue::U32(BLOCK_SIZE as u32)),
            (1, SpecValue::U32(ROWS as u32)),
        ],
    }
}

fn spec_array_expect(_: &Inputs, _: &Env) -> Vec<Expect> {
    let cols = BLOCK_SIZE / 2 + 1;
    let mut o = Vec::new();
    for wg in 0..2 {
        for l in 0..64 {
            o.push((((l * 5) % BLOCK_SIZE + wg) as f32 * 0.5).to_bits());
            o.push(((l % ROWS * cols + l % cols) * 3) as u32);
            o.push((BLOCK_SIZE | ROWS << 8 | cols << 16) as u32);
        }
    }
    vec![exact(0, to_bytes(&o))]
}

pub fn cases() -> Vec<Case> {
    vec![
        case!("storage8_ssbo", storage8_ssbo_inputs, storage8_ssbo_expect),
        case!(
            "storage16_ssbo",
            storage16_ssbo_inputs,
            storage16_ssbo_expect
        ),
        case!(
            "storage16_shared",
            storage16_shared_inputs,
            storage16_shared_expect
        ),
        case!(
            "storage8_scratch",
            storage8_scratch_inputs,
            storage8_scratch_expect
        ),
        case!(
            "storage8_16_bda",
            storage8_16_bda_inputs,
            storage8_16_bda_expect
        ),
        case!(
            "storage16_push_ubo",
            storage16_push_ubo_inputs,
            storage16_push_ubo_expect
        ),
        case!("ubo_divergent", ubo_divergent_inputs, ubo_divergent_expect),
        case!("spec_array", spec_array_inputs, spec_array_expect),
    ]
}
