//! `vkref run`: one compute dispatch of any SPIR-V module on lavapipe, with buffers from
//! files, push constants and specialization constants given as `gcnc run` takes them, so
//! a shader that is not a corpus case (a real-world kernel) can be compared with the
//! emulator's result byte for byte or element by element.
//!
//! ```text
//! vkref run SHADER.spv [--entry main] [--dispatch X,Y,Z] [--bind SET:BINDING=FILE|@SIZE]...
//!                      [--push HEX] [--spec ID=VALUE]... [--dump SET:BINDING=OUT]...
//! ```
//!
//! Design: the command only parses and checks its arguments, then calls
//! [`lavapipe::run_compute`] — the runner the corpus uses — and writes the buffers asked
//! for. Every binding is a storage or uniform buffer whose kind comes from the module's
//! reflection (an image binding is refused with a message: images are described by corpus
//! cases). `--push` is hex bytes in memory order (spaces ignored), as `gcnc run` takes it.
//! `--spec` values are a decimal or `0x` 32-bit pattern, a negative integer (its two's
//! complement), `true` / `false`, or a float with a `.` (its f32 bits): 32-bit constants
//! only. Invariant: nothing runs unless every binding the entry point uses is bound.

use crate::lavapipe::{self, Resource, SpecValue};
use crate::reflect::{self, DescriptorKind};

struct Args {
    spirv: Vec<u8>,
    entry: String,
    groups: [u32; 3],
    binds: Vec<(u32, u32, Vec<u8>)>,
    push: Vec<u8>,
    spec: Vec<(u32, SpecValue)>,
    dumps: Vec<(u32, u32, String)>,
}

/// `SET:BINDING` as two numbers.
fn set_binding(s: &str) -> Result<(u32, u32), String> {
    let (a, b) = s
        .split_once(':')
        .ok_or_else(|| format!("{s:?}: expected SET:BINDING"))?;
    let n = |x: &str| {
        x.parse::<u32>()
            .map_err(|_| format!("{s:?}: expected SET:BINDING"))
    };
    Ok((n(a)?, n(b)?))
}

/// A specialization value as its 32-bit pattern.
fn spec_bits(v: &str) -> Result<u32, String> {
    let bad = || format!("--spec value {v:?}: expected a number, true or false");
    Ok(match v {
        "true" => 1,
        "false" => 0,
        _ if v.starts_with("0x") => u32::from_str_radix(&v[2..], 16).map_err(|_| bad())?,
        _ if v.contains('.') || v.contains('e') => v.parse::<f32>().map_err(|_| bad())?.to_bits(),
        _ if v.starts_with('-') => v.parse::<i32>().map_err(|_| bad())? as u32,
        _ => v.parse::<u32>().map_err(|_| bad())?,
    })
}

/// Hex bytes in memory order, whitespace ignored.
fn hex_bytes(s: &str) -> Result<Vec<u8>, String> {
    let digits: Vec<u8> = s.bytes().filter(|c| !c.is_ascii_whitespace()).collect();
    if digits.len() % 2 != 0 {
        return Err("--push: an odd number of hex digits".into());
    }
    digits
        .chunks(2)
        .map(|p| {
            std::str::from_utf8(p)
                .ok()
                .and_then(|t| u8::from_str_radix(t, 16).ok())
                .ok_or_else(|| "--push: not hex".to_string())
        })
        .collect()
}

