//! Real compiler output: small LLVM IR functions compiled by llc-19 (LLVM's AMDGPU
//! backend) for each target, assembled by llvm-mc-19, run on the emulator with 64
//! lanes of inputs, and compared with Rust's own arithmetic. This exercises the
//! expansions compilers actually emit — the f32/f64 division macro (div_scale / rcp /
//! fma / div_fmas / div_fixup), integer division via v_rcp_iflag, 64-bit carry chains,
//! the MODE changes around them — together with the emulator's strictness (LLVM's own
//! hazard and waitcnt handling must pass it).

mod support;

use gcnc::isa::{Gen, Target};
use gcnc_emu::Memory;
use support::*;

fn targets() -> [Target; 3] {
    [
        target(Gen::Gfx9, true),
        target(Gen::Gfx10, false),
        target(Gen::Gfx11, false),
    ]
}

/// Runs `ir` (function `f`, amdgpu_ps, VGPR arguments from v0) with per-lane argument
/// dwords `args[lane]`; returns the first `nret` VGPRs of every lane.
fn run_ir(t: Target, ir: &str, args: &[Vec<u32>], nret: u16) -> Vec<Vec<u32>> {
    let asm = llc_asm(t, ir);
    let code = llvm_asm(t, &asm);
    let lanes = t.wave.lanes() as usize;
    let mut out = Vec::new();
    for chunk in args.chunks(lanes) {
        let mut d = gcnc_emu::Dispatch::new(t, code.clone());
        d.group_size = [chunk.len() as u32, 1, 1];
        d.tgid_en = [false; 3];
        d.tid_dims = 1;
        d.float_mode = 0xc0;
        let mut mem = Memory::new();
        let mut waves = gcnc_emu::dispatch::make_waves(&d, [0; 3]).unwrap();
        let w = &mut waves[0];
        for (lane, a) in chunk.iter().enumerate() {
            for (k, &v) in a.iter().enumerate() {
                w.regs.set_v(k as u16, lane as u32, v).unwrap();
            }
        }
        let mut prog = gcnc_emu::wave::Program::new(t, code.clone(), d.code_base);
        let mut lds = gcnc_emu::memory::Lds::new(0);
        while w.status != gcnc_emu::wave::Status::Ended {
            let mut env = gcnc_emu::wave::Env {
                prog: &mut prog,
                mem: &mut mem,
                lds: &mut lds,
                checks: d.checks,
                exports: None,
            };
            if let Err(e) = w.step(&mut env) {
                panic!("{}: {e}\n{asm}", t.gen);
            }
        }
        for lane in 0..chunk.len() {
            out.push((0..nret).map(|k| w.regs.v(k, lane as u32)).collect());
        }
    }
    out
}

fn f32_inputs() -> Vec<(f32, f32)> {
    let vals = [
        1.0f32,
        -3.0,
        7.5,
        0.1,
        1e30,
        -1e-30,
        3.4e38,
        1.2e-38,
        0.0,
        -0.0,
        f32::INFINITY,
        f32::NAN,
        123456.78,
        -0.333,
    ];
    let mut v = Vec::new();
    for &a in &vals {
        for &b in &vals {
            v.push((a, b));
        }
    }
    v
}

fn same(a: f32, b: f32) -> bool {
    (a.is_nan() && b.is_nan()) || a.to_bits() == b.to_bits()
}

#[test]
fn f32_division_macro_is_correctly_rounded() {
    if !llc() {
        return;
    }
    let ir = "define amdgpu_ps float @f(float %a, float %b) {\n  %r = fdiv float %a, %b\n  ret float %r\n}\n";
    let inputs = f32_inputs();
    let args: Vec<Vec<u32>> = inputs
        .iter()
        .map(|(a, b)| vec![a.to_bits(), b.to_bits()])
        .collect();
    for t in targets() {
        let out = run_ir(t, ir, &args, 1);
        for ((a, b), r) in inputs.iter().zip(&out) {
            let got = f32::from_bits(r[0]);
            let mut want = a / b;
            if want.is_subnormal() {
                // the function runs with f32 denormals flushed (FLOAT_MODE 0xC0)
                want = 0.0f32.copysign(want);
            }
            assert!(
                same(got, want) || (want == 0.0 && got == 0.0),
                "{}: {a:e} / {b:e} = {got:e}, want {want:e}",
                t.gen
            );
        }
    }
}

