//! The comparison as markdown, and a parser that reads the tables back.
//!
//! Layout: a header paragraph (what ran, how, how long), then `##` sections — cache
//! defeat, summary per target, helped/hurt against ACO, time per SPIR-V word, peak memory,
//! one per-shader table per target, and the shaders gcnc rejects with their errors. Every
//! time is printed next to its ratio. Statistic cells hold `gcnc / ACO / LLVM`; `—` marks a
//! compiler that failed. Table cells never contain `|` (messages have it replaced), so
//! [`parse`] can split rows on it.

use super::summary::{self, ratio};
use super::{first_line, median, CacheLine, Compiler, Measured, Report, STATS};

pub(crate) fn us(ns: u64) -> String {
    format!("{:.1}", ns as f64 / 1e3)
}

pub(crate) fn opt_us(ns: Option<u64>) -> String {
    ns.map(us).unwrap_or_else(|| "—".into())
}

/// The leading cells of a per-shader (or per-pipeline) row: name, SPIR-V words, the
/// median compile time of gcnc, ACO and LLVM (`—` where one failed), gcnc/ACO and
/// gcnc/LLVM.
pub(crate) fn time_cells(name: &str, words: usize, medians: [Option<u64>; 3]) -> Vec<String> {
    let t = |i: usize| medians[i].map(us).unwrap_or_else(|| "—".into());
    let rt = |i: usize| match (medians[0], medians[i]) {
        (Some(g), Some(o)) => x(ratio(g, o)),
        _ => "—".into(),
    };
    vec![
        name.to_string(),
        words.to_string(),
        t(0),
        t(1),
        t(2),
        rt(1),
        rt(2),
    ]
}

pub(crate) fn x(r: f64) -> String {
    if r.is_finite() {
        format!("{r:.3}")
    } else {
        "—".into()
    }
}

fn kib(b: u64) -> String {
    format!("{:.0}", b as f64 / 1024.0)
}

pub(crate) fn cell_text(s: &str) -> String {
    s.replace('|', "/").replace(['\n', '\r'], " ")
}

/// One line stating the cache-defeat result, as printed by the tool and in the table.
pub fn cache_line_text(l: &CacheLine) -> String {
    let verdict = match l.verdict() {
        Ok(()) => "cache defeated: fresh-module creations are real compiles".to_string(),
        Err(e) => format!("NOT DEFEATED: {e}"),
    };
    format!(
        "cache check {} {} on {}: {verdict}",
        l.family.gfx_target(),
        l.backend.name(),
        l.shader
    )
}

pub(crate) fn row(cells: &[String]) -> String {
    format!("| {} |\n", cells.join(" | "))
}

pub(crate) fn header(cells: &[&str]) -> String {
    let mut s = row(&cells.iter().map(|c| c.to_string()).collect::<Vec<_>>());
    s += &row(&cells.iter().map(|_| "---".to_string()).collect::<Vec<_>>());
    s
}

/// `gcnc / ACO / LLVM` for one statistic, `—` where a compiler failed.
fn triple(ms: [Option<&Measured>; 3], get: impl Fn(&Measured) -> Option<String>) -> String {
    ms.iter()
        .map(|m| m.and_then(&get).unwrap_or_else(|| "—".into()))
        .collect::<Vec<_>>()
        .join(" / ")
}

/// The marker lines between which `--splice` puts the table.
pub const BEGIN: &str = "<!-- vkref compare: begin (generated, do not edit) -->";
pub const END: &str = "<!-- vkref compare: end -->";

/// `doc` with the text between its [`BEGIN`] and [`END`] lines replaced by `table`.
pub fn splice(doc: &str, table: &str) -> Result<String, String> {
    splice_between(doc, table, BEGIN, END)
}

