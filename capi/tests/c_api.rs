//! The C API as a C driver uses it, called from Rust through the same `extern "C"`
//! functions: every binary it returns is the library driver's bytes for the same options
//! (layout, specialization constants, unlinked + link, graphics, cache hits); one
//! compiler shared by 8 threads gives the sequential bytes; bad input returns the right
//! code and a located message and never aborts.

use gcnc::isa::{Gen, Target, Wave};
use gcnc_capi::*;
use std::ffi::{CStr, CString};
use std::path::{Path, PathBuf};
use std::ptr::{null, null_mut};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn words(rel: &str) -> Vec<u32> {
    let bytes = std::fs::read(root().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"));
    gcnc::front::spirv::words_from_bytes(&bytes).unwrap()
}

/// An owned compiler.
struct Compiler(*mut gcnc_compiler);

unsafe impl Send for Compiler {}
unsafe impl Sync for Compiler {}

impl Compiler {
    fn new(target: gcnc_target, wave_size: u32, cache_dir: Option<&Path>) -> Compiler {
        let dir = cache_dir.map(|d| CString::new(d.to_str().unwrap()).unwrap());
        let opts = gcnc_options {
            target,
            wave_size,
            cache_dir: dir.as_ref().map_or(null(), |d| d.as_ptr()),
        };
        let c = unsafe { gcnc_compiler_create(&opts) };
        assert!(!c.is_null(), "gcnc_compiler_create: {}", last_error());
        Compiler(c)
    }

    fn compile(
        &self,
        words: &[u32],
        info: &gcnc_compile_info,
    ) -> Result<Binary, (gcnc_result, String)> {
        let mut out = null_mut();
        let r = unsafe { gcnc_compile_spirv(self.0, words.as_ptr(), words.len(), info, &mut out) };
        Binary::from_call(r, out)
    }
}

impl Drop for Compiler {
    fn drop(&mut self) {
        unsafe { gcnc_compiler_destroy(self.0) }
    }
}

/// An owned binary.
struct Binary(*mut gcnc_binary);

impl Binary {
    fn from_call(r: gcnc_result, out: *mut gcnc_binary) -> Result<Binary, (gcnc_result, String)> {
        if r == gcnc_result::GCNC_SUCCESS {
            assert!(!out.is_null(), "success without a binary");
            assert_eq!(last_error(), "", "a success clears the last error");
            Ok(Binary(out))
        } else {
            assert!(out.is_null(), "a failure leaves *out NULL");
            let msg = last_error();
            assert!(!msg.is_empty(), "{r:?} without a message");
            Err((r, msg))
        }
    }

    fn elf(&self) -> Vec<u8> {
        unsafe {
            std::slice::from_raw_parts(gcnc_binary_data(self.0), gcnc_binary_size(self.0)).to_vec()
        }
    }

    fn stats(&self, stage: gcnc_stage) -> Result<gcnc_stats, gcnc_result> {
        let mut s = gcnc_stats::default();
        match unsafe { gcnc_binary_stats(self.0, stage, &mut s) } {
            gcnc_result::GCNC_SUCCESS => Ok(s),
            r => Err(r),
        }
    }

    fn asm(&self) -> String {
        let p = unsafe { gcnc_binary_disassembly(self.0) };
        assert!(!p.is_null(), "disassembly: {}", last_error());
        unsafe { CStr::from_ptr(p) }.to_str().unwrap().to_string()
    }
}

impl Drop for Binary {
    fn drop(&mut self) {
        unsafe { gcnc_binary_destroy(self.0) }
    }
}

fn last_error() -> String {
    unsafe { CStr::from_ptr(gcnc_last_error()) }
        .to_str()
        .unwrap()
        .to_string()
}

/// A zero-initialised `gcnc_compile_info` (what C's `= {0}` gives).
fn info() -> gcnc_compile_info {
    gcnc_compile_info {
        entry_point: null(),
        stage: GCNC_STAGE_COMPUTE,
        bindings: null(),
        binding_count: 0,
        spec_constants: null(),
        spec_constant_count: 0,
        flags: 0,
        link_spec_ids: null(),
        link_spec_id_count: 0,
    }
}

fn lib_compile(words: &[u32], opts: &gcnc::Options) -> Vec<u8> {
    gcnc::compile_spirv(words, opts).unwrap().elf
}

const TARGETS: [(gcnc_target, Gen); 3] = [
    (GCNC_GFX900, Gen::Gfx9),
    (GCNC_GFX1030, Gen::Gfx10),
    (GCNC_GFX1100, Gen::Gfx11),
];

#[test]
fn a_compile_gives_the_library_drivers_bytes_statistics_and_disassembly() {
    let w = words("tests/shaders/compute/push_constants.spv");
    for (t, gen) in TARGETS {
        let c = Compiler::new(t, 0, None);
        let b = c.compile(&w, &info()).unwrap();
        let lib = gcnc::compile_spirv(&w, &gcnc::Options::new(Target::new(gen))).unwrap();
        assert_eq!(b.elf(), lib.elf, "{gen}");
        assert_eq!(
            b.stats(GCNC_STAGE_COMPUTE).unwrap(),
            gcnc_stats::from(&lib.stats)
        );
        assert_eq!(b.asm(), lib.asm().unwrap());
        assert_eq!(
            b.stats(GCNC_STAGE_VERTEX),
            Err(gcnc_result::GCNC_ERROR_INVALID_ARGUMENT)
        );
    }
    // wave64 on GFX11
    let c = Compiler::new(GCNC_GFX1100, 64, None);
    let lib = lib_compile(
        &w,
        &gcnc::Options::new(Target::with_wave(Gen::Gfx11, Wave::W64).unwrap()),
    );
    assert_eq!(c.compile(&w, &info()).unwrap().elf(), lib);
}

#[test]
fn the_layout_and_spec_constants_mean_what_the_json_layout_and_spec_values_mean() {
    let w = words("tests/shaders/compute/spec_constants.spv");
    let bindings = [
        gcnc_binding {
            set: 0,
            binding: 0,
            kind: GCNC_DESCRIPTOR_BUFFER,
            offset: 64,
            stride: GCNC_DEFAULT,
            sampler_offset: GCNC_DEFAULT,
        },
        gcnc_binding {
            set: 0,
            binding: 1,
            kind: GCNC_DESCRIPTOR_BUFFER,
            offset: 16,
            stride: 32,
            sampler_offset: GCNC_DEFAULT,
        },
    ];
    let spec = [
        gcnc_spec_constant {
            id: 0,
            size: 4,
            value: 5,
        },
        gcnc_spec_constant {
            id: 1,
            size: 4,
            value: (-7i32) as u32 as u64,
        },
        gcnc_spec_constant {
            id: 2,
            size: 4,
            value: 1,
        },
        gcnc_spec_constant {
            id: 3,
            size: 4,
            value: 2.5f32.to_bits() as u64,
        },
        gcnc_spec_constant {
            id: 4,
            size: 8,
            value: 0x1_0000_0003,
        },
    ];
    let mut i = info();
    i.bindings = bindings.as_ptr();
    i.binding_count = bindings.len();
    i.spec_constants = spec.as_ptr();
    i.spec_constant_count = spec.len();
    let c = Compiler::new(GCNC_GFX1030, 0, None);
    let b = c.compile(&w, &i).unwrap();

    let mut o = gcnc::Options::new(Target::new(Gen::Gfx10));
    o.layout = gcnc::amdgpu::abi::PipelineLayout::from_json(
        r#"{"sets": {"0": {"0": 64, "1": {"offset": 16, "stride": 32}}}}"#,
    )
    .unwrap();
    o.spec = spec.iter().map(|s| (s.id, s.value)).collect();
    assert_eq!(b.elf(), lib_compile(&w, &o));
    // and they change the code: the default layout and values give other bytes
    assert_ne!(
        b.elf(),
        lib_compile(&w, &gcnc::Options::new(Target::new(Gen::Gfx10)))
    );
}

#[test]
fn an_unlinked_compile_links_to_what_the_link_stage_makes_of_the_librarys_unlinked_shader() {
    let w = words("tests/shaders/link/spec_choice.spv");
    let late = [0u32, 1];
    let mut i = info();
    i.flags = GCNC_COMPILE_UNLINKED;
    i.link_spec_ids = late.as_ptr();
    i.link_spec_id_count = late.len();
    let c = Compiler::new(GCNC_GFX1100, 0, None);
    let unlinked = c.compile(&w, &i).unwrap();
    let mut o = gcnc::Options::new(Target::new(Gen::Gfx11));
    o.missing = gcnc::Missing::all();
    o.missing.spec_constants = late.iter().copied().collect();
    let lib_unlinked = gcnc::compile_spirv_unlinked(&w, &o).unwrap();
    assert_eq!(unlinked.elf(), lib_unlinked.elf);

    let state = r#"{"descriptor_layout": [
        {"set": 0, "binding": 0, "kind": "buffer", "offset": 32},
        {"set": 1, "binding": 2, "kind": "buffer", "offset": 0}],
      "spec_constants": {"0": 1, "1": 3}}"#;
    let elf = unlinked.elf();
    let blob = gcnc_blob {
        data: elf.as_ptr(),
        size: elf.len(),
    };
    let cstate = CString::new(state).unwrap();
    let mut out = null_mut();
    let r = unsafe { gcnc_link(c.0, &blob, 1, cstate.as_ptr(), &mut out) };
    let linked = Binary::from_call(r, out).unwrap();
    let lib = gcnc::link::link(
        &[&lib_unlinked.elf],
        &gcnc::link::PipelineState::from_json(state).unwrap(),
        &gcnc::parts::PartCache::new(),
    )
    .unwrap();
    assert_eq!(linked.elf(), lib.elf);
    assert!(linked.asm().contains("s_endpgm"));
    assert_eq!(
        linked.stats(GCNC_STAGE_COMPUTE),
        Err(gcnc_result::GCNC_ERROR_INVALID_ARGUMENT)
    );

    // a state the link stage refuses, and an input that is no ELF
    let bad = CString::new(r#"{"spec_constants": {"0": }"#).unwrap();
    let r = unsafe { gcnc_link(c.0, &blob, 1, bad.as_ptr(), &mut out) };
    let (code, msg) = Binary::from_call(r, out).err().unwrap();
    assert_eq!(code, gcnc_result::GCNC_ERROR_INVALID_ARGUMENT);
    assert!(msg.starts_with("state_json: "), "{msg}");
    let junk = [0u8; 16];
    let blob = gcnc_blob {
        data: junk.as_ptr(),
        size: junk.len(),
    };
    let r = unsafe { gcnc_link(c.0, &blob, 1, null(), &mut out) };
    assert_eq!(
        Binary::from_call(r, out).err().unwrap().0,
        gcnc_result::GCNC_ERROR_LINK
    );
    // a spec constant that sizes an array cannot wait for the link
    let w = words("tests/shaders/link/spec_array.spv");
    let late = [0u32];
    i.link_spec_ids = late.as_ptr();
    i.link_spec_id_count = 1;
    let (code, msg) = c.compile(&w, &i).err().unwrap();
    assert_eq!(code, gcnc_result::GCNC_ERROR_NEEDS_WHOLE_PIPELINE, "{msg}");
}

