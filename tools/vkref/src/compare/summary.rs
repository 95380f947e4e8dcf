//! Aggregates over a [`Report`]: totals and ratios, the fossil-db-style helped/hurt
//! summary against ACO, peak memory, and how compile time grows with SPIR-V size.
//!
//! Invariant: every aggregate is taken over the shaders all the compilers that ran compiled
//! on that target ([`Cell::complete`]), so a ratio never compares different shader sets;
//! a backend left out (`--backends`) has no aggregate (`None`), not a zero.

use super::{median, Cell, Compiler, Measured, Report, STATS};
use crate::radv::Family;

/// The complete cells of one target with their shader's word count (a backend left out
/// is `None` in each).
pub fn complete(r: &Report, ti: usize) -> Vec<(usize, [Option<&Measured>; 3])> {
    r.shaders
        .iter()
        .filter_map(|s| Some((s.words, s.cells[ti].complete()?)))
        .collect()
}

/// Compile-time totals of one target.
#[derive(Debug, Clone, PartialEq)]
pub struct Totals {
    pub family: Family,
    /// Shaders all three compiled.
    pub shaders: usize,
    /// Shaders gcnc rejected.
    pub rejected: usize,
    /// Sum of the per-shader medians, ns, per compiler (`None`: left out).
    pub total_ns: [Option<u64>; 3],
    /// Median over shaders of gcnc's per-shader time ratio to ACO and to LLVM (NaN: left
    /// out).
    pub median_ratio: [f64; 2],
}

impl Totals {
    /// gcnc's total over ACO's (`i` = 1) or LLVM's (`i` = 2); NaN when it was left out.
    pub fn ratio(&self, i: usize) -> f64 {
        match (self.total_ns[0], self.total_ns[i]) {
            (Some(g), Some(o)) => ratio(g, o),
            _ => f64::NAN,
        }
    }
}

pub fn ratio(a: u64, b: u64) -> f64 {
    if b == 0 {
        f64::NAN
    } else {
        a as f64 / b as f64
    }
}

pub fn totals(r: &Report, ti: usize) -> Totals {
    let cells = complete(r, ti);
    let ran: [bool; 3] = std::array::from_fn(|i| {
        r.shaders
            .iter()
            .any(|s| s.cells[ti].ran(super::Compiler::ALL[i]))
    });
    let mut total_ns: [Option<u64>; 3] = std::array::from_fn(|i| ran[i].then_some(0));
    let mut ratios = [Vec::new(), Vec::new()];
    for (_, m) in &cells {
        for i in 0..3 {
            if let (Some(t), Some(x)) = (&mut total_ns[i], m[i]) {
                *t += x.median_ns();
            }
        }
        for i in 0..2 {
            if let (Some(g), Some(o)) = (m[0], m[i + 1]) {
                ratios[i].push(ratio(g.median_ns(), o.median_ns()));
            }
        }
    }
    let rejected = r
        .shaders
        .iter()
        .filter(|s| s.cells[ti].get(Compiler::Gcnc).is_err())
        .count();
    Totals {
        family: r.targets[ti],
        shaders: cells.len(),
        rejected,
        total_ns,
        median_ratio: [median_f(&ratios[0]), median_f(&ratios[1])],
    }
}

pub fn median_f(v: &[f64]) -> f64 {
    if v.is_empty() {
        return f64::NAN;
    }
    let mut s = v.to_vec();
    s.sort_by(f64::total_cmp);
    let n = s.len();
    if n % 2 == 1 {
        s[n / 2]
    } else {
        (s[n / 2 - 1] + s[n / 2]) / 2.0
    }
}

/// One statistic of the helped/hurt summary: gcnc against ACO.
#[derive(Debug, Clone, PartialEq)]
pub struct HelpedHurt {
    pub stat: &'static str,
    /// Shaders where gcnc's value is lower (better) / higher (worse) / equal.
    pub helped: usize,
    pub hurt: usize,
    pub same: usize,
    pub aco_total: u64,
    pub gcnc_total: u64,
}

impl HelpedHurt {
    /// Total change in percent, gcnc relative to ACO (negative is better).
    pub fn change_percent(&self) -> f64 {
        if self.aco_total == 0 {
            if self.gcnc_total == 0 {
                0.0
            } else {
                f64::INFINITY
            }
        } else {
            (self.gcnc_total as f64 - self.aco_total as f64) * 100.0 / self.aco_total as f64
        }
    }
}

