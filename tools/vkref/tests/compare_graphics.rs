//! `vkref compare --graphics` on a few vertex + fragment pairs: the pipelines of a
//! directory are found by name and from draw descriptions; the markdown parses back into
//! well-formed tables whose numbers are the report's; RADV compiles with the wave size
//! gcnc does and reports statistics for both stages; a pair gcnc cannot read is listed as
//! rejected with its error. No timing relation is asserted (timings are the benchmark's
//! output, not a specification).

use std::path::{Path, PathBuf};
use vkref::compare::graphics::{self, GFX_STATS, STAGES};
use vkref::compare::{table, wave_for, Compiler, Options};
use vkref::radv::{self, Family};

fn setup() -> Option<()> {
    radv::set_worker_exe(env!("CARGO_BIN_EXE_vkref"));
    vkref::oracle::radv()
}

fn draw_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/shaders/draw")
}

/// `color` and `interp` as NAME.vert.spv + NAME.frag.spv, `broken` with a truncated
/// fragment shader, and a lone vertex shader (no pair).
fn pair_dir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("vkref-gfx-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    let src = draw_dir();
    for (name, vs, fs) in [
        ("color", "vs_color", "fs_color"),
        ("interp", "vs_interp", "fs_interp"),
        ("broken", "vs_color", "fs_color"),
    ] {
        std::fs::copy(
            src.join(format!("{vs}.spv")),
            d.join(format!("{name}.vert.spv")),
        )
        .unwrap();
        std::fs::copy(
            src.join(format!("{fs}.spv")),
            d.join(format!("{name}.frag.spv")),
        )
        .unwrap();
    }
    let mut fs = std::fs::read(d.join("broken.frag.spv")).unwrap();
    fs.truncate(64);
    std::fs::write(d.join("broken.frag.spv"), fs).unwrap();
    std::fs::copy(src.join("vs_uv.spv"), d.join("alone.vert.spv")).unwrap();
    d
}

fn table<'t>(tables: &'t [table::Parsed], heading: &str) -> &'t table::Parsed {
    tables
        .iter()
        .find(|t| t.heading == heading)
        .unwrap_or_else(|| panic!("no table under {heading:?}"))
}