#[test]
fn a_graphics_pipeline_is_the_graphics_drivers_with_statistics_per_stage() {
    let vs = words("tests/shaders/vert/gfx_vs_basic.spv");
    let fs = words("tests/shaders/frag/gfx_fs_fragcoord.spv");
    let c = Compiler::new(GCNC_GFX1030, 0, None);
    let mut out = null_mut();
    let r = unsafe {
        gcnc_compile_graphics(
            c.0,
            vs.as_ptr(),
            vs.len(),
            fs.as_ptr(),
            fs.len(),
            &info(),
            &mut out,
        )
    };
    let b = Binary::from_call(r, out).unwrap();
    let lib = gcnc::compile_graphics::compile_pipeline(
        &vs,
        &fs,
        &gcnc::Options::new(Target::new(Gen::Gfx10)),
        &Default::default(),
    )
    .unwrap();
    assert_eq!(b.elf(), lib.elf);
    assert_eq!(
        b.stats(GCNC_STAGE_VERTEX).unwrap(),
        gcnc_stats::from(&lib.vs.stats)
    );
    assert_eq!(
        b.stats(GCNC_STAGE_FRAGMENT).unwrap(),
        gcnc_stats::from(&lib.ps.stats)
    );
    // each stage's instructions under its label, at its offset in the ELF's .text (the
    // PS at 256-byte alignment after the VS)
    let strip = |t: &str| -> Vec<String> {
        t.lines()
            .map(|l| l.split("  ; ").next().unwrap().to_string())
            .collect()
    };
    let asm = b.asm();
    let want = format!(
        "; vs stage\n{}; ps stage\n{}",
        lib.vs.asm().unwrap(),
        lib.ps.asm().unwrap()
    );
    assert_eq!(strip(&asm), strip(&want));
    let ps_first = asm
        .lines()
        .skip_while(|l| *l != "; ps stage")
        .nth(1)
        .unwrap();
    assert!(ps_first.ends_with("; 0200"), "{ps_first}");
    // a vertex shader alone is not something gcnc_compile_spirv makes
    let mut i = info();
    i.stage = GCNC_STAGE_VERTEX;
    assert_eq!(
        c.compile(&vs, &i).err().unwrap().0,
        gcnc_result::GCNC_ERROR_UNSUPPORTED
    );
}