#[test]
fn f64_division_macro_is_correctly_rounded() {
    if !llc() {
        return;
    }
    let ir = "define amdgpu_ps <2 x float> @f(double %a, double %b) {\n  %r = fdiv double %a, %b\n  %c = bitcast double %r to <2 x float>\n  ret <2 x float> %c\n}\n";
    let vals = [
        1.0f64,
        -3.0,
        0.1,
        1e300,
        1e-300,
        7.0,
        f64::INFINITY,
        0.0,
        2.5e-310,
        -123.456,
    ];
    let mut inputs = Vec::new();
    for &a in &vals {
        for &b in &vals {
            inputs.push((a, b));
        }
    }
    let args: Vec<Vec<u32>> = inputs
        .iter()
        .map(|(a, b)| {
            vec![
                a.to_bits() as u32,
                (a.to_bits() >> 32) as u32,
                b.to_bits() as u32,
                (b.to_bits() >> 32) as u32,
            ]
        })
        .collect();
    for t in targets() {
        let out = run_ir(t, ir, &args, 2);
        for ((a, b), r) in inputs.iter().zip(&out) {
            let got = f64::from_bits(r[0] as u64 | (r[1] as u64) << 32);
            let want = a / b;
            assert!(
                (got.is_nan() && want.is_nan()) || got.to_bits() == want.to_bits(),
                "{}: {a:e} / {b:e} = {got:e}, want {want:e}",
                t.gen
            );
        }
    }
}

#[test]
fn integer_division_and_64_bit_arithmetic() {
    if !llc() {
        return;
    }
    let ir = "define amdgpu_ps <4 x float> @f(i32 %a, i32 %b, i32 %c, i32 %d) {\n\
      %q = udiv i32 %a, %b\n  %r = srem i32 %a, %b\n\
      %x = zext i32 %a to i64\n  %y = zext i32 %c to i64\n  %hx = shl i64 %y, 32\n  %n = or i64 %hx, %x\n\
      %dd = zext i32 %d to i64\n  %m = mul i64 %n, %dd\n  %q64 = udiv i64 %n, %dd\n\
      %m32 = trunc i64 %m to i32\n  %q32 = trunc i64 %q64 to i32\n\
      %v0 = insertelement <4 x i32> undef, i32 %q, i32 0\n  %v1 = insertelement <4 x i32> %v0, i32 %r, i32 1\n\
      %v2 = insertelement <4 x i32> %v1, i32 %m32, i32 2\n  %v3 = insertelement <4 x i32> %v2, i32 %q32, i32 3\n\
      %f = bitcast <4 x i32> %v3 to <4 x float>\n  ret <4 x float> %f\n}\n";
    let mut inputs = Vec::new();
    let mut x = 0x1234_5678u32;
    for i in 0..128u32 {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        let b = if i % 3 == 0 { x >> (i % 31) } else { x % 1000 } | 1;
        let d = (x.rotate_left(7) >> (i % 29)) | 1;
        inputs.push([x.wrapping_mul(2654435761), b, x.rotate_left(11), d]);
    }
    inputs.push([u32::MAX, 1, u32::MAX, 1]);
    inputs.push([0x8000_0000, 0xffff_ffff, 0, 3]);
    let args: Vec<Vec<u32>> = inputs.iter().map(|a| a.to_vec()).collect();
    for t in targets() {
        let out = run_ir(t, ir, &args, 4);
        for (a, r) in inputs.iter().zip(&out) {
            let n = (a[2] as u64) << 32 | a[0] as u64;
            let want = [
                a[0] / a[1],
                (a[0] as i32).wrapping_rem(a[1] as i32) as u32,
                n.wrapping_mul(a[3] as u64) as u32,
                (n / a[3] as u64) as u32,
            ];
            assert_eq!(r.as_slice(), want.as_slice(), "{}: inputs {a:x?}", t.gen);
        }
    }
}