fn parse(args: &[String]) -> Result<Args, String> {
    let mut a = Args {
        spirv: Vec::new(),
        entry: "main".into(),
        groups: [1, 1, 1],
        binds: Vec::new(),
        push: Vec::new(),
        spec: Vec::new(),
        dumps: Vec::new(),
    };
    let mut file = None;
    let mut it = args.iter();
    while let Some(o) = it.next() {
        let mut val = || it.next().ok_or(format!("{o} needs a value"));
        match o.as_str() {
            "--entry" => a.entry = val()?.clone(),
            "--dispatch" => {
                let v: Vec<u32> = val()?
                    .split(',')
                    .map(|x| x.parse().map_err(|_| "--dispatch takes X,Y,Z".to_string()))
                    .collect::<Result<_, _>>()?;
                a.groups = v
                    .try_into()
                    .map_err(|_| "--dispatch takes X,Y,Z".to_string())?;
            }
            "--bind" => {
                let v = val()?;
                let (sb, src) = v
                    .split_once('=')
                    .ok_or_else(|| format!("--bind {v:?}: expected SET:BINDING=FILE|@SIZE"))?;
                let (s, b) = set_binding(sb)?;
                let data = match src.strip_prefix('@') {
                    Some(n) => vec![0; n.parse().map_err(|_| format!("--bind {v:?}: size"))?],
                    None => std::fs::read(src).map_err(|e| format!("{src}: {e}"))?,
                };
                a.binds.push((s, b, data));
            }
            "--push" => a.push = hex_bytes(val()?)?,
            "--spec" => {
                let v = val()?;
                let (id, x) = v
                    .split_once('=')
                    .ok_or_else(|| format!("--spec {v:?}: expected ID=VALUE"))?;
                let id = id.parse().map_err(|_| format!("--spec {v:?}: ID"))?;
                a.spec.push((id, SpecValue::U32(spec_bits(x)?)));
            }
            "--dump" => {
                let v = val()?;
                let (sb, out) = v
                    .split_once('=')
                    .ok_or_else(|| format!("--dump {v:?}: expected SET:BINDING=OUT"))?;
                let (s, b) = set_binding(sb)?;
                a.dumps.push((s, b, out.to_string()));
            }
            s if s.starts_with('-') => return Err(format!("unknown option {s}")),
            s => file = Some(s.to_string()),
        }
    }
    let file = file.ok_or("missing SHADER.spv")?;
    a.spirv = std::fs::read(&file).map_err(|e| format!("{file}: {e}"))?;
    Ok(a)
}

/// `vkref run ...` (arguments after `run`).
pub fn main(args: &[String]) -> Result<(), String> {
    let a = parse(args)?;
    let module = reflect::reflect_bytes(&a.spirv).map_err(|e| e.to_string())?;
    let ep = module.entry(&a.entry).map_err(|e| e.to_string())?;
    let mut resources = Vec::new();
    for (set, binding, data) in &a.binds {
        let b = ep
            .bindings
            .iter()
            .find(|b| b.set == *set && b.binding == *binding)
            .ok_or_else(|| format!("{set}:{binding}: the entry point uses no such binding"))?;
        if !matches!(
            b.kind,
            DescriptorKind::StorageBuffer | DescriptorKind::UniformBuffer
        ) {
            return Err(format!(
                "{set}:{binding} is a {:?}: vkref run binds buffers only",
                b.kind
            ));
        }
        resources.push(Resource::Buffer {
            set: *set,
            binding: *binding,
            kind: b.kind,
            data: data.clone(),
        });
    }
    for b in &ep.bindings {
        if !a.binds.iter().any(|x| x.0 == b.set && x.1 == b.binding) {
            return Err(format!("{}:{} is used but not bound", b.set, b.binding));
        }
    }
    let out = lavapipe::run_compute(&a.spirv, &a.entry, a.groups, &resources, &a.push, &a.spec)
        .map_err(|e| e.to_string())?;
    for (set, binding, path) in &a.dumps {
        let k = a
            .binds
            .iter()
            .position(|x| x.0 == *set && x.1 == *binding)
            .ok_or_else(|| format!("--dump {set}:{binding}: not bound"))?;
        std::fs::write(path, &out[k]).map_err(|e| format!("{path}: {e}"))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_values_as_users_write_them() {
        assert_eq!(spec_bits("64"), Ok(64));
        assert_eq!(spec_bits("0x3f800000"), Ok(0x3f80_0000));
        assert_eq!(spec_bits("-7"), Ok(-7i32 as u32));
        assert_eq!(spec_bits("0.5"), Ok(0x3f00_0000));
        assert_eq!(spec_bits("true"), Ok(1));
        assert!(spec_bits("x").is_err());
        assert_eq!(hex_bytes("0300 0000 ff"), Ok(vec![3, 0, 0, 0, 0xff]));
        assert!(hex_bytes("123").is_err());
    }
}