#[test]
fn a_cache_hit_returns_the_bytes_statistics_and_disassembly_of_the_compile() {
    let dir = std::env::temp_dir().join(format!("gcnc-capi-cache-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let w = words("tests/shaders/compute/nested_loops.spv");
    let first = Compiler::new(GCNC_GFX900, 0, Some(&dir));
    let a = first.compile(&w, &info()).unwrap();
    let entries = std::fs::read_dir(&dir).unwrap().count();
    assert_eq!(entries, 1, "one entry written");
    // a new compiler on the same directory: answered from disk
    let second = Compiler::new(GCNC_GFX900, 0, Some(&dir));
    let b = second.compile(&w, &info()).unwrap();
    assert_eq!(a.elf(), b.elf());
    assert_eq!(a.stats(GCNC_STAGE_COMPUTE), b.stats(GCNC_STAGE_COMPUTE));
    assert_eq!(a.asm(), b.asm());
    // another option is another entry
    let wave32 = Compiler::new(GCNC_GFX1030, 32, Some(&dir));
    wave32.compile(&w, &info()).unwrap();
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 2);
    // a corrupt entry is a miss, never a wrong answer
    for e in std::fs::read_dir(&dir).unwrap() {
        std::fs::write(e.unwrap().path(), b"GCNCACHE garbage").unwrap();
    }
    let third = Compiler::new(GCNC_GFX900, 0, Some(&dir));
    assert_eq!(third.compile(&w, &info()).unwrap().elf(), a.elf());
    let _ = std::fs::remove_dir_all(&dir);
}

/// The compute shaders of the corpus, sorted.
fn corpus() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(root().join("tests/shaders/compute"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "spv"))
        .collect();
    v.sort();
    assert!(v.len() > 40, "the corpus is there");
    v
}