/// Empty when ACO was left out.
pub fn helped_hurt(r: &Report, ti: usize) -> Vec<HelpedHurt> {
    let cells = complete(r, ti);
    if !cells.iter().any(|(_, m)| m[1].is_some()) {
        return Vec::new();
    }
    STATS
        .iter()
        .map(|&(stat, get)| {
            let mut h = HelpedHurt {
                stat,
                helped: 0,
                hurt: 0,
                same: 0,
                aco_total: 0,
                gcnc_total: 0,
            };
            for (_, m) in &cells {
                let (Some(g), Some(a)) = (m[0], m[1]) else {
                    continue;
                };
                let (g, a) = (get(&g.quality), get(&a.quality));
                h.gcnc_total += g;
                h.aco_total += a;
                match g.cmp(&a) {
                    std::cmp::Ordering::Less => h.helped += 1,
                    std::cmp::Ordering::Greater => h.hurt += 1,
                    std::cmp::Ordering::Equal => h.same += 1,
                }
            }
            h
        })
        .collect()
}

/// Least-squares line through (SPIR-V words, median compile ns).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Fit {
    pub points: usize,
    /// Median over shaders of ns per word.
    pub median_ns_per_word: f64,
    pub slope_ns_per_word: f64,
    pub intercept_ns: f64,
    /// Coefficient of determination of the line.
    pub r2: f64,
}

pub fn fit(points: &[(f64, f64)]) -> Fit {
    let n = points.len() as f64;
    let per_word: Vec<f64> = points
        .iter()
        .filter(|(x, _)| *x > 0.0)
        .map(|(x, y)| y / x)
        .collect();
    let mx = points.iter().map(|p| p.0).sum::<f64>() / n;
    let my = points.iter().map(|p| p.1).sum::<f64>() / n;
    let sxx: f64 = points.iter().map(|p| (p.0 - mx) * (p.0 - mx)).sum();
    let sxy: f64 = points.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
    let syy: f64 = points.iter().map(|p| (p.1 - my) * (p.1 - my)).sum();
    let slope = if sxx > 0.0 { sxy / sxx } else { f64::NAN };
    let r2 = if sxx > 0.0 && syy > 0.0 {
        sxy * sxy / (sxx * syy)
    } else {
        f64::NAN
    };
    Fit {
        points: points.len(),
        median_ns_per_word: median_f(&per_word),
        slope_ns_per_word: slope,
        intercept_ns: my - slope * mx,
        r2,
    }
}

/// Time per word for each compiler on one target (`None`: left out).
pub fn per_word(r: &Report, ti: usize) -> [Option<Fit>; 3] {
    let cells = complete(r, ti);
    std::array::from_fn(|i| {
        let pts: Vec<(f64, f64)> = cells
            .iter()
            .filter_map(|(w, m)| Some((*w as f64, m[i]?.median_ns() as f64)))
            .collect();
        (!pts.is_empty()).then(|| fit(&pts))
    })
}

/// Peak memory per compile on one target: (median, max) bytes per compiler over the
/// complete cells that have a measurement; `None` when none has.
pub fn memory(r: &Report, ti: usize) -> [Option<(u64, u64)>; 3] {
    let cells = complete(r, ti);
    std::array::from_fn(|i| {
        let v: Vec<u64> = cells.iter().filter_map(|(_, m)| m[i]?.peak_bytes).collect();
        (!v.is_empty()).then(|| (median(&v), v.iter().copied().max().unwrap_or(0)))
    })
}

/// The rejections and failures of one compiler on one target: (shader, message).
pub fn failures(r: &Report, ti: usize, c: Compiler) -> Vec<(&str, &str)> {
    r.shaders
        .iter()
        .filter_map(|s| {
            let cell: &Cell = &s.cells[ti];
            cell.get(c)
                .as_ref()
                .err()
                .filter(|_| cell.ran(c))
                .map(|e| (s.name.as_str(), e.as_str()))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fit_recovers_a_line() {
        let pts: Vec<(f64, f64)> = (1..=10)
            .map(|w| (w as f64 * 100.0, 5000.0 + 20.0 * w as f64 * 100.0))
            .collect();
        let f = fit(&pts);
        assert!((f.slope_ns_per_word - 20.0).abs() < 1e-9);
        assert!((f.intercept_ns - 5000.0).abs() < 1e-6);
        assert!((f.r2 - 1.0).abs() < 1e-9);
        // ns per word at 100·w words is 20 + 50/w: the middle two of w = 1..10 are w = 5
        // (30) and w = 6 (28.33…).
        assert!((f.median_ns_per_word - (30.0 + 20.0 + 50.0 / 6.0) / 2.0).abs() < 1e-9);
    }

    #[test]
    fn median_of_even_and_odd() {
        assert_eq!(median(&[5, 1, 3]), 3);
        assert_eq!(median(&[4, 1, 3, 2]), 2);
        assert_eq!(median_f(&[4.0, 1.0, 3.0, 2.0]), 2.5);
        assert!(median_f(&[]).is_nan());
    }
}
