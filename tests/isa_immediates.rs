//! The structured 16-bit immediates (s_waitcnt counters, hwreg, sendmsg, s_delay_alu,
//! gpr_idx, plain SOPP/SOPK numbers) over many values: our text must be llvm-mc's
//! disassembly of the same bytes, and our parser must read the text back to bytes that
//! print the same.

mod support;

use gcnc::isa::*;

fn check(
    t: Target,
    op: Opcode,
    format: Format,
    make: &dyn Fn(u32) -> Vec<Operand>,
    values: &[u32],
) -> usize {
    let Some(mc) = support::llvm_mc() else {
        return 0;
    };
    let mut insts = Vec::new();
    for &v in values {
        let inst = Inst::new(op, format, &make(v));
        if inst.verify(t).is_ok() {
            insts.push(inst);
        }
    }
    let bytes: Vec<Vec<u8>> = insts.iter().map(|i| encode(i, t).unwrap()).collect();
    let wave = (t.gen != Gen::Gfx9).then_some(t.wave.lanes());
    let llvm = support::disassemble(&mc, t.gen.mcpu(), wave, &bytes);
    let mut bad = Vec::new();
    for (inst, l) in insts.iter().zip(&llvm) {
        let ours = print(inst, t).unwrap();
        if l.as_deref() != Some(ours.as_str()) {
            bad.push(format!("{:?}: ours `{ours}`, llvm {l:?}", inst.operands));
            continue;
        }
        if ours.contains("/*") {
            continue; // LLVM's marker for an invalid field: not assembly anyone can write
        }
        let back = parse_line(&ours, 1, t)
            .unwrap_or_else(|e| panic!("`{ours}`: {e}"))
            .unwrap();
        assert_eq!(print(&back, t).unwrap(), ours);
    }
    assert!(
        bad.is_empty(),
        "{} on {}: {} mismatches, e.g.\n{}",
        op.name(),
        t.gen,
        bad.len(),
        bad[..bad.len().min(10)].join("\n")
    );
    insts.len()
}

fn spread(n: u32, limit: u32) -> Vec<u32> {
    let mut x = 0x2545f491u32;
    let mut v: Vec<u32> = (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x % limit
        })
        .collect();
    v.extend([0, 1, limit - 1]);
    v
}

#[test]
fn structured_immediates_print_like_llvm() {
    let mut total = 0;
    for gen in Gen::ALL {
        let t = Target::new(gen);
        let imm = |v: u32| vec![Operand::Imm(v)];
        let sdst_imm = |v: u32| vec![Operand::Reg(Reg::s(4, 1)), Operand::Imm(v)];
        total += check(
            t,
            Opcode::SWaitcnt,
            Format::Sopp,
            &imm,
            &spread(400, 0x10000),
        );
        total += check(
            t,
            Opcode::SGetregB32,
            Format::Sopk,
            &sdst_imm,
            &spread(400, 0x10000),
        );
        total += check(
            t,
            Opcode::SSendmsg,
            Format::Sopp,
            &imm,
            &(0..1024).collect::<Vec<_>>(),
        );
        total += check(t, Opcode::SNop, Format::Sopp, &imm, &spread(100, 0x10000));
        total += check(
            t,
            Opcode::SBranch,
            Format::Sopp,
            &imm,
            &spread(100, 0x10000),
        );
        total += check(
            t,
            Opcode::SMovkI32,
            Format::Sopk,
            &sdst_imm,
            &spread(100, 0x10000),
        );
        if gen == Gen::Gfx11 {
            total += check(
                t,
                Opcode::SDelayAlu,
                Format::Sopp,
                &imm,
                &(0..0x800).collect::<Vec<_>>(),
            );
        }
        if gen != Gen::Gfx9 {
            let vals: Vec<u32> = spread(600, 0x10000)
                .into_iter()
                .map(|v| if v & 1 == 0 { v & !0x60 } else { v })
                .collect();
            total += check(t, Opcode::SWaitcntDepctr, Format::Sopp, &imm, &vals);
        }
        if gen == Gen::Gfx9 {
            total += check(
                t,
                Opcode::SSetGprIdxMode,
                Format::Sopp,
                &imm,
                &(0..64).collect::<Vec<_>>(),
            );
        }
    }
    println!("{total} immediates checked");
}
