//! Shared memory and atomics: reductions, scans, a transpose and multi-phase stencils with
//! barriers across several waves; buffer, shared and 64-bit atomics. Atomic results are
//! designed to be order-independent (sums, min/max, bit ops, multisets of compacted items).
//! Constant lookup tables (`const_tables`): constant data read with uniform and divergent
//! indices.

use super::*;

fn io(seed: u64, n: usize, gen: impl Fn(&mut Rng) -> u32, groups: u32, out_bytes: usize) -> Inputs {
    let mut r = Rng::new(seed);
    let d: Vec<u32> = (0..n).map(|_| gen(&mut r)).collect();
    Inputs {
        groups: [groups, 1, 1],
        resources: vec![sb(0, to_bytes(&d)), sb(1, vec![0; out_bytes])],
        push: vec![],
        spec: vec![],
    }
}

fn reduce_inputs() -> Inputs {
    io(40, 1024, |r| r.u32(), 4, 16)
}

fn reduce_expect(inp: &Inputs, _: &Env) -> Vec<Expect> {
    let d = from_bytes::<u32>(data(inp, 0));
    let o: Vec<u32> = d
        .chunks(256)
        .map(|c| c.iter().fold(0u32, |a, b| a.wrapping_add(*b)))
        .collect();
    vec![exact(1, to_bytes(&o))]
}

fn transpose_inputs() -> Inputs {
    let mut inp = io(41, 64 * 32, |r| r.u32(), 1, 64 * 32 * 4);
    inp.groups = [4, 2, 1];
    inp
}

fn transpose_expect(inp: &Inputs, _: &Env) -> Vec<Expect> {
    let d = from_bytes::<u32>(data(inp, 0));
    let (w, h) = (64, 32);
    let mut o = vec![0u32; w * h];
    for y in 0..h {
        for x in 0..w {
            o[x * h + y] = d[y * w + x];
        }
    }
    vec![exact(1, to_bytes(&o))]
}

fn prefix_inputs() -> Inputs {
    io(42, 384, |r| r.u32() >> 8, 3, 384 * 4)
}

fn prefix_expect(inp: &Inputs, _: &Env) -> Vec<Expect> {
    let d = from_bytes::<u32>(data(inp, 0));
    let mut o = Vec::new();
    for c in d.chunks(128) {
        let mut s = 0u32;
        for v in c {
            s = s.wrapping_add(*v);
            o.push(s);
        }
    }
    vec![exact(1, to_bytes(&o))]
}

fn phases_inputs() -> Inputs {
    io(43, 192, |r| r.range(-1000, 1000) as u32, 2, 192 * 4)
}

fn phases_expect(inp: &Inputs, _: &Env) -> Vec<Expect> {
    let d = from_bytes::<i32>(data(inp, 0));
    let mut o = Vec::new();
    for a in d.chunks(96) {
        let b: Vec<i32> = (0..96)
            .map(|l| a[(l + 95) % 96] + 2 * a[l] - a[(l + 1) % 96])
            .collect();
        let a2: Vec<i32> = (0..96).map(|l| b[l] * 3 - b[95 - l]).collect();
        o.extend((0..96).map(|l| a2[l] + b[(l * 7) % 96]));
    }
    vec![exact(1, to_bytes(&o))]
}

// H: hist[16] @0, total @64, mn @68, mx @72, andv @76, orv @80, xorv @84, smin @88, smax @92.
fn atomics_inputs() -> Inputs {
    let mut inp = io(44, 512, |r| r.u32(), 8, 0);
    let mut h = vec![0u8; 96];
    put_at(&mut h, 68, u32::MAX);
    put_at(&mut h, 76, u32::MAX);
    put_at(&mut h, 88, i32::MAX);
    put_at(&mut h, 92, i32::MIN);
    inp.resources[1] = sb(1, h);
    inp
}

fn atomics_expect(inp: &Inputs, _: &Env) -> Vec<Expect> {
    let d = from_bytes::<u32>(data(inp, 0));
    // Every field is 4 bytes: index = byte offset / 4.
    let mut h = from_bytes::<u32>(data(inp, 1));
    for &x in &d {
        h[(x & 15) as usize] += 1;
        h[16] = h[16].wrapping_add(x >> 16);
        h[17] = h[17].min(x);
        h[18] = h[18].max(x);
        h[19] &= x | 0x0f0f_0000;
        h[20] |= x & 0x00ff_00ff;
        h[21] ^= x;
        h[22] = (h[22] as i32).min(x as i32) as u32;
        h[23] = (h[23] as i32).max(x as i32) as u32;
    }
    vec![exact(1, to_bytes(&h))]
}

fn shared_atomics_inputs() -> Inputs {
    io(45, 512, |r| r.u32(), 4, 33 * 4)
}

fn shared_atomics_expect(inp: &Inputs, _: &Env) -> Vec<Expect> {
    let d = from_bytes::<u32>(data(inp, 0));
    let mut h = vec![0u32; 33];
    for &x in &d {
        h[(x % 32) as usize] += 1 + (x >> 28);
        h[32] = h[32].max(x);
    }
    vec![exact(1, to_bytes(&h))]
}

fn compact_inputs() -> Inputs {
    let mut r = Rng::new(46);
    let d: Vec<u32> = (0..512).map(|_| r.u32() >> 4).collect();
    Inputs {
        groups: [8, 1, 1],
        resources: vec![
            sb(0, to_bytes(&d)),
            sb(1, vec![0; 4]),
            sb(2, vec![0; 512 * 4]),
        ],
        push: vec![],
        spec: vec![],
    }
}

