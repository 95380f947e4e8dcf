//! Shared helpers for the backend tests: compiling the IR test shaders and building MIR
//! from assembly. The oracle rule (llvm-objdump-19, llvm-readelf-19) and the tool/temp
//! helpers come from `tests/support` (re-exported here).
#![allow(dead_code)]

#[path = "../support/mod.rs"]
pub mod support;

#[allow(unused_imports)]
pub use support::{oracle, run_status, temp_path};

use gcnc::isa::{Gen, Target, Wave};
use gcnc::{compile_module, Compiled, Options};

/// The configurations every test shader is compiled for.
pub const CONFIGS: [(Gen, Wave); 5] = [
    (Gen::Gfx9, Wave::W64),
    (Gen::Gfx10, Wave::W32),
    (Gen::Gfx10, Wave::W64),
    (Gen::Gfx11, Wave::W32),
    (Gen::Gfx11, Wave::W64),
];

/// Options that compile test IR for `gen`/`wave` as given: no middle-end passes, the IR
/// is the test.
pub fn ir_options(gen: Gen, wave: Wave) -> Options {
    let mut o = Options::new(Target::with_wave(gen, wave).unwrap());
    o.optimize = false;
    o
}

/// Parses and compiles an IR test shader (no middle-end passes: the IR is the test).
pub fn compile_ir(text: &str, gen: Gen, wave: Wave) -> Compiled {
    let m = gcnc::ir::parse_module(text).expect("test IR parses");
    compile_module(&m, &ir_options(gen, wave))
        .unwrap_or_else(|e| panic!("{}/{:?}: {e}", gen.mcpu(), wave))
}

/// Runs one workgroup of IR `text` on the emulator (strict checks) with set 0 binding 0 =
/// an output buffer of `dwords` dwords per thread, zero-filled; returns each thread's
/// dwords.
pub fn run_output(text: &str, gen: Gen, wave: Wave, dwords: u32) -> Vec<Vec<u32>> {
    run_output_with(text, &ir_options(gen, wave), dwords)
}

/// [`run_output`] with the compile options given (e.g. a register budget).
pub fn run_output_with(text: &str, o: &Options, dwords: u32) -> Vec<Vec<u32>> {
    use gcnc::binary::UserData;
    use gcnc_emu::{BufferDesc, Dispatch, Memory};
    const SETS: u64 = 0x2_0000;
    const OUT: u64 = 0x10_0000;
    let (gen, wave) = (o.target.gen, o.target.wave);
    let m = gcnc::ir::parse_module(text).expect("test IR parses");
    let c = compile_module(&m, o).unwrap_or_else(|e| panic!("{}/{:?}: {e}", gen.mcpu(), wave));
    let mut d = Dispatch::from_elf(&c.elf, Some(wave)).expect("dispatch");
    let threads: u32 = c.program.workgroup_size.iter().product();
    let bytes = 4 * dwords * threads;
    let mut mem = Memory::new();
    mem.map(SETS, 4096);
    mem.map(OUT, bytes as u64);
    for (k, w) in BufferDesc::raw(gen, OUT, bytes).iter().enumerate() {
        mem.write_u32(SETS + 4 * k as u64, *w).unwrap();
    }
    let mut sg = Vec::new();
    for u in &c.program.abi.user_sgprs {
        sg.push(match *u {
            UserData::Entry(2) => SETS as u32,
            UserData::Entry(3) => (SETS >> 32) as u32,
            UserData::GlobalTable => d.global_table_lo(),
            UserData::Unused => 0,
            other => panic!("unexpected user data {other:?}"),
        });
    }
    d.user_sgprs = sg;
    gcnc_emu::run(&d, &mut mem)
        .unwrap_or_else(|e| panic!("{} {wave:?}: {e}\n{}", gen.mcpu(), c.asm().unwrap()));
    (0..threads)
        .map(|t| {
            (0..dwords)
                .map(|k| mem.read_u32(OUT + 4 * (dwords * t + k) as u64).unwrap())
                .collect()
        })
        .collect()
}

