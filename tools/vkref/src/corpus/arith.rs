//! Arithmetic cases: integers of 8, 16, 32 and 64 bits, f16/f32/f64, conversions, wide
//! multiplies, hashing. Each expectation redoes the shader's arithmetic with Rust's own
//! integer and IEEE float operations.

use super::*;

const N: usize = 256;

fn i32_pair(seed: u64) -> (Vec<i32>, Vec<i32>) {
    let mut r = Rng::new(seed);
    let special_a = [0, -1, i32::MAX, i32::MIN, 1, -7, 100, -100];
    let special_b = [1, -1, 7, 3, -3, 2, i32::MAX, i32::MIN];
    let mut a: Vec<i32> = (0..N).map(|_| r.u32() as i32).collect();
    let mut b: Vec<i32> = (0..N)
        .map(|i| {
            if i % 3 == 0 {
                r.range(-40, 40) as i32
            } else {
                r.u32() as i32
            }
        })
        .collect();
    a[..8].copy_from_slice(&special_a);
    b[..8].copy_from_slice(&special_b);
    for (x, y) in a.iter().zip(b.iter_mut()) {
        if *y == 0 || (*x == i32::MIN && *y == -1) {
            *y = 2;
        }
    }
    (a, b)
}

fn three(a: Vec<u8>, b: Vec<u8>, out_len: usize) -> Inputs {
    Inputs {
        groups: [N as u32 / 64, 1, 1],
        resources: vec![sb(0, a), sb(1, b), sb(2, vec![0; out_len])],
        push: vec![],
        spec: vec![],
    }
}

fn i32_inputs() -> Inputs {
    let (a, b) = i32_pair(1);
    three(to_bytes(&a), to_bytes(&b), N * 16 * 4)
}

fn i32_expect(inp: &Inputs, _: &Env) -> Vec<Expect> {
    let (a, b) = (
        from_bytes::<i32>(data(inp, 0)),
        from_bytes::<i32>(data(inp, 1)),
    );
    let mut o = Vec::new();
    for (&x, &y) in a.iter().zip(&b) {
        let s = (y & 31) as u32;
        o.extend([
            x.wrapping_add(y),
            x.wrapping_sub(y),
            x.wrapping_mul(y),
            x.wrapping_div(y),
            (x & 0x7fff_ffff) % y.wrapping_abs().max(1),
            x >> s,
            x.wrapping_shl(s),
            ((x as u32) >> s) as i32,
            x & y,
            x | y,
            x ^ !y,
            x.wrapping_neg(),
            x.wrapping_abs(),
            x.signum() + 3 * y.signum(),
            x.min(y).wrapping_sub(x.max(y)),
            x.clamp(-1000, 1000) + (x < y) as i32 + 2 * (x == y) as i32 + 4 * (x >= y) as i32,
        ]);
    }
    vec![exact(2, to_bytes(&o))]
}

fn u32_inputs() -> Inputs {
    let (a, b) = i32_pair(2);
    let a: Vec<u32> = a.iter().map(|&x| x as u32).collect();
    let b: Vec<u32> = b.iter().map(|&x| x as u32).collect();
    three(to_bytes(&a), to_bytes(&b), N * 14 * 4)
}

fn find_msb_u(x: u32) -> u32 {
    if x == 0 {
        u32::MAX
    } else {
        31 - x.leading_zeros()
    }
}

fn u32_expect(inp: &Inputs, _: &Env) -> Vec<Expect> {
    let (a, b) = (
        from_bytes::<u32>(data(inp, 0)),
        from_bytes::<u32>(data(inp, 1)),
    );
    let mut o = Vec::new();
    for (&x, &y) in a.iter().zip(&b) {
        let off = y & 15;
        let bits = (y >> 4) & 15;
        let r = y & 31;
        let mask = if bits == 0 { 0 } else { (1u32 << bits) - 1 };
        let field = (x >> off) & mask;
        let sfield = if bits == 0 {
            0
        } else {
            (((field << (32 - bits)) as i32) >> (32 - bits)) as u32
        };
        let imask = mask << off;
        let sx = x as i32;
        o.extend([
            x / (y | 1),
            x % (y | 1),
            field,
            sfield,
            (x & !imask) | ((y << off) & imask),
            x.count_ones(),
            if x & y == 0 {
                u32::MAX
            } else {
                (x & y).trailing_zeros()
            },
            find_msb_u(x >> r),
            if sx < 0 {
                find_msb_u(!x)
            } else {
                find_msb_u(x)
            },
            x.reverse_bits(),
            x.rotate_left(r),
            (x < y) as u32 | (2 * (x > y) as u32) | (4 * (x <= y) as u32) | (8 * (x != y) as u32),
            x.min(y).wrapping_add(x.max(y).wrapping_mul(3)),
            x.clamp(1000, 4_000_000_000).wrapping_sub(y),
        ]);
    }
    vec![exact(2, to_bytes(&o))]
}

