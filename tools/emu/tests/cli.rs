//! The `gcnc-emu` binary: a raw code object and a PAL ELF (written by gcnc::binary) run;
//! a failing shader exits 1 with the instruction and a register dump, never a panic.

mod support;

use gcnc::binary::{CodeObject, ComputeShaderInfo};
use gcnc::isa::Gen;
use std::process::Command;
use support::*;

fn emu(args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_gcnc-emu"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn raw_and_elf_code_objects_run() {
    let dir = std::env::temp_dir().join(format!("gcnc-emu-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let t = target(Gen::Gfx11, false);
    // reads 8 bytes through the pointer in s[0:1]; all lanes compute; ends
    let code = ours(
        t,
        "s_load_b64 s[4:5], s[0:1], 0x0\ns_waitcnt lgkmcnt(0)\ns_add_u32 s6, s4, s5\nv_mov_b32 v1, s6\ns_endpgm\n",
    );
    let raw = dir.join("k.bin");
    std::fs::write(&raw, &code).unwrap();
    let input = dir.join("in.bin");
    std::fs::write(&input, [1u8, 0, 0, 0, 2, 0, 0, 0]).unwrap();
    let out = dir.join("out.bin");
    let (rc, err) = emu(&[
        raw.to_str().unwrap(),
        "--target",
        "gfx1100",
        "--dispatch",
        "2,1,1",
        "--sgpr",
        "0x1000,0",
        "--map",
        &format!("0x1000={}", input.display()),
        "--dump",
        &format!("0x1000:8={}", out.display()),
    ]);
    assert_eq!(rc, 0, "{err}");
    assert!(err.contains("2 workgroup(s)"), "{err}");
    assert_eq!(std::fs::read(&out).unwrap(), [1u8, 0, 0, 0, 2, 0, 0, 0]);

    // the same code in a PAL ELF written by gcnc::binary
    let mut info = ComputeShaderInfo::new(gcnc::isa::Target::new(gcnc::isa::Gen::Gfx11));
    info.workgroup_size = [64, 1, 1];
    info.vgprs = 8;
    info.sgprs = 16;
    let mut text = code.clone();
    let size = text.len() as u64;
    text.resize(256, 0);
    let elf = CodeObject::compute(&info, text, size, vec![])
        .unwrap()
        .write()
        .unwrap();
    let elf_path = dir.join("k.elf");
    std::fs::write(&elf_path, elf).unwrap();
    let (rc, err) = emu(&[
        elf_path.to_str().unwrap(),
        "--sgpr",
        "0x1000,0",
        "--map",
        &format!("0x1000={}", input.display()),
    ]);
    assert_eq!(rc, 0, "{err}");
    assert!(
        err.contains("1 workgroup(s), 2 wave(s)"),
        "64 threads in wave32: {err}"
    );

    // a failing shader: exit 1, message with instruction and dump
    let bad = dir.join("bad.bin");
    std::fs::write(&bad, ours(t, "v_add_nc_u32_e32 v1, v7, v0\ns_endpgm\n")).unwrap();
    let (rc, err) = emu(&[bad.to_str().unwrap(), "--target", "gfx1100"]);
    assert_eq!(rc, 1, "{err}");
    assert!(err.contains("never-written register v7"), "{err}");
    assert!(err.contains("v_add_nc_u32"), "{err}");
    assert!(err.contains("exec="), "register dump: {err}");
    // usage error
    let (rc, _) = emu(&[bad.to_str().unwrap()]);
    assert_eq!(rc, 2, "raw code without --target");
    let _ = std::fs::remove_dir_all(&dir);
}
