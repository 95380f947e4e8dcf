//! The shader corpus through the SPIR-V front-end: every module translates to IR that
//! verifies, prints and re-parses to the same text, and survives the middle-end pipeline;
//! front-end output of the vertex/fragment/front corpus is kept as reviewed snapshots
//! (`tests/front_snapshots/*.ir`, `GCNC_BLESS=1` rewrites them); targeted checks pin the
//! layout, specialization and interface facts the corpus was written to exercise.

mod front_support;

use front_support::*;
use gcnc::front::spirv::{translate, Options};
use gcnc::ir::{self, Builtin, Mode, Stage, TypeKind};

fn tr(words: &[u32]) -> ir::Module {
    translate(words, &Options::default()).unwrap()
}

#[test]
fn every_corpus_shader_translates_verifies_and_round_trips() {
    let all = corpus();
    assert!(all.len() >= 25, "corpus has only {} modules", all.len());
    for p in &all {
        let m = translate(&words(p), &Options::default())
            .unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        ir::verify_module(&m).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        if let Some(src) = source_of(p) {
            let want = match src.extension().unwrap().to_str().unwrap() {
                "comp" => Some(Stage::Compute),
                "vert" => Some(Stage::Vertex),
                "frag" => Some(Stage::Fragment),
                _ => None,
            };
            if let Some(want) = want {
                assert_eq!(m.stage, want, "{}", p.display());
            }
        }
        let text = ir::print_module(&m);
        let back = ir::parse_module(&text)
            .unwrap_or_else(|e| panic!("{}: reparse: {e:?}\n{text}", p.display()));
        assert_eq!(
            ir::print_module(&back),
            text,
            "{}: print/parse round trip",
            p.display()
        );
    }
}

/// Middle-end gaps the corpus exposes, as (module, expected error text). Each must still
/// fail with exactly that error — when the middle end learns the case, the test fails and
/// the entry must be removed.
const KNOWN_PIPELINE_GAPS: &[(&str, &str)] = &[];

#[test]
fn every_corpus_shader_survives_the_pipeline() {
    for p in corpus() {
        let mut m = tr(&words(&p));
        let rel = p
            .strip_prefix(root().join("tests/shaders"))
            .unwrap()
            .to_str()
            .unwrap()
            .to_string();
        let r = gcnc::passes::run_pipeline(&mut m);
        match KNOWN_PIPELINE_GAPS.iter().find(|g| g.0 == rel) {
            Some((_, want)) => match r {
                Ok(()) => {
                    panic!("{rel} now survives the pipeline: remove it from KNOWN_PIPELINE_GAPS")
                }
                Err(e) => assert!(e.to_string().contains(want), "{rel}: {e}"),
            },
            None => {
                r.unwrap_or_else(|e| panic!("{}: {e}", p.display()));
                ir::verify_module(&m).unwrap();
            }
        }
    }
}

/// Front-end output snapshots for the directories this front-end owns.
#[test]
fn front_end_output_matches_snapshots() {
    let bless = std::env::var("GCNC_BLESS").as_deref() == Ok("1");
    let snap_dir = root().join("tests/front_snapshots");
    let mut failures = Vec::new();
    for p in corpus() {
        let dir = p
            .parent()
            .unwrap()
            .file_name()
            .unwrap()
            .to_str()
            .unwrap()
            .to_string();
        if !["vert", "frag", "front"].contains(&dir.as_str()) {
            continue;
        }
        let name = format!("{}_{}.ir", dir, p.file_stem().unwrap().to_str().unwrap());
        let text = ir::print_module(&tr(&words(&p)));
        let path = snap_dir.join(&name);
        if bless {
            std::fs::create_dir_all(&snap_dir).unwrap();
            std::fs::write(&path, &text).unwrap();
            continue;
        }
        match std::fs::read_to_string(&path) {
            Ok(want) if want == text => {}
            Ok(_) => failures.push(format!("{name}: output differs")),
            Err(_) => failures.push(format!("{name}: no snapshot")),
        }
    }
    assert!(
        failures.is_empty(),
        "{} (GCNC_BLESS=1 to accept)",
        failures.join("\n")
    );
}