type Outcome = Result<(Vec<u8>, gcnc_stats), (gcnc_result, String)>;

fn outcome(c: &Compiler, w: &[u32]) -> Outcome {
    c.compile(w, &info())
        .map(|b| (b.elf(), b.stats(GCNC_STAGE_COMPUTE).unwrap()))
}

#[test]
fn eight_threads_through_one_compiler_give_the_sequential_bytes() {
    let shaders: Vec<(String, Vec<u32>)> = corpus()
        .iter()
        .map(|p| {
            (
                p.display().to_string(),
                gcnc::front::spirv::words_from_bytes(&std::fs::read(p).unwrap()).unwrap(),
            )
        })
        .collect();
    for (t, gen) in [(GCNC_GFX1100, Gen::Gfx11), (GCNC_GFX900, Gen::Gfx9)] {
        let c = Compiler::new(t, 0, None);
        let sequential: Vec<Outcome> = shaders.iter().map(|(_, w)| outcome(&c, w)).collect();
        let compiled = sequential.iter().filter(|o| o.is_ok()).count();
        assert!(
            compiled * 10 >= shaders.len() * 9,
            "{gen}: {compiled} of {} compiled",
            shaders.len()
        );
        // 8 threads take the shaders in turn, each from the end of a shared queue
        let next = std::sync::atomic::AtomicUsize::new(0);
        let mut parallel: Vec<(usize, Outcome)> = std::thread::scope(|s| {
            let workers: Vec<_> = (0..8)
                .map(|_| {
                    s.spawn(|| {
                        let mut done = Vec::new();
                        loop {
                            let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                            let Some((_, w)) = shaders.get(i) else { break };
                            done.push((i, outcome(&c, w)));
                        }
                        done
                    })
                })
                .collect();
            workers
                .into_iter()
                .flat_map(|h| h.join().unwrap())
                .collect()
        });
        parallel.sort_by_key(|(i, _)| *i);
        assert_eq!(parallel.len(), shaders.len());
        for ((i, p), s) in parallel.iter().zip(&sequential) {
            assert_eq!(
                p, s,
                "{gen}: {} differs between threads and sequential",
                shaders[*i].0
            );
        }
    }
}

