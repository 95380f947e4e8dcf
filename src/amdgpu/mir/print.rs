//! Text form of machine IR, for tests and `--print-mir` style debugging.
//!
//! ```text
//! BB1: ; logical preds BB0, linear preds BB0, linear succs BB2 BB3
//!   %4:s2 = s_load_dwordx2 %0:s2, imm:0x10
//!   %5:v1 = v_add_f32 %3:v1, 1.0
//! ```
//! Temps print as `%N:class`, physical registers in LLVM syntax, constants as `0x…`
//! (or decimal below 4096), raw immediates as `imm:0x…`, labels as `BBn`. Deterministic:
//! the output depends only on the program.

use super::{Arg, MInst, Op, Program};
use crate::isa::reg::RegDisplay;
use std::fmt::Write;

fn arg(p: &Program, a: &Arg) -> String {
    match *a {
        Arg::Temp(t) => format!("%{}:{}", t.0, p.rc(t).name()),
        Arg::Reg(r) => RegDisplay {
            gen: p.target.gen,
            reg: r,
        }
        .to_string(),
        Arg::Const(c) if c < 4096 => format!("{c}"),
        Arg::Const(c) => format!("0x{c:x}"),
        Arg::Imm(c) => format!("imm:0x{c:x}"),
        Arg::Label(b) => format!("BB{}", b.0),
        Arg::Symbol(k) => match p.symbols.get(k as usize) {
            Some(s) => format!("{}@abs32@lo", s.name()),
            None => format!("<bad symbol {k}>"),
        },
        Arg::Off => "off".into(),
    }
}

/// One instruction.
pub fn print_inst(p: &Program, i: &MInst) -> String {
    if let Some((x, y)) = i.vopd_halves(p.target.gen) {
        return format!("{} :: {}", print_inst(p, &x), print_inst(p, &y));
    }
    let name = match i.op {
        Op::Hw(o, f) => {
            let mut n = o.name().to_string();
            if matches!(f, crate::isa::Format::Vop3) {
                // Real VOP3-encoded forms of VOP1/2/C print with their suffix so the
                // chosen encoding is visible.
                if crate::isa::tables::form(p.target.gen, o, crate::isa::Format::Vop2).is_some()
                    || crate::isa::tables::form(p.target.gen, o, crate::isa::Format::Vop1).is_some()
                    || crate::isa::tables::form(p.target.gen, o, crate::isa::Format::Vopc).is_some()
                {
                    n.push_str("_e64");
                }
            }
            n
        }
        Op::Pseudo(q) => q.name().into(),
    };
    let mut s = String::new();
    if !i.defs.is_empty() {
        let d: Vec<String> = i.defs.iter().map(|a| arg(p, a)).collect();
        write!(s, "{} = ", d.join(", ")).unwrap();
    }
    s.push_str(&name);
    let o: Vec<String> = i.ops.iter().map(|a| arg(p, a)).collect();
    if !o.is_empty() {
        write!(s, " {}", o.join(", ")).unwrap();
    }
    let m = &i.mods;
    if m.offset != 0 {
        write!(s, " offset:{}", m.offset).unwrap();
    }
    if m.neg != 0 {
        write!(s, " neg:{}", m.neg).unwrap();
    }
    if m.abs != 0 {
        write!(s, " abs:{}", m.abs).unwrap();
    }
    if m.clamp {
        s.push_str(" clamp");
    }
    s
}

fn list(v: &[super::BlockId]) -> String {
    v.iter()
        .map(|b| format!("BB{}", b.0))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The whole program.
pub fn print_program(p: &Program) -> String {
    let mut s = String::new();
    writeln!(
        s,
        "program {} wave{}",
        p.target.gen.mcpu(),
        p.target.wave.lanes()
    )
    .unwrap();
    for (t, r) in &p.precolored {
        writeln!(
            s,
            "  precolored %{}:{} = {}",
            t.0,
            p.rc(*t).name(),
            RegDisplay {
                gen: p.target.gen,
                reg: crate::isa::Reg {
                    base: *r,
                    count: p.rc(*t).dwords
                }
            }
        )
        .unwrap();
    }
    for (i, b) in p.blocks.iter().enumerate() {
        writeln!(
            s,
            "BB{i}: ; loop_depth {}, logical preds [{}] succs [{}], linear preds [{}] succs [{}]",
            b.loop_depth,
            list(&b.logical_preds),
            list(&b.logical_succs),
            list(&b.linear_preds),
            list(&b.linear_succs)
        )
        .unwrap();
        for inst in &b.insts {
            writeln!(s, "  {}", print_inst(p, inst)).unwrap();
        }
    }
    s
}