/// The committed .spv files are what the build script makes from the sources.
#[test]
fn corpus_spirv_is_up_to_date() {
    let Some(glslang) = oracle("glslangValidator") else {
        return;
    };
    let tmp = std::env::temp_dir().join(format!("gcnc_front_corpus_{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    for p in corpus() {
        let dir = p.parent().unwrap().file_name().unwrap().to_str().unwrap();
        if !["vert", "frag", "front"].contains(&dir) {
            continue;
        }
        if p.to_str().unwrap().ends_with(".opt.spv") {
            continue; // made by spirv-opt from the .spv checked here
        }
        let src = source_of(&p).expect("source next to the .spv");
        let out = tmp.join("x.spv");
        if src.extension().is_some_and(|e| e == "spvasm") {
            let Some(asm) = oracle("spirv-as") else {
                continue;
            };
            let st = std::process::Command::new(asm)
                .args(["--target-env", "vulkan1.2", "-o"])
                .arg(&out)
                .arg(&src)
                .output()
                .unwrap();
            assert!(
                st.status.success(),
                "{}: {}",
                src.display(),
                String::from_utf8_lossy(&st.stderr)
            );
            assert!(
                std::fs::read(&out).unwrap() == std::fs::read(&p).unwrap(),
                "{} is stale: run scripts/build-shaders.sh",
                p.display()
            );
            continue;
        }
        let text = std::fs::read_to_string(&src).unwrap();
        let env = text
            .lines()
            .find_map(|l| {
                l.strip_prefix("// target-env:")
                    .map(|e| e.trim().to_string())
            })
            .unwrap_or_else(|| "vulkan1.2".into());
        let flags: Vec<String> = text
            .lines()
            .find_map(|l| l.strip_prefix("// glslang-flags:"))
            .map(|f| f.split_whitespace().map(str::to_string).collect())
            .unwrap_or_default();
        let st = std::process::Command::new(&glslang)
            .arg("-V")
            .args(&flags)
            .args(["--target-env", &env, "-o"])
            .arg(&out)
            // Relative to the crate root, as the build script runs it (debug info records
            // the path).
            .arg(src.strip_prefix(root()).unwrap())
            .current_dir(root())
            .output()
            .unwrap();
        assert!(
            st.status.success(),
            "{}: {}",
            src.display(),
            String::from_utf8_lossy(&st.stdout)
        );
        assert!(
            std::fs::read(&out).unwrap() == std::fs::read(&p).unwrap(),
            "{} is stale: run scripts/build-shaders.sh",
            p.display()
        );
    }
}

#[test]
fn std140_row_major_matrix_and_matrix_array_keep_their_layout() {
    let m = tr(&shader("vert/mvp_std140.spv"));
    let ubo = m
        .globals
        .iter()
        .map(|&v| &m.vars[v])
        .find(|v| v.mode == Mode::Ubo)
        .expect("the Camera UBO");
    assert_eq!(ubo.binding, Some((0, 0)));
    let TypeKind::Struct { members } = m.types.kind(ubo.ty) else {
        panic!("UBO is not a struct")
    };
    let offsets: Vec<_> = members.iter().map(|mm| mm.offset).collect();
    assert_eq!(offsets, [Some(0), Some(64), Some(320), Some(368)]);
    match m.types.kind(members[0].ty) {
        TypeKind::Matrix {
            row_major: true,
            stride: 16,
            columns: 4,
            ..
        } => {}
        k => panic!("view_proj: {k:?}"),
    }
    match m.types.kind(members[1].ty) {
        TypeKind::Array {
            len: Some(4),
            stride: 64,
            elem,
        } => {
            assert!(matches!(
                m.types.kind(*elem),
                TypeKind::Matrix {
                    row_major: false,
                    stride: 16,
                    ..
                }
            ))
        }
        k => panic!("models: {k:?}"),
    }
    // mat3 in std140: three vec3 columns 16 bytes apart.
    assert!(matches!(
        m.types.kind(members[2].ty),
        TypeKind::Matrix {
            columns: 3,
            stride: 16,
            ..
        }
    ));
}

#[test]
fn std430_row_major_mat4x3_in_a_runtime_array() {
    let m = tr(&shader("vert/skinning.spv"));
    let ssbo = m
        .globals
        .iter()
        .map(|&v| &m.vars[v])
        .find(|v| v.mode == Mode::Ssbo)
        .unwrap();
    let TypeKind::Struct { members } = m.types.kind(ssbo.ty) else {
        panic!()
    };
    match m.types.kind(members[0].ty) {
        TypeKind::Array {
            len: None,
            stride: 48,
            elem,
        } => match m.types.kind(*elem) {
            TypeKind::Matrix {
                columns: 4,
                row_major: true,
                stride: 16,
                ..
            } => {}
            k => panic!("bone: {k:?}"),
        },
        k => panic!("bones: {k:?}"),
    }
}

#[test]
fn per_vertex_block_is_split_into_builtin_variables() {
    let m = tr(&shader("vert/mvp_std140.spv"));
    let outs: Vec<_> = m
        .globals
        .iter()
        .map(|&v| &m.vars[v])
        .filter(|v| v.mode == Mode::Output)
        .collect();
    assert!(outs.iter().any(|v| v.builtin == Some(Builtin::Position)));
    assert!(outs.iter().any(|v| v.builtin == Some(Builtin::PointSize)));
    assert!(outs
        .iter()
        .any(|v| v.location == Some(0) && v.builtin.is_none()));
    let ins: Vec<_> = m
        .globals
        .iter()
        .map(|&v| &m.vars[v])
        .filter(|v| v.mode == Mode::Input)
        .collect();
    assert!(ins
        .iter()
        .any(|v| v.builtin == Some(Builtin::InstanceIndex)));
}

#[test]
fn specialization_constants_default_and_supplied() {
    let w = shader("front/spec_local_size.spv");
    let m = tr(&w);
    // glslang gives the local_size_x_id constants their own default of 1.
    assert_eq!(m.local_size, [1, 1, 1]);
    let shared = m
        .globals
        .iter()
        .map(|&v| &m.vars[v])
        .find(|v| v.mode == Mode::Shared)
        .unwrap();
    assert!(matches!(
        m.types.kind(shared.ty),
        TypeKind::Array { len: Some(32), .. }
    ));
    // WX=16, WY=2, SHIFT=2: N = 32 still, HALF = 8 (an OpSpecConstantOp shift).
    let opts = Options {
        entry: None,
        stage: None,
        spec: [(0, 16), (1, 2), (2, 2)].into_iter().collect(),
    };
    let m2 = translate(&w, &opts).unwrap();
    assert_eq!(m2.local_size, [16, 2, 1]);
    let text = ir::print_module(&m2);
    assert!(text.contains("const 8\n"), "HALF folds to 8:\n{text}");
    let opts = Options {
        entry: None,
        stage: None,
        spec: [(0, 4), (1, 4)].into_iter().collect(),
    };
    let m3 = translate(&w, &opts).unwrap();
    let shared = m3
        .globals
        .iter()
        .map(|&v| &m3.vars[v])
        .find(|v| v.mode == Mode::Shared)
        .unwrap();
    assert!(matches!(
        m3.types.kind(shared.ty),
        TypeKind::Array { len: Some(16), .. }
    ));
}

#[test]
fn vertex_spec_constant_op_loop_bound() {
    let w = shader("vert/spec_const.spv");
    let text = ir::print_module(&tr(&w));
    assert!(
        text.contains("const 7\n"),
        "TWICE = 3*2+1 by default:\n{text}"
    );
    let opts = Options {
        entry: None,
        stage: None,
        spec: [(0, 5)].into_iter().collect(),
    };
    let text = ir::print_module(&translate(&w, &opts).unwrap());
    assert!(
        text.contains("const 11\n"),
        "TWICE = 5*2+1 when COUNT=5:\n{text}"
    );
}

#[test]
fn fragment_execution_modes() {
    let m = tr(&shader("frag/storage_image.spv"));
    assert!(m
        .exec_flags
        .contains(ir::ExecFlags::EARLY_FRAGMENT_TESTS | ir::ExecFlags::ORIGIN_UPPER_LEFT));
    let m = tr(&shader("frag/discard_alpha.spv"));
    assert!(m.exec_flags.contains(ir::ExecFlags::DEPTH_REPLACING));
}

#[test]
fn entry_point_selection_by_name() {
    let w = shader("frag/solid.spv");
    assert!(translate(
        &w,
        &Options {
            entry: Some("main".into()),
            ..Default::default()
        }
    )
    .is_ok());
    let e = translate(
        &w,
        &Options {
            entry: Some("nope".into()),
            ..Default::default()
        },
    )
    .unwrap_err();
    assert_eq!(e.kind, gcnc::front::ErrorKind::NoEntryPoint);
}

#[test]
fn ptr_access_chain_uses_the_pointer_array_stride() {
    let text = ir::print_module(&tr(&shader("front/ptr_access_chain.spv")));
    assert!(
        text.contains("deref_cast %5 stride=32 align=0 : global $0"),
        "{text}"
    );
    assert!(
        text.contains("deref_ptr_as_array %6[%2] stride=32 : global $0"),
        "{text}"
    );
    assert!(
        text.contains("pack_64_2x32"),
        "uvec2 → pointer bitcast:\n{text}"
    );
}

#[test]
fn readonly_buffer_members_make_a_non_writable_variable() {
    let m = tr(&shader("vert/skinning.spv"));
    let ssbo = m
        .globals
        .iter()
        .map(|&v| &m.vars[v])
        .find(|v| v.mode == Mode::Ssbo)
        .unwrap();
    assert!(
        ssbo.flags.contains(ir::VarFlags::NON_WRITABLE),
        "{:?}",
        ssbo.flags
    );
    let m = tr(&shader("front/control_flow.spv"));
    let ssbo = m
        .globals
        .iter()
        .map(|&v| &m.vars[v])
        .find(|v| v.mode == Mode::Ssbo)
        .unwrap();
    assert!(
        !ssbo.flags.contains(ir::VarFlags::NON_WRITABLE),
        "{:?}",
        ssbo.flags
    );
}

#[test]
fn entry_point_selection_by_stage() {
    let w = shader("frag/solid.spv");
    let opts = |s| Options {
        stage: Some(s),
        ..Default::default()
    };
    assert_eq!(
        translate(&w, &opts(Stage::Fragment)).unwrap().stage,
        Stage::Fragment
    );
    let e = translate(&w, &opts(Stage::Vertex)).unwrap_err();
    assert_eq!(e.kind, gcnc::front::ErrorKind::NoEntryPoint);
    assert!(e.reason.contains("vertex"), "{e}");
}
