//! Every instruction the decoder knows, on every generation and wave size, executed once
//! with every register written beforehand: the emulator must either run it or return an
//! error — never panic. Also prints how many opcodes have no semantics yet, so the gap is
//! visible rather than hidden (`cargo test -p gcnc-emu --test coverage -- --nocapture`
//! lists them), and fails when an opcode the backend can emit is among them.

mod support;

use gcnc::isa::tables::{encodings, EncDesc, Field, ImmKind, OPCODES};
use gcnc::isa::{self, Gen, Inst, Opcode, Operand, Props, Reg, Target, Wave};
use gcnc_emu::dispatch::{run_workgroup, Dispatch};
use gcnc_emu::{ErrorKind, Memory};
use std::collections::BTreeSet;
use support::*;

fn operands(d: &EncDesc, t: Target) -> Vec<Operand> {
    let mut out = Vec::new();
    for od in d.explicit() {
        if let Some(k) = od.imm {
            out.push(match k {
                ImmKind::Lit => Operand::Literal(0x3f80_0000),
                ImmKind::Waitcnt => Operand::Imm(0),
                _ => Operand::Imm(0),
            });
            continue;
        }
        let n = od.dwords(t.wave);
        let sgpr = |b: u16| Operand::Reg(Reg::s(b, n));
        let vgpr = |b: u16| Operand::Reg(Reg::v(b, n));
        out.push(match od.field {
            Field::Vdst if od.sgpr || od.size == 0 => sgpr(20),
            Field::Vdst => vgpr(10),
            Field::Sdst => sgpr(24),
            Field::Src0 | Field::Src1 | Field::Src2 if od.size == 0 => sgpr(40),
            Field::Src0 => vgpr(30),
            Field::Src1 => vgpr(34),
            Field::Src2 => vgpr(38),
            Field::Vsrc1 => vgpr(44),
            Field::Ssrc0 => sgpr(48),
            Field::Ssrc1 => sgpr(52),
            Field::Sdata => sgpr(56),
            Field::Sbase => Operand::Reg(Reg::s(2, n)),
            Field::K => Operand::Literal(0x4000_0000),
            Field::Addr => vgpr(5),
            Field::Data0 => vgpr(6),
            Field::Data1 => vgpr(8),
            Field::Vdata => vgpr(12),
            Field::Vaddr
                if d.format == gcnc::isa::Format::Mubuf || d.format == gcnc::isa::Format::Mtbuf =>
            {
                Operand::Off
            }
            Field::Vaddr => vgpr(16),
            Field::Srsrc => Operand::Reg(Reg::s(8, n)),
            Field::Ssamp => Operand::Reg(Reg::s(16, n)),
            Field::Soffset => Operand::Inline(128),
            Field::Saddr => Operand::Reg(Reg::s(0, n)),
            _ => Operand::Imm(0),
        });
    }
    out
}

/// Code that writes every SGPR, M0, VCC, SCC and VGPR with varied values.
fn prologue(t: Target) -> Vec<u8> {
    let mut src = String::new();
    let max_s = if t.gen == Gen::Gfx9 { 102 } else { 106 };
    for s in 0..max_s {
        src.push_str(&format!(
            "s_mov_b32 s{s}, {:#x}\n",
            0x9e37_79b9u32.wrapping_mul(s + 1) >> 1
        ));
    }
    src.push_str("s_mov_b32 m0, 0x10\ns_mov_b32 vcc_lo, 0x55555555\ns_mov_b32 vcc_hi, 0x33333333\ns_cmp_eq_u32 s0, s0\n");
    for v in 0..64 {
        src.push_str(&format!("v_mov_b32_e32 v{v}, s{}\n", v % 100));
    }
    ours(t, &src)
}