#[test]
fn pipelines_are_pairs_by_name_and_the_pairs_of_draw_descriptions() {
    let d = pair_dir("find");
    let names: Vec<String> = graphics::pipelines(&d, &[])
        .unwrap()
        .into_iter()
        .map(|p| p.name)
        .collect();
    assert_eq!(names, ["broken", "color", "interp"]);
    let only = graphics::pipelines(&d, &["interp".to_string()]).unwrap();
    assert_eq!(only.len(), 1);
    assert_eq!(only[0].vs, d.join("interp.vert.spv"));
    assert_eq!(only[0].fs, d.join("interp.frag.spv"));
    // The draw descriptions: each distinct pair once, named after its two files.
    let draws = graphics::pipelines(&draw_dir(), &[]).unwrap();
    let names: Vec<&str> = draws.iter().map(|p| p.name.as_str()).collect();
    assert!(names.contains(&"vs_interp+fs_interp"), "{names:?}");
    assert!(names.contains(&"vs_color+fs_color"), "{names:?}");
    let mut dedup = names.clone();
    dedup.dedup();
    assert_eq!(dedup, names, "sorted, each once");
    assert!(graphics::pipelines(&d.join("alone.vert.spv"), &[]).is_err());
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn the_graphics_table_parses_back_to_the_reports_numbers() {
    if setup().is_none() {
        return;
    }
    let dir = pair_dir("run");
    let opts = Options {
        targets: vec![Family::Navi21, Family::Vega10],
        reps: 3,
        ..Options::default()
    };
    let report = graphics::run(&dir, &opts, |l| println!("{l}")).expect("compare");
    let md = graphics::render(&report);
    println!("{md}");
    let tables = table::parse(&md).expect("well-formed markdown tables");

    for (ti, fam) in opts.targets.iter().enumerate() {
        let lanes = wave_for(*fam).lanes();
        let per = table(
            &tables,
            &format!(
                "Graphics per pipeline, {} ({})",
                fam.gfx_target(),
                wave_for(*fam)
            ),
        );
        let names: Vec<&str> = per.rows.iter().map(|r| r[0].as_str()).collect();
        assert_eq!(names, ["broken", "color", "interp"]);
        let col = |n: &str| per.column(n).unwrap_or_else(|| panic!("no column {n}"));
        for (row, p) in per.rows.iter().zip(&report.pipelines) {
            let cell = &p.cells[ti];
            for (c, head) in Compiler::ALL.iter().zip(["gcnc µs", "ACO µs", "LLVM µs"]) {
                let want = match &cell.outcomes[*c as usize] {
                    Ok(m) => format!("{:.1}", m.median_ns() as f64 / 1e3),
                    Err(_) => "—".into(),
                };
                assert_eq!(row[col(head)], want, "{} {head}", p.name);
            }
            for (si, stage) in STAGES.iter().enumerate() {
                for (stat, get) in GFX_STATS {
                    let cells: Vec<&str> =
                        row[col(&format!("{stage} {stat}"))].split(" / ").collect();
                    assert_eq!(cells.len(), 3, "{row:?}");
                    for (c, v) in Compiler::ALL.iter().zip(&cells) {
                        match &cell.outcomes[*c as usize] {
                            Ok(m) => assert_eq!(*v, get(&m.stages[si]).to_string()),
                            Err(_) => assert_eq!(*v, "—"),
                        }
                    }
                }
            }
        }
        // The two readable pairs: every compiler compiled them, each stage has code,
        // every compiler's code runs at the comparison's wave size.
        for p in &report.pipelines[1..] {
            let m = p.cells[ti].complete().expect("all three compiled");
            for (c, m) in Compiler::ALL.iter().zip(m) {
                let m = m.expect("no backend left out");
                assert_eq!(m.waves, [lanes; 2], "{} {c:?} on {fam:?}", p.name);
                assert_eq!(m.times_ns.len(), 3, "{} {c:?}", p.name);
                for q in &m.stages {
                    assert!(q.instructions >= 3 && q.vgprs >= 1, "{} {c:?}", p.name);
                }
            }
        }
        let waves = format!("{lanes}/{lanes}");
        let sum = table(&tables, "Graphics summary");
        let r = &sum.rows[ti];
        let scol = |n: &str| sum.column(n).unwrap();
        assert_eq!(r[scol("target")], fam.gfx_target());
        for c in ["gcnc", "ACO", "LLVM"] {
            assert_eq!(r[scol(&format!("{c} wave VS/FS"))], waves);
        }
        assert_eq!(r[scol("compiled by all")], "2");
        assert_eq!(r[scol("gcnc rejects")], "1");
        let g: f64 = r[scol("gcnc total µs")].parse().unwrap();
        let a: f64 = r[scol("ACO total µs")].parse().unwrap();
        let ratio: f64 = r[scol("gcnc/ACO")].parse().unwrap();
        assert!((g / a - ratio).abs() < 0.002, "{g} / {a} vs {ratio}");
    }

    // The truncated fragment shader: rejected by gcnc's front end, listed with its error.
    let e = report.pipelines[0].cells[0].outcomes[0]
        .as_ref()
        .unwrap_err();
    assert!(e.starts_with("front-end:"), "{e}");
    let rejects = table(&tables, "Graphics gcnc rejects");
    let listed: Vec<(&str, &str)> = rejects
        .rows
        .iter()
        .map(|r| (r[0].as_str(), r[1].as_str()))
        .collect();
    assert_eq!(listed, [("gfx1030", "broken"), ("gfx900", "broken")]);

    // Helped/hurt: per target, stage and statistic; the counts cover the two pairs.
    let hh = table(&tables, "Graphics helped / hurt against ACO");
    assert_eq!(hh.rows.len(), 2 * STAGES.len() * GFX_STATS.len());
    for row in &hh.rows {
        let n: usize = (3..6).map(|i| row[i].parse::<usize>().unwrap()).sum();
        assert_eq!(n, 2, "{row:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn splice_puts_the_graphics_tables_between_their_own_markers() {
    let doc = format!(
        "a\n{}\nold compute\n{}\nb\n{}\nold graphics\n{}\nc\n",
        table::BEGIN,
        table::END,
        graphics::BEGIN,
        graphics::END
    );
    let out =
        table::splice_between(&doc, "| x |\n| --- |\n", graphics::BEGIN, graphics::END).unwrap();
    assert!(out.contains("old compute"));
    assert!(!out.contains("old graphics"));
    assert!(out.contains(&format!(
        "{}\n\n| x |\n| --- |\n{}",
        graphics::BEGIN,
        graphics::END
    )));
}
