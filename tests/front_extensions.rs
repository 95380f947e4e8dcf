//! SPIR-V newer than rspirv's grammar, decoded by the front-end itself
//! (`front::spirv::parse::NewOp`, `NEW_CAPABILITIES`): SPV_VALVE_mixed_float_dot_product.
//! tests/shaders/front/dot2_mix.comp runs on the emulator in every configuration and each
//! lane's results equal the exact dot products computed here; malformed uses are typed
//! errors naming the instruction.

mod backend_support;
mod front_support;

use backend_support::CONFIGS;
use front_support::shader;
use gcnc::isa::{Gen, Target, Wave};
use gcnc::{compile_spirv, Options};
use gcnc_emu::pipeline::{self, Place, Resource, Setup};

/// f16 bits of `q / 4` for a small integer `q` (exact in f16).
fn quarter(q: i32) -> u16 {
    let x = q as f32 / 4.0;
    if x == 0.0 {
        return 0;
    }
    let sign = if x < 0.0 { 0x8000 } else { 0 };
    let bits = x.abs().to_bits();
    let exp = ((bits >> 23) & 0xff) as i32 - 127 + 15;
    let mant = (bits >> 13) & 0x3ff;
    assert!(
        (1..31).contains(&exp) && bits & 0x1fff == 0,
        "{x} is not a plain f16"
    );
    sign | (exp as u16) << 10 | mant as u16
}

/// Lane `i`'s operands as quarters: (a.x, a.y), (b.x, b.y), accumulator.
fn operands(i: i32) -> ([i32; 2], [i32; 2], i32) {
    ([i % 9 - 4, 7 - i % 5], [3 - i % 7, i % 11 - 5], i - 32)
}

#[test]
fn mixed_float_dot_products_are_exact_on_small_values() {
    let words = shader("front/dot2_mix.spv");
    let (mut a, mut b, mut c) = (Vec::new(), Vec::new(), Vec::new());
    for i in 0..64 {
        let (x, y, acc) = operands(i);
        let pack =
            |v: [i32; 2]| (quarter(v[0]) as u32 | (quarter(v[1]) as u32) << 16).to_le_bytes();
        a.extend(pack(x));
        b.extend(pack(y));
        c.extend((acc as f32 / 4.0).to_le_bytes());
    }
    let input: Vec<u8> = [a, b, c].concat();
    for (gen, wave) in CONFIGS {
        let c = compile_spirv(&words, &Options::new(Target::with_wave(gen, wave).unwrap()))
            .unwrap_or_else(|e| panic!("{} {wave:?}: {e}", gen.mcpu()));
        let mut setup = Setup::new([1, 1, 1]);
        setup.wave = Some(wave);
        setup.resources = vec![
            Resource {
                data: input.clone(),
                place: Place::Binding { set: 0, binding: 0 },
            },
            Resource {
                data: vec![0; 512],
                place: Place::Binding { set: 0, binding: 1 },
            },
        ];
        let (ran, _) = pipeline::run_elf(&c.elf, &setup)
            .unwrap_or_else(|e| panic!("{} {wave:?}: {e}", gen.mcpu()));
        let out = ran.resource(1).unwrap();
        let f = |k: usize| f32::from_le_bytes(out[4 * k..4 * k + 4].try_into().unwrap());
        for i in 0..64 {
            let (x, y, acc) = operands(i as i32);
            let want = (x[0] * y[0] + x[1] * y[1]) as f32 / 16.0 + acc as f32 / 4.0;
            assert_eq!(
                f(i),
                want,
                "{} {wave:?} lane {i}: 32-bit accumulator",
                gen.mcpu()
            );
            assert_eq!(
                f(64 + i),
                want,
                "{} {wave:?} lane {i}: 16-bit accumulator",
                gen.mcpu()
            );
        }
    }
}

/// `words` with the first instruction that `pick` accepts rewritten by `with` (same
/// length).
fn patched(words: &[u32], pick: impl Fn(&[u32]) -> bool, with: impl Fn(&mut [u32])) -> Vec<u32> {
    let mut w = words.to_vec();
    let mut at = 5;
    while at < w.len() {
        let wc = (w[at] >> 16) as usize;
        if pick(&w[at..at + wc]) {
            with(&mut w[at..at + wc]);
            return w;
        }
        at += wc;
    }
    panic!("no such instruction")
}

fn opcode(op: u32) -> impl Fn(&[u32]) -> bool {
    move |i| i[0] & 0xffff == op
}

#[test]
fn malformed_uses_are_typed_errors() {
    let words = shader("front/dot2_mix.spv");
    let opts = Options::new(Target::with_wave(Gen::Gfx11, Wave::W32).unwrap());
    let error = |w: &[u32]| compile_spirv(w, &opts).unwrap_err().to_string();
    // the 32-bit-accumulator form given the 16-bit form's operands
    let e = error(&patched(&words, opcode(6917), |i| {
        i[0] = (i[0] & 0xffff_0000) | 6916
    }));
    assert!(
        e.contains("FDot2MixAcc32VALVE") && e.contains("operands must be"),
        "{e}"
    );
    // one operand short
    let e = error(&patched(&words, opcode(6916), |i| {
        i[0] = (i[0] & 0xffff) | 5 << 16;
        i[5] = 1 << 16; // the freed word becomes an OpNop
    }));
    assert!(
        e.contains("FDot2MixAcc32VALVE") && e.contains("needs 6 words"),
        "{e}"
    );
    // a capability of the extension that gcnc does not offer (bfloat16 inputs)
    let bf16 = patched(
        &words,
        |i| i[0] & 0xffff == 17 && i[1] == 6912,
        |i| i[1] = 6914,
    );
    let e = error(&bf16);
    assert!(e.contains("Capability"), "{e}");
}