#[test]
fn every_opcode_runs_or_reports_never_panics() {
    let mut report = String::new();
    let named = backend_opcodes();
    assert!(
        named.len() > 100,
        "the source scan found only {} opcodes",
        named.len()
    );
    let mut gaps = Vec::new();
    for (gen, w64) in [
        (Gen::Gfx9, true),
        (Gen::Gfx10, false),
        (Gen::Gfx10, true),
        (Gen::Gfx11, false),
        (Gen::Gfx11, true),
    ] {
        let t = target(gen, w64);
        let pro = prologue(t);
        let (mut ran, mut errs, mut unimpl, mut skipped) = (0, 0, Vec::new(), 0);
        let mut unimpl_ops = BTreeSet::new();
        for d in encodings(gen) {
            let props = d.opcode.props();
            if !(props.contains(Props::SALU)
                || props.contains(Props::VALU)
                || props.contains(Props::SMEM)
                || gcnc_emu::wave::is_mem_format(d.format))
            {
                continue;
            }
            let mut inst = Inst::new(d.opcode, d.format, &operands(d, t));
            if d.mem.contains(gcnc::isa::tables::MemFlags::RTN) {
                inst.mods.glc = true;
            }
            if d.format == gcnc::isa::Format::Mimg {
                inst.mods.mem.dmask = 0xf;
            }
            let Ok(bytes) = isa::encode(&inst, t) else {
                skipped += 1;
                continue;
            };
            let mut code = pro.clone();
            code.extend(bytes);
            code.extend(ours(t, "s_endpgm\n"));
            let mut disp = Dispatch::new(t, code);
            disp.group_size = [t.wave.lanes(), 1, 1];
            disp.tgid_en = [false; 3];
            disp.tid_dims = 1;
            disp.vgprs = 64;
            disp.budget = 2000;
            disp.lds_bytes = 1024;
            disp.scratch_bytes = 64;
            let mut mem = Memory::new();
            mem.map(0, 1 << 20);
            match run_workgroup(&disp, &mut mem, [0; 3]) {
                Ok(_) => ran += 1,
                Err(e) => match e.kind {
                    ErrorKind::Unimplemented(_) => {
                        unimpl.push(d.mnemonic);
                        unimpl_ops.insert(d.opcode);
                    }
                    _ => errs += 1,
                },
            }
        }
        unimpl.sort();
        unimpl.dedup();
        let emitted = emitted_on(&named, t);
        let gap: Vec<&str> = unimpl_ops
            .intersection(&emitted)
            .map(|o| o.name())
            .collect();
        if !gap.is_empty() {
            gaps.push(format!("{gen} wave{}: {}", t.wave.lanes(), gap.join(" ")));
        }
        report.push_str(&format!(
            "{gen} wave{}: ran {ran}, reported an error {errs}, no semantics {}, not encodable with plain operands {skipped}\n  missing: {}\n  missing and emittable by the backend: {}\n",
            t.wave.lanes(),
            unimpl.len(),
            unimpl.join(" "),
            if gap.is_empty() { "none".to_string() } else { gap.join(" ") }
        ));
    }
    println!("{report}");
    assert!(
        gaps.is_empty(),
        "the backend can emit opcodes the emulator has no semantics for:\n{}",
        gaps.join("\n")
    );
}

/// The opcodes the backend names: every `Opcode::Xxx` variant path in src/amdgpu and
/// src/parts outside `#[cfg(test)]` (the backend builds instructions only from such paths;
/// no opcode is looked up by name there, and a path that is no opcode fails the test).
fn backend_opcodes() -> BTreeSet<Opcode> {
    fn walk(dir: &std::path::Path, out: &mut Vec<String>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .flatten()
            .map(|e| e.path())
            .collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "rs") {
                let text = std::fs::read_to_string(&p).unwrap();
                let code = text.split("#[cfg(test)]").next().unwrap_or("");
                out.push(code.to_string());
            }
        }
    }
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut texts = Vec::new();
    walk(&root.join("src/amdgpu"), &mut texts);
    walk(&root.join("src/parts"), &mut texts);
    let camel = |n: &str| -> String {
        n.split('_')
            .map(|p| {
                let mut c = p.chars();
                c.next()
                    .map_or(String::new(), |f| f.to_uppercase().chain(c).collect())
            })
            .collect()
    };
    let by_ident: std::collections::BTreeMap<String, Opcode> =
        OPCODES.iter().map(|&o| (camel(o.name()), o)).collect();
    let mut out = BTreeSet::new();
    for t in &texts {
        for (k, _) in t.match_indices("Opcode::") {
            let ident: String = t[k + "Opcode::".len()..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric())
                .collect();
            if !ident.starts_with(|c: char| c.is_ascii_uppercase()) {
                continue; // a method (`Opcode::on`), not a variant
            }
            let o = by_ident
                .get(&ident)
                .unwrap_or_else(|| panic!("Opcode::{ident} is not an opcode"));
            out.insert(*o);
        }
    }
    out
}

/// What the backend can emit for `t` from the opcodes it names: each one as resolved for
/// the generation (`Opcode::on`), and in wave64 also its 64-bit twin (lane-mask operations
/// name the 32-bit form and follow the wave size; taking every twin over-approximates).
fn emitted_on(named: &BTreeSet<Opcode>, t: Target) -> BTreeSet<Opcode> {
    let mut out = BTreeSet::new();
    for &o in named {
        out.extend(o.on(t.gen));
        if t.wave == Wave::W64 {
            out.extend(o.wide().and_then(|w| w.on(t.gen)));
        }
    }
    out
}

/// Random code words (seeded): whatever they decode to, running them ends in Ok or an
/// `Error` within the budget — never a panic, never a hang.
#[test]
fn random_code_never_panics() {
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let mut outcomes = std::collections::BTreeMap::new();
    for (gen, w64) in [(Gen::Gfx9, true), (Gen::Gfx10, false), (Gen::Gfx11, true)] {
        let t = target(gen, w64);
        let pro = prologue(t);
        for _ in 0..400 {
            let mut code = pro.clone();
            for _ in 0..8 {
                let w = next() as u32;
                code.extend(w.to_le_bytes());
            }
            let mut d = Dispatch::new(t, code);
            d.group_size = [t.wave.lanes(), 1, 1];
            d.tgid_en = [false; 3];
            d.tid_dims = 1;
            d.vgprs = 64;
            d.budget = 1000;
            let mut mem = Memory::new();
            mem.map(0, 1 << 16);
            let k = match run_workgroup(&d, &mut mem, [0; 3]) {
                Ok(_) => "ok".to_string(),
                Err(e) => format!("{:?}", std::mem::discriminant(&e.kind)),
            };
            *outcomes.entry(k).or_insert(0u32) += 1;
        }
    }
    println!("{outcomes:?}");
}
