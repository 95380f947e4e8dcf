//! `gcnc batch` on the compute corpus: every `.spv` is counted once, as compiled or
//! rejected; each compiled output is byte-identical to a single `gcnc compile` run, and
//! each rejection carries the message `gcnc compile` prints; a list with a broken and a
//! missing file groups the rejections by reason; the text summary and `--json` agree; a
//! directory tree is searched to the bottom and keeps its layout under the output.

mod cli_support;

use cli_support::{gcnc, ROOT};
use std::path::{Path, PathBuf};

fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("gcnc-batch-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn corpus() -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(Path::new(ROOT).join("tests/shaders/compute"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".spv"))
        .collect();
    v.sort();
    v
}

#[test]
fn the_corpus_batch_equals_single_compiles() {
    let out = temp("corpus");
    let (ok, stdout, stderr) = gcnc(&[
        "batch",
        "tests/shaders/compute",
        "--target",
        "gfx1100",
        "--jobs",
        "2",
        "-o",
        out.to_str().unwrap(),
        "--json",
    ]);
    assert!(ok, "{stderr}");
    assert_eq!(stderr, "", "no progress bar when stderr is not a terminal");
    let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let names = corpus();
    assert_eq!(report["shaders"], names.len());
    let results = report["results"].as_array().unwrap();
    assert_eq!(results.len(), names.len());
    let compiled = results.iter().filter(|r| r["compiled"] == true).count();
    assert_eq!(report["compiled"], compiled);
    assert_eq!(report["rejected"], names.len() - compiled);
    assert!(
        compiled * 10 >= names.len() * 9,
        "{compiled} of {}",
        names.len()
    );
    assert_eq!(
        (report["target"].as_str(), report["wave"].as_u64()),
        (Some("gfx1100"), Some(32))
    );

    let single = temp("single");
    std::fs::create_dir_all(&single).unwrap();
    for (name, r) in names.iter().zip(results) {
        let file = format!("tests/shaders/compute/{name}");
        assert_eq!(r["file"], file.as_str(), "results in input order");
        let elf = single.join("one.elf");
        let _ = std::fs::remove_file(&elf);
        let (one_ok, _, one_err) = gcnc(&[
            "compile",
            &file,
            "--target",
            "gfx1100",
            "-o",
            elf.to_str().unwrap(),
        ]);
        let batch_elf = out.join(name.replace(".spv", ".elf"));
        if r["compiled"] == true {
            assert!(
                one_ok,
                "{name}: batch compiled it, gcnc compile did not: {one_err}"
            );
            let bytes = std::fs::read(&batch_elf).unwrap();
            assert_eq!(bytes, std::fs::read(&elf).unwrap(), "{name}");
            assert_eq!(r["size"], bytes.len());
            assert!(r["stats"]["Instructions"].as_u64().unwrap() > 0);
        } else {
            assert!(!one_ok, "{name}: gcnc compile compiled what batch rejected");
            assert_eq!(
                one_err.trim_end(),
                format!("gcnc: {file}: {}", r["error"].as_str().unwrap())
            );
            assert!(!batch_elf.exists());
        }
    }
    let _ = std::fs::remove_dir_all(&out);
    let _ = std::fs::remove_dir_all(&single);
}

#[test]
fn a_list_groups_its_rejections_by_reason() {
    let dir = temp("list");
    std::fs::create_dir_all(&dir).unwrap();
    let truncated = dir.join("truncated.spv");
    let whole =
        std::fs::read(Path::new(ROOT).join("tests/shaders/compute/nested_loops.spv")).unwrap();
    std::fs::write(&truncated, &whole[..whole.len() / 2]).unwrap();
    let missing = dir.join("missing.spv");
    let list = dir.join("list.txt");
    std::fs::write(
        &list,
        format!(
            "# two good shaders, a truncated one and a missing one\ntests/shaders/compute/nested_loops.spv\n\n{}\ntests/shaders/compute/push_constants.spv\n{}\n",
            truncated.display(),
            missing.display()
        ),
    )
    .unwrap();
    let (ok, stdout, stderr) = gcnc(&["batch", list.to_str().unwrap(), "--target", "gfx900"]);
    assert!(ok, "{stderr}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert!(
        lines[0].starts_with("compiled 2 of 4 shaders for gfx900 wave64 (2 rejected) in "),
        "{stdout}"
    );
    assert!(lines[0].ends_with(" shaders/s"), "{stdout}");
    assert_eq!(lines[1], "rejected, front end: Malformed (1):");
    assert!(
        lines[2].starts_with(&format!("  {}: SPIR-V word ", truncated.display())),
        "{stdout}"
    );
    assert_eq!(lines[3], "rejected, unreadable (1):");
    assert!(
        lines[4].starts_with(&format!("  {}: ", missing.display())),
        "{stdout}"
    );
    assert_eq!(lines.len(), 5, "{stdout}");

    // two inputs that would write one output are refused before anything runs
    std::fs::write(
        &list,
        "tests/shaders/compute/nested_loops.spv\ntests/shaders/front/nested_loops.spv\n",
    )
    .unwrap();
    let (ok, _, stderr) = gcnc(&[
        "batch",
        list.to_str().unwrap(),
        "--target",
        "gfx900",
        "-o",
        dir.join("out").to_str().unwrap(),
    ]);
    assert!(!ok);
    assert!(stderr.contains("would both write"), "{stderr}");
    let (ok, _, stderr) = gcnc(&[
        "batch",
        "tests/shaders/compute/nested_loops.spv",
        "--target",
        "gfx900",
    ]);
    assert!(!ok);
    assert!(
        stderr.contains("a SPIR-V module, not a directory or a list of files"),
        "{stderr}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_directory_tree_is_searched_and_keeps_its_layout() {
    let dir = temp("tree");
    let src = |n: &str| Path::new(ROOT).join("tests/shaders/compute").join(n);
    // one name in two subdirectories, a third a level deeper, and a file that is not SPIR-V
    for (rel, from) in [
        ("a/x.spv", "nested_loops.spv"),
        ("b/x.spv", "push_constants.spv"),
        ("b/c/y.spv", "arith_f32.spv"),
    ] {
        let to = dir.join("in").join(rel);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(src(from), &to).unwrap();
    }
    std::fs::write(dir.join("in/b/notes.txt"), "not a shader").unwrap();
    let out = dir.join("out");
    let (ok, stdout, stderr) = gcnc(&[
        "batch",
        dir.join("in").to_str().unwrap(),
        "--target",
        "gfx1030",
        "-o",
        out.to_str().unwrap(),
        "--json",
    ]);
    assert!(ok, "{stderr}");
    let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let files: Vec<String> = report["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["file"].as_str().unwrap().to_string())
        .collect();
    let want: Vec<String> = ["a/x.spv", "b/c/y.spv", "b/x.spv"]
        .iter()
        .map(|r| dir.join("in").join(r).display().to_string())
        .collect();
    assert_eq!(files, want, "every shader of the tree, sorted by path");
    for (rel, from) in [
        ("a/x.elf", "nested_loops.spv"),
        ("b/x.elf", "push_constants.spv"),
        ("b/c/y.elf", "arith_f32.spv"),
    ] {
        let one = dir.join("one.elf");
        let (one_ok, _, e) = gcnc(&[
            "compile",
            src(from).to_str().unwrap(),
            "--target",
            "gfx1030",
            "-o",
            one.to_str().unwrap(),
        ]);
        assert!(one_ok, "{e}");
        assert_eq!(
            std::fs::read(out.join(rel)).unwrap(),
            std::fs::read(&one).unwrap(),
            "{rel} holds {from}'s ELF"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