fn i64_inputs() -> Inputs {
    let mut r = Rng::new(3);
    let mut a: Vec<i64> = (0..N).map(|_| r.u64() as i64).collect();
    let mut b: Vec<i64> = (0..N)
        .map(|i| {
            if i % 4 == 0 {
                r.range(-1000, 1000)
            } else {
                r.u64() as i64 >> (r.u32() % 40)
            }
        })
        .collect();
    a[..4].copy_from_slice(&[i64::MIN, -1, i64::MAX, 0]);
    b[..4].copy_from_slice(&[3, -1, 1 << 33, -5]);
    for (x, y) in a.iter().zip(b.iter_mut()) {
        if *y == 0 || (*x == i64::MIN && *y == -1) {
            *y = 7;
        }
    }
    three(to_bytes(&a), to_bytes(&b), N * 12 * 8)
}

fn i64_expect(inp: &Inputs, _: &Env) -> Vec<Expect> {
    let (a, b) = (
        from_bytes::<i64>(data(inp, 0)),
        from_bytes::<i64>(data(inp, 1)),
    );
    let mut o = Vec::new();
    for (&x, &y) in a.iter().zip(&b) {
        let (ux, uy) = (x as u64, y as u64);
        o.extend([
            x.wrapping_add(y),
            x.wrapping_sub(y),
            x.wrapping_mul(y),
            x.wrapping_div(y),
            (ux / (uy | 1)) as i64,
            (ux % (uy | 1)) as i64,
            x >> (y & 63),
            ((ux >> (uy & 63)) as i64) ^ x.wrapping_shl(((y >> 8) & 63) as u32),
            (x & y) | (!x ^ y),
            x.min(y).wrapping_mul(3).wrapping_sub(x.max(y)),
            (x as i32 as i64).wrapping_add(y as u64 as u32 as i64),
            ((ux >> 32) as u32 as i64)
                .wrapping_mul(y as i32 as i64)
                .wrapping_add((ux > uy) as i64),
        ]);
    }
    vec![exact(2, to_bytes(&o))]
}

fn i16_inputs() -> Inputs {
    let mut r = Rng::new(4);
    let mut a: Vec<i16> = (0..N).map(|_| r.u32() as i16).collect();
    let mut b: Vec<i16> = (0..N)
        .map(|i| {
            if i % 2 == 0 {
                r.range(-50, 50) as i16
            } else {
                r.u32() as i16
            }
        })
        .collect();
    a[..4].copy_from_slice(&[i16::MIN, -1, i16::MAX, 0]);
    b[..4].copy_from_slice(&[3, -1, 1, -5]);
    for (x, y) in a.iter().zip(b.iter_mut()) {
        if *y == 0 || (*x == i16::MIN && *y == -1) {
            *y = 9;
        }
    }
    Inputs {
        groups: [N as u32 / 64, 1, 1],
        resources: vec![
            sb(0, to_bytes(&a)),
            sb(1, to_bytes(&b)),
            sb(2, vec![0; N * 10 * 2]),
            sb(3, vec![0; N * 4]),
        ],
        push: vec![],
        spec: vec![],
    }
}

fn i16_expect(inp: &Inputs, _: &Env) -> Vec<Expect> {
    let (a, b) = (
        from_bytes::<i16>(data(inp, 0)),
        from_bytes::<i16>(data(inp, 1)),
    );
    let mut o = Vec::new();
    let mut w = Vec::new();
    for (&x, &y) in a.iter().zip(&b) {
        let (ux, uy) = (x as u16, y as u16);
        o.extend([
            x.wrapping_add(y),
            x.wrapping_sub(y),
            x.wrapping_mul(y),
            x.wrapping_div(y),
            (ux / (uy | 1)) as i16,
            x >> (y & 15),
            ux.wrapping_shl((uy & 15) as u32) as i16,
            (x & y) ^ (x | 0x0f0f),
            x.min(y).wrapping_sub(x.max(y)),
            (x < y) as i16 + 2 * (ux < uy) as i16,
        ]);
        w.push((x as i32) * (y as i32) + ux as i32);
    }
    vec![exact(2, to_bytes(&o)), exact(3, to_bytes(&w))]
}

