//! `gcnc disasm`: raw machine code (or the `.text` of an ELF, recognised by its magic
//! unless `--raw`) to the text `llvm-mc-19 -disassemble` prints, one instruction per line.

use gcnc::isa;
use object::{Object, ObjectSection};

pub struct Opts {
    pub raw: bool,
    pub offsets: bool,
    pub hex: bool,
}

pub fn run(target: &str, wave: Option<u32>, file: &str, o: &Opts) -> Result<String, String> {
    let t = super::target(target, wave)?;
    let data = std::fs::read(file).map_err(|e| format!("{file}: {e}"))?;
    let code: Vec<u8> = if !o.raw && data.starts_with(b"\x7fELF") {
        let obj = object::File::parse(&*data).map_err(|e| format!("{file}: bad ELF: {e}"))?;
        let text = obj
            .section_by_name(".text")
            .ok_or_else(|| format!("{file}: no .text section"))?;
        text.data().map_err(|e| format!("{file}: {e}"))?.to_vec()
    } else {
        data
    };
    let mut out = String::new();
    let mut off = 0;
    while off < code.len() {
        let (inst, len) = isa::decode(&code, off, t).map_err(|e| format!("{file}: {e}"))?;
        let text =
            isa::print(&inst, t).map_err(|e| format!("{file}: byte offset {off:#x}: {e}"))?;
        out.push('\t');
        out.push_str(&text);
        let mut comments = Vec::new();
        if o.offsets {
            comments.push(format!("{off:06x}"));
        }
        if o.hex {
            let w: Vec<String> = code[off..off + len]
                .chunks(4)
                .map(|c| format!("{:08x}", u32::from_le_bytes([c[0], c[1], c[2], c[3]])))
                .collect();
            comments.push(w.join(" "));
        }
        if !comments.is_empty() {
            out.push_str(" ; ");
            out.push_str(&comments.join(" "));
        }
        out.push('\n');
        off += len;
    }
    Ok(out)
}