#[test]
fn bad_input_returns_a_code_and_a_located_message() {
    use gcnc_result::*;
    let w = words("tests/shaders/compute/push_constants.spv");
    let c = Compiler::new(GCNC_GFX1030, 0, None);
    let mut out = null_mut();
    let call = |c: *const gcnc_compiler,
                w: *const u32,
                n: usize,
                i: *const gcnc_compile_info,
                o: *mut *mut gcnc_binary| {
        let r = unsafe { gcnc_compile_spirv(c, w, n, i, o) };
        (r, last_error())
    };
    // null pointers
    assert_eq!(
        call(null(), w.as_ptr(), w.len(), &info(), &mut out),
        (GCNC_ERROR_INVALID_ARGUMENT, "compiler is NULL".into())
    );
    assert_eq!(
        call(c.0, null(), 5, &info(), &mut out),
        (
            GCNC_ERROR_INVALID_ARGUMENT,
            "words is NULL but its count is 5".into()
        )
    );
    assert_eq!(
        call(c.0, w.as_ptr(), w.len(), null(), &mut out),
        (GCNC_ERROR_INVALID_ARGUMENT, "info is NULL".into())
    );
    assert_eq!(
        call(c.0, w.as_ptr(), w.len(), &info(), null_mut()),
        (GCNC_ERROR_INVALID_ARGUMENT, "out is NULL".into())
    );
    assert!(out.is_null());
    assert!(unsafe { gcnc_compiler_create(null()) }.is_null());
    assert_eq!(last_error(), "opts is NULL");
    let mut s = gcnc_stats::default();
    assert_eq!(
        unsafe { gcnc_binary_stats(null(), 0, &mut s) },
        GCNC_ERROR_INVALID_ARGUMENT
    );
    assert!(unsafe { gcnc_binary_disassembly(null()) }.is_null());
    assert_eq!(unsafe { gcnc_binary_size(null()) }, 0);
    unsafe { gcnc_binary_destroy(null_mut()) };
    unsafe { gcnc_compiler_destroy(null_mut()) };

    // truncated SPIR-V: the front end names the word
    let (code, msg) = c.compile(&w[..w.len() / 2], &info()).err().unwrap();
    assert_eq!(code, GCNC_ERROR_INVALID_SPIRV);
    assert!(msg.starts_with("SPIR-V word "), "{msg}");
    let (code, msg) = c.compile(&[], &info()).err().unwrap();
    assert_eq!(
        (code, msg.starts_with("SPIR-V word 0")),
        (GCNC_ERROR_INVALID_SPIRV, true),
        "{msg}"
    );

    // bad layouts: malformed values, and a set that does not list a binding the shader uses
    let mut b = gcnc_binding {
        set: 0,
        binding: 0,
        kind: GCNC_DESCRIPTOR_BUFFER,
        offset: 6,
        stride: GCNC_DEFAULT,
        sampler_offset: GCNC_DEFAULT,
    };
    let mut i = info();
    i.bindings = &b;
    i.binding_count = 1;
    let (code, msg) = c.compile(&w, &i).err().unwrap();
    assert_eq!(
        (code, msg.as_str()),
        (
            GCNC_ERROR_INVALID_ARGUMENT,
            "bindings[0] (set 0 binding 0): offset 6 must be a multiple of 4 below 1 MiB"
        )
    );
    b.offset = 0;
    b.sampler_offset = 16;
    i.bindings = &b;
    assert!(c
        .compile(&w, &i)
        .err()
        .unwrap()
        .1
        .contains("combined image+sampler only"));
    b.sampler_offset = GCNC_DEFAULT;
    b.binding = 7;
    i.bindings = &b;
    let (code, msg) = c.compile(&w, &i).err().unwrap();
    assert_eq!(code, GCNC_ERROR_INVALID_ARGUMENT);
    assert!(
        msg.contains("set 0 binding 0 is not in the layout"),
        "{msg}"
    );
    b.kind = 99;
    i.bindings = &b;
    assert!(c
        .compile(&w, &i)
        .err()
        .unwrap()
        .1
        .contains("unknown descriptor kind 99"));

    // spec constants, flags, entry points, stages
    let sc = gcnc_spec_constant {
        id: 3,
        size: 4,
        value: 1 << 40,
    };
    let mut i = info();
    i.spec_constants = &sc;
    i.spec_constant_count = 1;
    assert!(c.compile(&w, &i).err().unwrap().1.contains("high bits set"));
    let mut i = info();
    i.flags = 6;
    assert_eq!(
        c.compile(&w, &i).err().unwrap().0,
        GCNC_ERROR_INVALID_ARGUMENT
    );
    let mut i = info();
    let ids = [1u32];
    i.link_spec_ids = ids.as_ptr();
    i.link_spec_id_count = 1;
    assert!(c
        .compile(&w, &i)
        .err()
        .unwrap()
        .1
        .contains("needs GCNC_COMPILE_UNLINKED"));
    let name = CString::new("no_such_entry").unwrap();
    let mut i = info();
    i.entry_point = name.as_ptr();
    let (code, msg) = c.compile(&w, &i).err().unwrap();
    assert_eq!(code, GCNC_ERROR_INVALID_ARGUMENT, "{msg}");
    assert!(msg.contains("no_such_entry"), "{msg}");
    let mut i = info();
    i.stage = 9;
    assert_eq!(
        c.compile(&w, &i).err().unwrap(),
        (GCNC_ERROR_INVALID_ARGUMENT, "unknown stage 9".into())
    );

    // bad compiler options
    for (t, wave, want) in [
        (7, 0, "unknown target 7"),
        (GCNC_GFX900, 32, "wave"),
        (GCNC_GFX1100, 16, "wave size 16"),
    ] {
        let o = gcnc_options {
            target: t,
            wave_size: wave,
            cache_dir: null(),
        };
        assert!(unsafe { gcnc_compiler_create(&o) }.is_null());
        assert!(last_error().contains(want), "{}", last_error());
    }
    let file = std::env::temp_dir().join(format!("gcnc-capi-not-a-dir-{}", std::process::id()));
    std::fs::write(&file, b"").unwrap();
    let under = CString::new(file.join("cache").to_str().unwrap()).unwrap();
    let o = gcnc_options {
        target: GCNC_GFX900,
        wave_size: 0,
        cache_dir: under.as_ptr(),
    };
    assert!(unsafe { gcnc_compiler_create(&o) }.is_null());
    assert!(
        last_error().starts_with("cache directory "),
        "{}",
        last_error()
    );
    let _ = std::fs::remove_file(&file);

    // every code has a name
    assert_eq!(
        unsafe { CStr::from_ptr(gcnc_result_name(GCNC_ERROR_INVALID_SPIRV as u32)) }
            .to_str()
            .unwrap(),
        "GCNC_ERROR_INVALID_SPIRV"
    );
    assert_eq!(
        unsafe { CStr::from_ptr(gcnc_result_name(99)) }
            .to_str()
            .unwrap(),
        "(not a gcnc_result)"
    );
}

#[test]
fn the_last_error_belongs_to_the_thread_that_failed() {
    let c = Compiler::new(GCNC_GFX1100, 0, None);
    assert!(c.compile(&[1, 2, 3], &info()).is_err());
    let here = last_error();
    assert!(here.starts_with("SPIR-V word"), "{here}");
    let there = std::thread::scope(|s| s.spawn(last_error).join().unwrap());
    assert_eq!(there, "", "another thread sees none");
    assert_eq!(last_error(), here);
}