fn i8_inputs() -> Inputs {
    let mut r = Rng::new(5);
    let mut a: Vec<u8> = (0..N).map(|_| r.u32() as u8).collect();
    let b: Vec<u8> = (0..N).map(|_| r.u32() as u8).collect();
    a[..4].copy_from_slice(&[0x80, 0xff, 0x7f, 0]);
    Inputs {
        groups: [N as u32 / 64, 1, 1],
        resources: vec![
            sb(0, a),
            sb(1, b),
            sb(2, vec![0; N * 8]),
            sb(3, vec![0; N * 4]),
        ],
        push: vec![],
        spec: vec![],
    }
}

fn i8_expect(inp: &Inputs, _: &Env) -> Vec<Expect> {
    let (a, b) = (data(inp, 0), data(inp, 1));
    let mut o = Vec::new();
    let mut w = Vec::new();
    for (&x, &y) in a.iter().zip(b) {
        let (sx, sy) = (x as i8, y as i8);
        o.extend([
            x.wrapping_add(y),
            x.wrapping_sub(y),
            x.wrapping_mul(y),
            x / (y | 1),
            (sx >> (sy & 7)) as u8,
            x.wrapping_shl((y & 7) as u32) ^ (x & !y),
            sx.min(sy) as u8,
            x.max(y),
        ]);
        w.push(sx as i32 * 1000 + x as i32);
    }
    vec![exact(2, o), exact(3, to_bytes(&w))]
}

fn f32_inputs() -> Inputs {
    let mut r = Rng::new(6);
    let a: Vec<f32> = (0..N).map(|_| r.f32_bits(16, 10)).collect();
    let mut b: Vec<f32> = (0..N).map(|_| r.f32_bits(16, 10)).collect();
    b[1] = a[1];
    b[2] = 2.5;
    b[3] = -3.5;
    three(to_bytes(&a), to_bytes(&b), N * 12 * 4)
}

fn f32_expect(inp: &Inputs, _: &Env) -> Vec<Expect> {
    let (a, b) = (
        from_bytes::<f32>(data(inp, 0)),
        from_bytes::<f32>(data(inp, 1)),
    );
    let mut o = Vec::new();
    for (&x, &y) in a.iter().zip(&b) {
        o.extend([
            x + y,
            x - y,
            x * y,
            -x.abs(),
            x.min(y),
            x.max(y),
            x.floor(),
            y.ceil(),
            x.trunc(),
            y.round_ties_even(),
            if x < y { x } else { y * 2.0 },
            (x >= 0.0) as u32 as f32 + if y != x { 2.0 } else { 0.0 },
        ]);
    }
    vec![exact(2, to_bytes(&o))]
}

fn divsqrt_inputs() -> Inputs {
    let mut r = Rng::new(7);
    let a: Vec<f32> = (0..N).map(|_| r.f32_bits(24, 20)).collect();
    let b: Vec<f32> = (0..N).map(|_| r.f32_bits(24, 20)).collect();
    three(to_bytes(&a), to_bytes(&b), N * 4 * 4)
}

fn divsqrt_expect(inp: &Inputs, _: &Env) -> Vec<Expect> {
    let (a, b) = (
        from_bytes::<f32>(data(inp, 0)),
        from_bytes::<f32>(data(inp, 1)),
    );
    let mut o = Vec::new();
    for (&x, &y) in a.iter().zip(&b) {
        o.extend([
            x / y,
            1.0 / y,
            x.abs().sqrt(),
            (1.0 / (y.abs() as f64).sqrt()) as f32,
        ]);
    }
    vec![Expect {
        resource: 2,
        bytes: to_bytes(&o),
        check: Check::F32 { ulp: 3, abs: 0.0 },
    }]
}

fn f64_26(r: &mut Rng) -> f64 {
    let m = (r.u64() >> 38) | (1 << 25);
    let e = r.range(-20, 20) as i32;
    let s = if r.u32() & 1 == 0 { 1.0 } else { -1.0 };
    s * m as f64 * 2f64.powi(e - 25)
}

