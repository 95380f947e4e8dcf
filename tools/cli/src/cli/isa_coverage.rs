//! `gcnc isa-coverage`: per generation, how many encodings the tables hold and how many are
//! verified against LLVM. "Verified" = checked by tests/isa_llvm.rs with no mismatch: every
//! entry except those listed in isa_tables/llvm_mismatches.txt (that test fails when the
//! list is not exactly the current set of mismatches, so the list is current whenever the
//! test suite passes).

use gcnc::isa::{tables, Gen};

const MISMATCHES: &str = include_str!("../../../../isa_tables/llvm_mismatches.txt");

pub fn report() -> String {
    let mut s = String::new();
    for gen in Gen::ALL {
        let encs = tables::encodings(gen);
        let prefix = format!("{gen} ");
        // lines: "<gen> wave<N> <format> <op> <mnemonic>"; an encoding counts once
        let mut bad: Vec<&str> = MISMATCHES
            .lines()
            .filter(|l| l.starts_with(&prefix))
            .filter_map(|l| l.splitn(3, ' ').nth(2))
            .collect();
        bad.sort();
        bad.dedup();
        let names: std::collections::BTreeSet<_> = encs.iter().map(|d| d.opcode).collect();
        s.push_str(&format!(
            "{gen}: {} encodings ({} instructions) in tables, {} verified against llvm-mc-19, {} mismatching\n",
            encs.len(),
            names.len(),
            encs.len() - bad.len(),
            bad.len(),
        ));
        s.push_str(&memory_line(gen, encs, &bad));
    }
    s
}

/// Per-format counts of the memory, export and interpolation encodings (all of which the
/// LLVM test builds instances for).
fn memory_line(gen: Gen, encs: &[tables::EncDesc], bad: &[&str]) -> String {
    let mut per: std::collections::BTreeMap<String, usize> = Default::default();
    let mut n = 0;
    for d in encs.iter().filter(|d| d.format.is_mem()) {
        *per.entry(format!("{:?}", d.format)).or_default() += 1;
        n += 1;
    }
    let bad_mem = bad
        .iter()
        .filter(|b| per.keys().any(|f| b.starts_with(&format!("{f} "))))
        .count();
    let parts: Vec<String> = per.iter().map(|(f, c)| format!("{f} {c}")).collect();
    format!(
        "  {gen} memory/export/interpolation: {n} encodings ({}), {} verified against llvm-mc-19, {bad_mem} mismatching\n",
        parts.join(", "),
        n - bad_mem
    )
}