/// [`splice`] between other marker lines (the graphics tables have their own).
pub fn splice_between(doc: &str, table: &str, begin: &str, end: &str) -> Result<String, String> {
    let b = doc.find(begin).ok_or(format!("no {begin:?} line"))?;
    let e = doc[b..]
        .find(end)
        .ok_or(format!("no {end:?} line after the begin marker"))?
        + b;
    Ok(format!(
        "{}{begin}\n\n{}\n{}",
        &doc[..b],
        table.trim_end(),
        &doc[e..]
    ))
}

/// Renders the whole report.
pub fn render(r: &Report) -> String {
    let mut s = String::new();
    s += "## gcnc vs RADV/ACO vs RADV/LLVM\n\n";
    s += &format!(
        "{} shaders × {} targets ({}); compile time is the median of {} runs per compiler (fewer, at least {}, where they would take over {:.1} s), taken interleaved (gcnc, ACO, LLVM, gcnc, …) after one untimed warm-up; the comparison took {:.0} s. \
Wave size like with like: wave64 on gfx900, wave32 on gfx1030 and gfx1100, for gcnc and RADV alike. \
gcnc's time is SPIR-V words → PAL ELF bytes in process (front-end, middle-end, backend, ELF); RADV's is `vkCreateComputePipelines` on its null device with a fresh shader module each time. \
Totals and ratios cover only shaders all three compiled.\n\n",
        r.shaders.len(),
        r.targets.len(),
        r.targets.iter().map(|f| f.gfx_target()).collect::<Vec<_>>().join(", "),
        r.reps,
        super::MIN_RUNS.min(r.reps),
        super::BUDGET_NS as f64 / 1e9,
        r.elapsed_s
    );
    s += &format!(
        "- machine: {}; 1-minute load average {:.2} at the start, {:.2} at the end\n",
        r.cpu, r.load.0, r.load.1
    );
    for (f, d) in &r.drivers {
        s += &format!("- RADV on {}: {}\n", f.gfx_target(), cell_text(d));
    }
    s += "\n### Cache defeat\n\n";
    s += "RADV's cache left on: a repeat from the same module is a cache hit; fresh modules (differing SPIR-V bound word) must cost ≥ 10 hits, and so must the benchmark's creations (cache off).\n\n";
    s += &header(&[
        "target",
        "backend",
        "shader",
        "first µs",
        "cache hit µs",
        "fresh module µs",
        "benchmark µs",
        "verdict",
    ]);
    for l in &r.cache {
        let (first, hit, fresh) = match &l.check {
            Ok(c) => (
                us(c.first_ns),
                us(median(&c.same_module_ns)),
                us(median(&c.fresh_module_ns)),
            ),
            Err(_) => ("—".into(), "—".into(), "—".into()),
        };
        let verdict = match l.verdict() {
            Ok(()) => "defeated".to_string(),
            Err(e) => format!("NOT DEFEATED: {}", cell_text(&e)),
        };
        s += &row(&[
            l.family.gfx_target().into(),
            l.backend.name().into(),
            l.shader.clone(),
            first,
            hit,
            fresh,
            l.bench_median_ns.map(us).unwrap_or_else(|| "—".into()),
            verdict,
        ]);
    }
    s += "\n### Summary\n\n";
    s += &header(&[
        "target",
        "wave",
        "compiled by all",
        "gcnc rejects",
        "gcnc total µs",
        "ACO total µs",
        "LLVM total µs",
        "gcnc/ACO",
        "gcnc/LLVM",
        "median gcnc/ACO",
        "median gcnc/LLVM",
    ]);
    for ti in 0..r.targets.len() {
        let t = summary::totals(r, ti);
        s += &row(&[
            t.family.gfx_target().into(),
            super::wave_for(t.family).lanes().to_string(),
            t.shaders.to_string(),
            t.rejected.to_string(),
            opt_us(t.total_ns[0]),
            opt_us(t.total_ns[1]),
            opt_us(t.total_ns[2]),
            x(t.ratio(1)),
            x(t.ratio(2)),
            x(t.median_ratio[0]),
            x(t.median_ratio[1]),
        ]);
    }
    s += "\n### gcnc time by phase\n\n";
    s += "Per-shader medians of each phase, summed over the shaders all three compiled: front-end (SPIR-V → IR), middle-end (IR passes), backend (instruction selection → register allocation → ELF).\n\n";
    s += &header(&[
        "target",
        "front-end µs",
        "middle-end µs",
        "backend µs",
        "front %",
        "middle %",
        "backend %",
    ]);
    for ti in 0..r.targets.len() {
        let mut ph = [0u64; 3];
        for (_, m) in summary::complete(r, ti) {
            let g = m[0].expect("gcnc compiled every complete cell");
            for (k, p) in ph.iter_mut().enumerate() {
                *p += g.phase_median_ns(k);
            }
        }
        let all: u64 = ph.iter().sum();
        let mut cells = vec![r.targets[ti].gfx_target().to_string()];
        cells.extend(ph.iter().map(|p| us(*p)));
        cells.extend(ph.iter().map(|p| format!("{:.1}", 100.0 * ratio(*p, all))));
        s += &row(&cells);
    }
    s += "\n### Helped / hurt against ACO\n\n";
    s += "fossil-db style, per statistic over the shaders all three compiled: helped = gcnc lower than ACO, hurt = higher; change = gcnc total against ACO total.\n\n";
    s += &header(&[
        "target",
        "statistic",
        "helped",
        "hurt",
        "same",
        "ACO total",
        "gcnc total",
        "change %",
    ]);
    for ti in 0..r.targets.len() {
        for h in summary::helped_hurt(r, ti) {
            s += &row(&[
                r.targets[ti].gfx_target().into(),
                h.stat.into(),
                h.helped.to_string(),
                h.hurt.to_string(),
                h.same.to_string(),
                h.aco_total.to_string(),
                h.gcnc_total.to_string(),
                format!("{:+.2}", h.change_percent()),
            ]);
        }
    }
    s += "\n### Compile time per SPIR-V word\n\n";
    s += "Median over shaders of (median compile time / SPIR-V words), and a least-squares line time = intercept + slope × words.\n\n";
    s += &header(&[
        "target",
        "compiler",
        "shaders",
        "median ns/word",
        "slope ns/word",
        "intercept µs",
        "R²",
    ]);
    for ti in 0..r.targets.len() {
        for (i, f) in summary::per_word(r, ti).iter().enumerate() {
            let Some(f) = f else { continue };
            s += &row(&[
                r.targets[ti].gfx_target().into(),
                Compiler::ALL[i].name().into(),
                f.points.to_string(),
                format!("{:.1}", f.median_ns_per_word),
                format!("{:.1}", f.slope_ns_per_word),
                format!("{:.1}", f.intercept_ns / 1e3),
                format!("{:.3}", f.r2),
            ]);
        }
    }
    s += "\n### Peak memory per compile\n\n";
    s += "Heap high-water mark of one compile, by one rule for both sides: the tool's executable interposes `malloc`, so every block allocated during the compile (gcnc in process; RADV in its worker: the pipeline creation, ACO/LLVM included) counts at its usable size while live.\n\n";
    s += &header(&[
        "target",
        "compiler",
        "median KiB",
        "max KiB",
        "gcnc median / this",
    ]);
    for ti in 0..r.targets.len() {
        let m = summary::memory(r, ti);
        for (i, v) in m.iter().enumerate() {
            let Some((med, max)) = v else { continue };
            s += &row(&[
                r.targets[ti].gfx_target().into(),
                Compiler::ALL[i].name().into(),
                kib(*med),
                kib(*max),
                m[0].map(|g| x(ratio(g.0, *med)))
                    .unwrap_or_else(|| "—".into()),
            ]);
        }
    }
    for (ti, fam) in r.targets.iter().enumerate() {
        s += &format!(
            "\n### Per shader, {} ({})\n\n",
            fam.gfx_target(),
            super::wave_for(*fam)
        );
        s += "`gcnc executed/wave`: instructions one wave of gcnc's code executes on the emulator with the corpus test's own inputs (shaders of the compute corpus only). ACO's code is not run: RADV exposes its disassembly but not its user-SGPR layout (which descriptor-set pointers and inlined push constants arrive where depends on its NIR analysis), and its descriptor sets are laid out RADV's way (BENCHMARKS.md, issue 15).\n\n";
        let mut cols = vec![
            "shader",
            "words",
            "gcnc µs",
            "ACO µs",
            "LLVM µs",
            "gcnc/ACO",
            "gcnc/LLVM",
        ];
        cols.extend(STATS.iter().map(|s| s.0));
        cols.push("peak KiB");
        cols.push("gcnc executed/wave");
        s += &header(&cols);
        for sh in &r.shaders {
            let c = &sh.cells[ti];
            let ms: [Option<&Measured>; 3] = std::array::from_fn(|i| c.outcomes[i].as_ref().ok());
            let mut cells = time_cells(&sh.name, sh.words, ms.map(|m| m.map(Measured::median_ns)));
            for (_, get) in STATS {
                cells.push(triple(ms, |m| Some(get(&m.quality).to_string())));
            }
            cells.push(triple(ms, |m| m.peak_bytes.map(kib)));
            cells.push(match &c.executed_per_wave {
                Some(Ok(n)) => n.to_string(),
                Some(Err(_)) => "failed".into(),
                None => "—".into(),
            });
            s += &row(&cells);
        }
        let t = summary::totals(r, ti);
        let mut cells = vec![
            format!("total ({})", t.shaders),
            summary::complete(r, ti)
                .iter()
                .map(|(w, _)| w)
                .sum::<usize>()
                .to_string(),
            opt_us(t.total_ns[0]),
            opt_us(t.total_ns[1]),
            opt_us(t.total_ns[2]),
            x(t.ratio(1)),
            x(t.ratio(2)),
        ];
        let hh = summary::helped_hurt(r, ti);
        for h in &hh {
            cells.push(format!("{} / {} / —", h.gcnc_total, h.aco_total));
        }
        cells.push("—".into());
        cells.push("—".into());
        s += &row(&cells);
    }
    let dynamic_failures: Vec<String> = r
        .targets
        .iter()
        .enumerate()
        .flat_map(|(ti, fam)| {
            r.shaders
                .iter()
                .filter_map(move |sh| match &sh.cells[ti].executed_per_wave {
                    Some(Err(e)) => Some(row(&[
                        fam.gfx_target().into(),
                        sh.name.clone(),
                        cell_text(first_line(e)),
                    ])),
                    _ => None,
                })
        })
        .collect();
    if !dynamic_failures.is_empty() {
        s += "\n### Emulator runs that failed\n\n";
        s += &header(&["target", "shader", "error"]);
        s += &dynamic_failures.concat();
    }
    s += "\n### gcnc rejects\n\n";
    s += &header(&["target", "shader", "error"]);
    for (ti, fam) in r.targets.iter().enumerate() {
        for (name, e) in summary::failures(r, ti, Compiler::Gcnc) {
            s += &row(&[fam.gfx_target().into(), name.into(), cell_text(e)]);
        }
    }
    s += "\n### RADV failures\n\n";
    s += &header(&["target", "backend", "shader", "error"]);
    for (ti, fam) in r.targets.iter().enumerate() {
        for c in [Compiler::Aco, Compiler::Llvm] {
            for (name, e) in summary::failures(r, ti, c) {
                s += &row(&[
                    fam.gfx_target().into(),
                    c.name().into(),
                    name.into(),
                    cell_text(first_line(e)),
                ]);
            }
        }
    }
    s
}