/// A one-block program from assembly text (one instruction per line), for pass tests
/// written as instruction list in → instruction list out.
pub fn program_from_asm(t: gcnc::isa::Target, asm: &str) -> gcnc::amdgpu::mir::Program {
    use gcnc::amdgpu::mir::{Arg, MInst, Program};
    use gcnc::isa::Operand;
    let mut p = Program::new(t);
    let b = p.new_block(0);
    for (n, line) in asm.lines().enumerate() {
        let Some(inst) = gcnc::isa::parse_line(line, n as u32 + 1, t).expect("test asm parses")
        else {
            continue;
        };
        let d = inst.desc(t.gen).unwrap();
        let (mut defs, mut ops) = (Vec::new(), Vec::new());
        for (od, o) in d.explicit().zip(&inst.operands) {
            let a = match *o {
                Operand::Reg(r) => Arg::Reg(r),
                Operand::Inline(c) => Arg::Const(match gcnc::isa::operand::inline_int(c) {
                    Some(v) => v as u32,
                    None => [
                        0x3f000000, 0xbf000000, 0x3f800000, 0xbf800000, 0x40000000, 0xc0000000,
                        0x40800000, 0xc0800000,
                    ][(c - 240) as usize],
                }),
                Operand::Literal(v) => Arg::Const(v),
                Operand::Imm(v) => Arg::Imm(v),
                other => panic!("unsupported operand {other:?}"),
            };
            if od.is_def() {
                defs.push(a)
            } else {
                ops.push(a)
            }
        }
        let mut m = MInst::hw(inst.op, inst.format, &defs, &ops);
        m.mods = inst.mods;
        p.block_mut(b).insts.push(m);
    }
    p
}

/// The program's instructions as assembly text, one per line (our printer = llvm-mc's).
pub fn asm_of(p: &gcnc::amdgpu::mir::Program) -> String {
    let mut s = String::new();
    for b in &p.blocks {
        for i in &b.insts {
            let inst = gcnc::amdgpu::emit::to_inst(p, i).unwrap();
            s.push_str(
                &gcnc::isa::print(&inst, p.target)
                    .unwrap_or_else(|_| format!("{} <raw>", inst.op.name())),
            );
            s.push('\n');
        }
    }
    s
}

/// The ELF of `c` disassembles with llvm-objdump-19 with no unknown words, each
/// instruction's text equals our printer's, the padding is `s_code_end`, and the PAL
/// metadata note decodes with llvm-readelf-19.
pub fn objdump_agrees(
    objdump: &std::path::Path,
    readelf: &std::path::Path,
    name: &str,
    g: Gen,
    w: Wave,
    c: &Compiled,
) {
    let path = temp_path(&format!("{name}-{}-{w:?}.elf", g.mcpu()));
    std::fs::write(&path, &c.elf).unwrap();
    let p = path.to_str().unwrap();
    let mut args = vec!["-d".to_string(), format!("--mcpu={}", g.mcpu())];
    if w == gcnc::isa::Wave::W64 && g != gcnc::isa::Gen::Gfx9 {
        args.push("--mattr=+wavefrontsize64".into());
    }
    args.push(p.into());
    let a: Vec<&str> = args.iter().map(|s| s.as_str()).collect();
    let (ok, out) = run_status(&objdump, &a);
    assert!(ok, "{name} {}: objdump failed:\n{out}", g.mcpu());
    let insts: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with('\t'))
        .map(|l| l.trim().split("//").next().unwrap().trim())
        .collect();
    assert!(
        !out.contains("<unknown>") && !out.contains("invalid"),
        "{name} {}/{w:?}: unknown words:\n{out}",
        g.mcpu()
    );
    // our printer's text for the code part, instruction by instruction
    let ours: Vec<String> = c
        .asm()
        .unwrap()
        .lines()
        .map(|l| l.trim().split("  ;").next().unwrap().trim().to_string())
        .collect();
    for (k, o) in ours.iter().enumerate() {
        // LLVM prints a zero SMEM immediate offset as `null` on GFX10+ (its own
        // assembler output for `0x0` disassembles that way); the bytes are the same
        let norm = |s: &str| {
            s.split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
                .replace(", null", ", 0x0")
        };
        if o.contains(".long") {
            // printer gap (depctr syntax): LLVM must still know the word
            assert!(
                insts[k].starts_with("s_waitcnt_depctr"),
                "{name}: {}",
                insts[k]
            );
            continue;
        }
        assert_eq!(
            norm(o),
            norm(insts[k]),
            "{name} {}/{w:?} instruction {k}",
            g.mcpu()
        );
    }
    // everything after the code is s_code_end on GFX10+
    for l in &insts[ours.len()..] {
        assert_eq!(*l, "s_code_end", "{name} {}: padding", g.mcpu());
    }
    let (ok, notes) = run_status(&readelf, &["--notes", p]);
    assert!(ok, "{name}: readelf failed:\n{notes}");
    assert!(
        notes.contains("amdpal.pipelines"),
        "{name}: metadata not decoded:\n{notes}"
    );
    assert!(!notes.to_lowercase().contains("error"), "{name}: {notes}");
}