fn f64_inputs() -> Inputs {
    let mut r = Rng::new(8);
    let a: Vec<f64> = (0..N).map(|_| f64_26(&mut r)).collect();
    let b: Vec<f64> = (0..N).map(|_| f64_26(&mut r)).collect();
    Inputs {
        groups: [N as u32 / 64, 1, 1],
        resources: vec![
            sb(0, to_bytes(&a)),
            sb(1, to_bytes(&b)),
            sb(2, vec![0; N * 8 * 8]),
            sb(3, vec![0; N * 2 * 8]),
        ],
        push: vec![],
        spec: vec![],
    }
}

fn f64_expect(inp: &Inputs, _: &Env) -> Vec<Expect> {
    let (a, b) = (
        from_bytes::<f64>(data(inp, 0)),
        from_bytes::<f64>(data(inp, 1)),
    );
    let mut o = Vec::new();
    let mut q = Vec::new();
    for (&x, &y) in a.iter().zip(&b) {
        o.extend([
            x + y,
            x - y,
            x * y,
            x.mul_add(y, x),
            x.min(y) - y.abs(),
            x.max(y),
            x.floor() + y.ceil(),
            (x as f32) as f64 + (y as i32) as f64,
        ]);
        q.extend([x / y, x.abs().sqrt()]);
    }
    vec![
        exact(2, to_bytes(&o)),
        Expect {
            resource: 3,
            bytes: to_bytes(&q),
            check: Check::F64 { ulp: 4, abs: 0.0 },
        },
    ]
}

fn f16_inputs() -> Inputs {
    let mut r = Rng::new(9);
    let mut gen = || {
        let k = r.range(1, 2047) as f32 * if r.u32() & 1 == 0 { 1.0 } else { -1.0 };
        f32_to_f16(k / 16.0)
    };
    let a: Vec<u16> = (0..N).map(|_| gen()).collect();
    let b: Vec<u16> = (0..N).map(|_| gen()).collect();
    Inputs {
        groups: [N as u32 / 64, 1, 1],
        resources: vec![
            sb(0, to_bytes(&a)),
            sb(1, to_bytes(&b)),
            sb(2, vec![0; N * 6 * 2]),
            sb(3, vec![0; N * 2 * 2]),
            sb(4, vec![0; N * 4]),
        ],
        push: vec![],
        spec: vec![],
    }
}

fn f16_expect(inp: &Inputs, _: &Env) -> Vec<Expect> {
    let h = |v: f32| f32_to_f16(v);
    let (a, b) = (
        from_bytes::<u16>(data(inp, 0)),
        from_bytes::<u16>(data(inp, 1)),
    );
    let (mut o, mut d, mut w) = (Vec::new(), Vec::new(), Vec::new());
    for (&xh, &yh) in a.iter().zip(&b) {
        let (x, y) = (f16_to_f32(xh), f16_to_f32(yh));
        // Each f16 operation is done in f32 and rounded once to f16: with 24 >= 2*11+2 bits
        // the double rounding is innocuous, so this is the correctly rounded f16 result.
        o.extend([
            h(x + y),
            h(x - y),
            h(x * y),
            h(x.min(y)),
            h(f16_to_f32(h(x.max(y))) * 2.0),
            h(x.abs() - 0.5),
        ]);
        d.extend([h(x / y), h(x * 1.1f32)]);
        w.push(x * 4.0 + y);
    }
    vec![
        exact(2, to_bytes(&o)),
        Expect {
            resource: 3,
            bytes: to_bytes(&d),
            check: Check::F16 { ulp: 2, abs: 0.0 },
        },
        exact(4, to_bytes(&w)),
    ]
}

fn convert_inputs() -> Inputs {
    let mut r = Rng::new(10);
    let a: Vec<f32> = (0..N).map(|_| r.f32_bits(24, 19)).collect();
    let b: Vec<i32> = (0..N)
        .map(|_| ((r.u32() & !(1 << 14 | 1 << 30)) | (1 << 13 | 1 << 29)) as i32)
        .collect();
    Inputs {
        groups: [N as u32 / 64, 1, 1],
        resources: vec![
            sb(0, to_bytes(&a)),
            sb(1, to_bytes(&b)),
            sb(2, vec![0; N * 10 * 4]),
            sb(3, vec![0; N * 3 * 4]),
        ],
        push: vec![],
        spec: vec![],
    }
}

fn unorm8(c: f32) -> u32 {
    (c.clamp(0.0, 1.0) * 255.0).round() as u32
}