/// A markdown table read back: the heading above it, its header cells and rows.
#[derive(Debug, Clone, PartialEq)]
pub struct Parsed {
    pub heading: String,
    pub header: Vec<String>,
    pub rows: Vec<Vec<String>>,
}

impl Parsed {
    /// The column index of a header cell.
    pub fn column(&self, name: &str) -> Option<usize> {
        self.header.iter().position(|h| h == name)
    }
}

/// Reads every table of `md` back. Errors when a table is malformed: no separator row
/// under the header, or a row whose cell count differs from the header's (line number).
pub fn parse(md: &str) -> Result<Vec<Parsed>, String> {
    let mut out: Vec<Parsed> = Vec::new();
    let mut heading = String::new();
    let mut lines = md.lines().enumerate().peekable();
    while let Some((n, l)) = lines.next() {
        if let Some(h) = l.strip_prefix('#') {
            heading = h.trim_start_matches('#').trim().to_string();
            continue;
        }
        if !l.starts_with('|') {
            continue;
        }
        let header = split_row(l).ok_or(format!("line {}: unterminated row", n + 1))?;
        let sep = lines.next().and_then(|(_, s)| split_row(s)).ok_or(format!(
            "line {}: table header without separator row",
            n + 1
        ))?;
        if sep.len() != header.len()
            || !sep
                .iter()
                .all(|c| c.chars().all(|ch| ch == '-' || ch == ':') && !c.is_empty())
        {
            return Err(format!("line {}: bad separator row", n + 2));
        }
        let mut rows = Vec::new();
        while let Some((m, r)) = lines.peek().copied() {
            if !r.starts_with('|') {
                break;
            }
            lines.next();
            let cells = split_row(r).ok_or(format!("line {}: unterminated row", m + 1))?;
            if cells.len() != header.len() {
                return Err(format!(
                    "line {}: {} cells under a {}-column header",
                    m + 1,
                    cells.len(),
                    header.len()
                ));
            }
            rows.push(cells);
        }
        out.push(Parsed {
            heading: heading.clone(),
            header,
            rows,
        });
    }
    Ok(out)
}