fn compact_expect(inp: &Inputs, _: &Env) -> Vec<Expect> {
    let d = from_bytes::<u32>(data(inp, 0));
    let mut items: Vec<u32> = d.iter().copied().filter(|x| x % 3 == 0).collect();
    let count = items.len() as u32;
    items.resize(d.len(), 0);
    vec![
        exact(1, to_bytes(&[count])),
        Expect {
            resource: 2,
            bytes: to_bytes(&items),
            check: Check::SortedU32,
        },
    ]
}

fn cas_inputs() -> Inputs {
    let mut r = Rng::new(47);
    let d: Vec<u32> = (0..256).map(|_| r.u32()).collect();
    let own: Vec<u32> = (0..256).map(|i| 0x1000 + i).collect();
    Inputs {
        groups: [4, 1, 1],
        resources: vec![
            sb(0, to_bytes(&d)),
            sb(1, to_bytes(&[5u32; 8])),
            sb(2, to_bytes(&own)),
            sb(3, vec![0; 256 * 4]),
        ],
        push: vec![],
        spec: vec![],
    }
}

fn cas_expect(inp: &Inputs, _: &Env) -> Vec<Expect> {
    let d = from_bytes::<u32>(data(inp, 0));
    let mut c = from_bytes::<u32>(data(inp, 1));
    for &x in &d {
        c[(x & 7) as usize] += x >> 24;
    }
    vec![
        exact(1, to_bytes(&c)),
        exact(2, data(inp, 0).to_vec()),
        exact(3, data(inp, 2).to_vec()),
    ]
}

// A: sum @0, mn @8, mx @16, andv @24, orv @32, xorv @40.
fn i64_inputs() -> Inputs {
    let mut r = Rng::new(48);
    let d: Vec<u64> = (0..256)
        .map(|i| if i % 2 == 0 { r.u64() } else { r.u64() >> 20 })
        .collect();
    let a = to_bytes(&[0u64, i64::MAX as u64, i64::MIN as u64, u64::MAX, 0, 0]);
    Inputs {
        groups: [4, 1, 1],
        resources: vec![sb(0, to_bytes(&d)), sb(1, a)],
        push: vec![],
        spec: vec![],
    }
}

fn i64_expect(inp: &Inputs, _: &Env) -> Vec<Expect> {
    let d = from_bytes::<u64>(data(inp, 0));
    let (mut sum, mut mn, mut mx, mut and, mut or, mut xor) =
        (0u64, i64::MAX, i64::MIN, u64::MAX, 0u64, 0u64);
    for &x in &d {
        sum = sum.wrapping_add(x);
        mn = mn.min(x as i64);
        mx = mx.max(x as i64);
        and &= x | 0xf0f0_f0f0_0000_0000;
        or |= x & 0x0000_0000_ff00_ff00;
        xor ^= x;
    }
    vec![exact(
        1,
        to_bytes(&[sum, mn as u64, mx as u64, and, or, xor]),
    )]
}

fn memory_model_inputs() -> Inputs {
    io(49, 384, |r| r.u32() >> 12, 3, 384 * 4)
}

fn memory_model_expect(inp: &Inputs, _: &Env) -> Vec<Expect> {
    let d = from_bytes::<u32>(data(inp, 0));
    let mut o = Vec::new();
    for wg in d.chunks(128) {
        let s: Vec<u32> = wg.iter().map(|x| x.wrapping_mul(3)).collect();
        let count: u32 = s.iter().map(|v| (v & 1) + 1).sum();
        o.extend((0..128).map(|l| s[127 - l].wrapping_add(count << 20)));
    }
    vec![exact(1, to_bytes(&o))]
}

/// `const_tables`: 4 workgroups of 64; the tables are these formulas, written out in the
/// GLSL as constant initialisers.
fn const_tables_inputs() -> Inputs {
    io(52, 256, |r| r.u32(), 4, 256 * 32)
}

fn const_tables_expect(inp: &Inputs, _: &Env) -> Vec<Expect> {
    let t = |k: u32| k.wrapping_mul(2654435761) ^ (k << 7) ^ 0x5bd1e995;
    let d = from_bytes::<u32>(data(inp, 0));
    let mut o = Vec::new();
    for (g, &s) in d.iter().enumerate() {
        let u = t(g as u32 / 64 * 37 + 5);
        let v = t(s & 255);
        let k = s % 40;
        let a = [k as f32 * 0.25 - 3.0, 0.5 * k as f32];
        let b = k.wrapping_mul(40503) & 0xffff;
        let c = [k, k * k, (k * 7 + 3) & 0xff];
        let (i, j) = ((s >> 8) & 7, (s >> 11) % 5);
        let w = ((i * 5 + j) * 3) as i32 - 20;
        o.extend([u, v, a[0].to_bits(), a[1].to_bits()]);
        o.extend([b, c[0] + c[1] * 3 + c[2] * 7, w as u32, 0]);
    }
    vec![exact(1, to_bytes(&o))]
}

pub fn cases() -> Vec<Case> {
    vec![
        case!("shared_reduce", reduce_inputs, reduce_expect),
        case!("shared_transpose", transpose_inputs, transpose_expect),
        case!("shared_prefix", prefix_inputs, prefix_expect),
        case!("shared_phases", phases_inputs, phases_expect),
        case!("atomics_buffer", atomics_inputs, atomics_expect),
        case!(
            "atomics_shared",
            shared_atomics_inputs,
            shared_atomics_expect
        ),
        case!("atomic_compact", compact_inputs, compact_expect),
        case!("atomic_cas", cas_inputs, cas_expect),
        case!("atomics_i64", i64_inputs, i64_expect),
        case!("memory_model", memory_model_inputs, memory_model_expect),
        case!("const_tables", const_tables_inputs, const_tables_expect),
    ]
}