#[test]
fn conversions_and_sqrt() {
    if !llc() {
        return;
    }
    let ir = "define amdgpu_ps <3 x float> @f(float %a) {\n\
      %s = call float @llvm.sqrt.f32(float %a)\n  %i = fptosi float %a to i32\n  %u = fptoui float %a to i32\n\
      %fi = bitcast i32 %i to float\n  %fu = bitcast i32 %u to float\n\
      %v0 = insertelement <3 x float> undef, float %s, i32 0\n  %v1 = insertelement <3 x float> %v0, float %fi, i32 1\n\
      %v2 = insertelement <3 x float> %v1, float %fu, i32 2\n  ret <3 x float> %v2\n}\n\
      declare float @llvm.sqrt.f32(float)\n";
    let vals = [
        0.0f32,
        2.0,
        1e-20,
        3.7,
        1e30,
        65536.5,
        0.25,
        1.5e-38,
        123.456,
        -7.9,
        2147483520.0,
    ];
    let args: Vec<Vec<u32>> = vals.iter().map(|a| vec![a.to_bits()]).collect();
    for t in targets() {
        let out = run_ir(t, ir, &args, 3);
        for (a, r) in vals.iter().zip(&out) {
            let s = f32::from_bits(r[0]);
            if *a >= 0.0 {
                let want = (*a as f64).sqrt() as f32;
                let ulps = (s.to_bits() as i64 - want.to_bits() as i64).abs();
                assert!(ulps <= 1, "{}: sqrt {a:e} = {s:e}, want {want:e}", t.gen);
            }
            if a.abs() < 2e9 {
                assert_eq!(r[1] as i32, *a as i32, "{}: fptosi {a}", t.gen);
            }
            if *a >= 0.0 && *a < 4e9 {
                assert_eq!(r[2], *a as u32, "{}: fptoui {a}", t.gen);
            }
        }
    }
}

/// An llc-19 compiled compute shader with a buffer load through a V#, LDS traffic between
/// lanes and a global store: LLVM's own waitcnt placement must satisfy the emulator's
/// default checks. The optional WAR rule rejects it (LLVM reuses a DS address register
/// while the store is pending — legal, the hardware reads it at issue); that is why the
/// rule is off by default.
#[test]
fn compute_shader_with_buffer_lds_and_global_memory() {
    if !llc() {
        return;
    }
    let ir = "@lds = internal addrspace(3) global [64 x i32] undef, align 4\n\
      define amdgpu_cs void @f(ptr addrspace(1) inreg %out, <4 x i32> inreg %rsrc, i32 %id) {\n\
      %off = shl i32 %id, 2\n\
      %v = call i32 @llvm.amdgcn.raw.buffer.load.i32(<4 x i32> %rsrc, i32 %off, i32 0, i32 0)\n\
      %m = mul i32 %v, 3\n\
      %g = getelementptr [64 x i32], ptr addrspace(3) @lds, i32 0, i32 %id\n\
      store i32 %m, ptr addrspace(3) %g\n\
      fence syncscope(\"wavefront\") seq_cst\n\
      %x = xor i32 %id, 1\n\
      %g2 = getelementptr [64 x i32], ptr addrspace(3) @lds, i32 0, i32 %x\n\
      %n = load i32, ptr addrspace(3) %g2\n\
      %s = add i32 %n, %v\n\
      %o = getelementptr i32, ptr addrspace(1) %out, i32 %id\n\
      store i32 %s, ptr addrspace(1) %o\n\
      ret void\n}\n\
      declare i32 @llvm.amdgcn.raw.buffer.load.i32(<4 x i32>, i32, i32, i32)\n";
    for t in targets() {
        let asm = llc_asm(t, ir);
        let code = llvm_asm(t, &asm);
        let (inb, outb) = (0x10_0000u64, 0x20_0000u64);
        let mut mem = Memory::new();
        mem.map(inb, 256);
        mem.map(outb, 256);
        for i in 0..64u32 {
            mem.write_u32(inb + 4 * i as u64, 7 * i + 1).unwrap();
        }
        let mut user = vec![outb as u32, (outb >> 32) as u32];
        // 40 bytes in range: lanes >= 10 load 0
        user.extend(gcnc_emu::BufferDesc::raw(t.gen, inb, 40));
        let lanes = t.wave.lanes();
        run_cfg(t, code, lanes, &user, &mut mem, |d| d.lds_bytes = 256)
            .unwrap_or_else(|e| panic!("{}: {e}\n{asm}", t.gen));
        let input = |i: u32| if i < 10 { 7 * i + 1 } else { 0 };
        for i in 0..lanes {
            let want = 3 * input(i ^ 1) + input(i);
            assert_eq!(
                mem.read_u32(outb + 4 * i as u64).unwrap(),
                want,
                "{} lane {i}",
                t.gen
            );
        }
        let war = gcnc_emu::Checks {
            war: true,
            ..Default::default()
        };
        let e = run_cfg(t, llvm_asm(t, &asm), lanes, &user, &mut mem, |d| {
            d.lds_bytes = 256;
            d.checks = war;
        })
        .unwrap_err();
        assert!(
            matches!(
                e.kind,
                gcnc_emu::ErrorKind::MissingWait {
                    overwrite: true,
                    ..
                }
            ),
            "{}: {e}",
            t.gen
        );
    }
}

