//! `gcnc asm`: LLVM-syntax assembly, one instruction per line, to raw machine code.

use gcnc::isa;

pub fn run(target: &str, wave: Option<u32>, input: &str, output: &str) -> Result<(), String> {
    let t = super::target(target, wave)?;
    let src = std::fs::read_to_string(input).map_err(|e| format!("{input}: {e}"))?;
    let insts = isa::parse(&src, t).map_err(|e| format!("{input}:{e}"))?;
    let mut bytes = Vec::new();
    for (line, inst) in &insts {
        let b = isa::encode(inst, t).map_err(|e| format!("{input}:{line}: {e}"))?;
        bytes.extend_from_slice(&b);
    }
    std::fs::write(output, bytes).map_err(|e| format!("{output}: {e}"))
}