fn convert_expect(inp: &Inputs, _: &Env) -> Vec<Expect> {
    let (a, b) = (
        from_bytes::<f32>(data(inp, 0)),
        from_bytes::<i32>(data(inp, 1)),
    );
    let (mut o, mut u) = (Vec::new(), Vec::new());
    for (&x, &y) in a.iter().zip(&b) {
        let c0 = (y & 255) as f32 / 256.0 + 0.001;
        let s0 = (y & 255) as f32 / 256.0 + 0.00001;
        let snorm = |c: f32| ((c.clamp(-1.0, 1.0) * 32767.0).round() as i16) as u16 as u32;
        o.extend([
            x as i32 as u32,
            x.abs() as u32,
            (y as f32).to_bits(),
            (((y as u32) >> 8) as f32).to_bits(),
            f32_to_f16((y & 1023) as f32 * 0.25) as u32
                | (f32_to_f16(-(((y >> 10) & 255) as f32)) as u32) << 16,
            unorm8(c0) | unorm8(0.25) << 8 | unorm8(1.5) << 16 | unorm8(-0.5) << 24,
            snorm(s0) | snorm(-0.75) << 16,
            (x * 2.0).to_bits(),
            (y as f64 / 4.0) as i32 as u32,
            (f32::from_bits(((y & 0x3fff_ffff) | 0x0100_0000) as u32) + 0.5).to_bits(),
        ]);
        let yu = y as u32;
        let n = |k: u32| ((yu >> (8 * k)) & 255) as f32 / 255.0;
        u.extend([
            f16_to_f32(yu as u16) + f16_to_f32((yu >> 16) as u16),
            n(0) + n(1),
            n(2) * n(3),
        ]);
    }
    vec![
        exact(2, to_bytes(&o)),
        Expect {
            resource: 3,
            bytes: to_bytes(&u),
            check: Check::F32 { ulp: 2, abs: 0.0 },
        },
    ]
}

fn mulext_inputs() -> Inputs {
    let (a, b) = i32_pair(11);
    three(to_bytes(&a), to_bytes(&b), N * 8 * 4)
}

fn mulext_expect(inp: &Inputs, _: &Env) -> Vec<Expect> {
    let (a, b) = (
        from_bytes::<u32>(data(inp, 0)),
        from_bytes::<u32>(data(inp, 1)),
    );
    let mut o = Vec::new();
    for (&x, &y) in a.iter().zip(&b) {
        let p = x as u64 * y as u64;
        let s = (x as i32 as i64) * (y as i32 as i64);
        o.extend([
            (p >> 32) as u32,
            p as u32,
            (s >> 32) as u32,
            s as u32,
            x.wrapping_add(y),
            x.checked_add(y).is_none() as u32,
            x.wrapping_sub(y),
            (x < y) as u32,
        ]);
    }
    vec![exact(2, to_bytes(&o))]
}

fn hash_inputs() -> Inputs {
    let mut r = Rng::new(12);
    let d: Vec<u32> = (0..512).map(|i| if i < 8 { i } else { r.u32() }).collect();
    Inputs {
        groups: [4, 1, 1],
        resources: vec![sb(0, to_bytes(&d))],
        push: vec![],
        spec: vec![],
    }
}

fn pcg(v: u32) -> u32 {
    let state = v.wrapping_mul(747796405).wrapping_add(2891336453);
    let word = ((state >> ((state >> 28) + 4)) ^ state).wrapping_mul(277803737);
    (word >> 22) ^ word
}

fn hash_expect(inp: &Inputs, _: &Env) -> Vec<Expect> {
    let o: Vec<u32> = from_bytes::<u32>(data(inp, 0))
        .into_iter()
        .map(|mut h| {
            for r in 0..8 {
                h = pcg(h ^ r);
                h ^= h << 13;
                h ^= h >> 17;
                h ^= h << 5;
            }
            h
        })
        .collect();
    vec![exact(0, to_bytes(&o))]
}

pub fn cases() -> Vec<Case> {
    vec![
        case!("arith_i32", i32_inputs, i32_expect),
        case!("arith_u32_bits", u32_inputs, u32_expect),
        case!("arith_i64", i64_inputs, i64_expect),
        case!("arith_i16", i16_inputs, i16_expect),
        case!("arith_i8", i8_inputs, i8_expect),
        case!("arith_f32", f32_inputs, f32_expect),
        case!("arith_f32_divsqrt", divsqrt_inputs, divsqrt_expect),
        case!("arith_f64", f64_inputs, f64_expect),
        case!("arith_f16", f16_inputs, f16_expect),
        case!("convert", convert_inputs, convert_expect),
        case!("mul_extended", mulext_inputs, mulext_expect),
        case!("int_hash", hash_inputs, hash_expect),
    ]
}