/// GFX11 dual issue: llc-19 pairs independent f32 ops into VOPD; and a hand-written VOPD
/// swap shows both halves read before either writes.
#[test]
fn vopd_dual_issue() {
    if !llc() {
        return;
    }
    let t = target(Gen::Gfx11, false);
    let ir = "define amdgpu_ps <4 x float> @f(float %a, float %b, float %c, float %d) {\n\
      %x = fmul float %a, %b\n  %y = fadd float %c, %d\n  %z = fmul float %c, %a\n  %w = fadd float %d, %b\n\
      %v0 = insertelement <4 x float> undef, float %x, i32 0\n  %v1 = insertelement <4 x float> %v0, float %y, i32 1\n\
      %v2 = insertelement <4 x float> %v1, float %z, i32 2\n  %v3 = insertelement <4 x float> %v2, float %w, i32 3\n\
      ret <4 x float> %v3\n}\n";
    assert!(
        llc_asm(t, ir).contains("v_dual_"),
        "llc-19 pairs these into VOPD"
    );
    let vals: Vec<[f32; 4]> = (0..32)
        .map(|i| [i as f32 * 0.5, 3.0 - i as f32, 1e-3 * i as f32, 7.25])
        .collect();
    let args: Vec<Vec<u32>> = vals
        .iter()
        .map(|v| v.iter().map(|x| x.to_bits()).collect())
        .collect();
    let out = run_ir(t, ir, &args, 4);
    for (v, r) in vals.iter().zip(&out) {
        let want = [v[0] * v[1], v[2] + v[3], v[2] * v[0], v[3] + v[1]];
        let got: Vec<f32> = r.iter().map(|&b| f32::from_bits(b)).collect();
        assert_eq!(got, want.to_vec());
    }
    let code = llvm_asm(t, "  v_mov_b32_e32 v0, 1\n  v_mov_b32_e32 v1, 2\n  v_dual_mov_b32 v0, v1 :: v_dual_mov_b32 v1, v0\n  s_endpgm\n");
    let w = run(t, code, 32, &[], &mut Memory::new()).unwrap();
    assert_eq!(
        (w[0].regs.v(0, 5), w[0].regs.v(1, 5)),
        (2, 1),
        "swapped, not copied"
    );
}

/// llc-19 control flow: a divergent branch and a per-lane loop over a buffer, reading
/// through a global pointer and writing results — LLVM's exec-mask code and waits.
#[test]
fn compiled_divergent_loops() {
    if !llc() {
        return;
    }
    let ir = "define amdgpu_cs void @f(ptr addrspace(1) inreg %in, ptr addrspace(1) inreg %out, i32 %id) {\n\
      entry:\n  %n = and i32 %id, 7\n  %odd = and i32 %id, 1\n  %c = icmp eq i32 %odd, 0\n  br i1 %c, label %loop, label %other\n\
      loop:\n  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]\n  %acc = phi i32 [ 0, %entry ], [ %acc1, %loop ]\n\
      %p = getelementptr i32, ptr addrspace(1) %in, i32 %i\n  %v = load i32, ptr addrspace(1) %p\n\
      %acc1 = add i32 %acc, %v\n  %i1 = add i32 %i, 1\n  %done = icmp ugt i32 %i1, %n\n  br i1 %done, label %exit, label %loop\n\
      other:\n  %m = mul i32 %id, 1000\n  br label %exit\n\
      exit:\n  %r = phi i32 [ %acc1, %loop ], [ %m, %other ]\n\
      %o = getelementptr i32, ptr addrspace(1) %out, i32 %id\n  store i32 %r, ptr addrspace(1) %o\n  ret void\n}\n";
    for t in targets() {
        let asm = llc_asm(t, ir);
        let (inb, outb) = (0x10_0000u64, 0x20_0000u64);
        let mut mem = Memory::new();
        mem.map(inb, 64);
        mem.map(outb, 256);
        for i in 0..16u32 {
            mem.write_u32(inb + 4 * i as u64, i * i + 3).unwrap();
        }
        let user = [
            inb as u32,
            (inb >> 32) as u32,
            outb as u32,
            (outb >> 32) as u32,
        ];
        let lanes = t.wave.lanes();
        run(t, llvm_asm(t, &asm), lanes, &user, &mut mem)
            .unwrap_or_else(|e| panic!("{}: {e}\n{asm}", t.gen));
        for id in 0..lanes {
            let want = if id % 2 == 0 {
                (0..=(id & 7)).map(|i| i * i + 3).sum::<u32>()
            } else {
                id * 1000
            };
            assert_eq!(
                mem.read_u32(outb + 4 * id as u64).unwrap(),
                want,
                "{} lane {id}",
                t.gen
            );
        }
    }
}
