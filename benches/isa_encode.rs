//! Encoder/decoder throughput: every table entry of every generation, built once, encoded
//! and decoded in a loop (the JIT's hot path is `encode_into`: table lookup + bit packing).

use criterion::{criterion_group, criterion_main, Criterion};
use gcnc::isa::*;

fn sample(t: Target) -> Vec<Inst> {
    let mut out = Vec::new();
    for d in tables::encodings(t.gen) {
        if matches!(d.format, Format::VopdX | Format::VopdY) {
            continue;
        }
        let mut ops = Vec::new();
        let (mut s, mut v) = (8u16, 1u16);
        for od in d.explicit() {
            let n = od.dwords(t.wave);
            ops.push(if let Some(k) = od.imm {
                match k {
                    ImmKind::Lit => Operand::Literal(0x1234),
                    ImmKind::Waitcnt | ImmKind::Delay | ImmKind::Depctr => Operand::Imm(0),
                    _ => Operand::Imm(1),
                }
            } else if od.sgpr
                || od.size == 0
                || matches!(
                    od.field,
                    Field::Sdst | Field::Ssrc0 | Field::Ssrc1 | Field::Sdata | Field::Sbase
                )
            {
                s = s.div_ceil(n.min(4) as u16) * n.min(4) as u16;
                s += n as u16;
                Operand::Reg(Reg::s(s - n as u16, n))
            } else if od.field == Field::K {
                Operand::Literal(0x1234)
            } else {
                v += n as u16;
                Operand::Reg(Reg::v(v - n as u16, n))
            });
        }
        let i = Inst::new(d.opcode, d.format, &ops);
        if i.verify(t).is_ok() {
            out.push(i);
        }
    }
    out
}

fn bench(c: &mut Criterion) {
    let t = Target::new(Gen::Gfx11);
    let insts = sample(t);
    let mut words = Vec::with_capacity(insts.len() * 3);
    let mut fixups = Vec::new();
    c.bench_function(
        &format!("encode {} gfx1100 instructions", insts.len()),
        |b| {
            b.iter(|| {
                words.clear();
                for i in &insts {
                    encode_into(i, t, &mut words, &mut fixups).unwrap();
                }
                words.len()
            })
        },
    );
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    c.bench_function("decode them", |b| {
        b.iter(|| decode_all(&bytes, t).unwrap().len())
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