fn split_row(l: &str) -> Option<Vec<String>> {
    let inner = l.trim().strip_prefix('|')?.strip_suffix('|')?;
    Some(inner.split('|').map(|c| c.trim().to_string()).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_reads_tables_with_their_headings() {
        let md = "## A\n\ntext\n\n| a | b |\n| --- | --- |\n| 1 | 2 |\n| 3 | 4 |\n\n### B\n| x |\n|---|\n";
        let t = parse(md).unwrap();
        assert_eq!(t.len(), 2);
        assert_eq!(t[0].heading, "A");
        assert_eq!(t[0].header, ["a", "b"]);
        assert_eq!(t[0].rows, [["1", "2"], ["3", "4"]]);
        assert_eq!(t[1].heading, "B");
        assert!(t[1].rows.is_empty());
    }

    #[test]
    fn parse_rejects_ragged_rows_and_missing_separators() {
        let e = parse("| a | b |\n| --- | --- |\n| 1 |\n").unwrap_err();
        assert!(e.contains("line 3"), "{e}");
        let e = parse("| a | b |\n| 1 | 2 |\n").unwrap_err();
        assert!(e.contains("separator"), "{e}");
    }

    #[test]
    fn splice_replaces_only_between_the_markers() {
        let doc = format!("intro\n{BEGIN}\nold table\n{END}\nafter\n");
        let out = splice(&doc, "| a |\n| --- |\n").unwrap();
        assert_eq!(
            out,
            format!("intro\n{BEGIN}\n\n| a |\n| --- |\n{END}\nafter\n")
        );
        assert_eq!(splice(&out, "| a |\n| --- |\n").unwrap(), out);
        assert!(splice("no markers", "x").is_err());
    }

    #[test]
    fn cells_never_carry_a_bar_or_newline() {
        assert_eq!(cell_text("a|b\nc"), "a/b c");
    }
}
