//! Middle-end passes over the IR, one file each, and the pipeline that runs them.
//!
//! Every pass is `fn run(m: &mut Module) -> bool` (true when it changed something) and
//! works on every function of the module. [`run_pipeline`] is the whole middle end in one
//! readable function; in debug builds and tests the verifier runs after every pass and a
//! failure names the pass that broke the IR. Analyses (divergence) are side tables
//! returned to the caller, not stored in the IR.
//!
//! Shared CF-editing helpers live in [`cf`]. [`Settings`] (passed by the driver, never
//! read from the environment here) turns the verifier on in release builds and times each
//! pass ([`run_pipeline_with`] returns the timings).

pub mod cf;
pub mod copy_prop;
pub mod cse;
pub mod dce;
pub mod discard_to_demote;
pub mod divergence;
pub mod fold_constants;
pub mod fold_image_16bit;
pub mod fuse_multiply_add;
pub mod if_to_select;
pub mod inline;
pub mod link_varyings;
pub mod lower_explicit_io;
pub mod lower_image_derefs;
pub mod lower_io_to_temporaries;
pub mod lower_large_constants;
pub mod mem2reg;
pub mod scalarize_mem;
pub mod simplify_algebraic;
pub mod unroll_loops;
pub mod vectorize_mem;

use crate::ir::{verify_module, Module, VerifyError};
use crate::settings::{Phase, Settings, Timer, Timing};
use std::fmt;

/// A pass left the IR broken (a compiler bug, reported with the pass name).
#[derive(Clone, Debug)]
pub struct PassError {
    pub pass: &'static str,
    pub err: VerifyError,
}

impl fmt::Display for PassError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "IR invalid after pass {}: {}", self.pass, self.err)
    }
}
impl std::error::Error for PassError {}

/// A pass: its name and entry point.
pub type Pass = (&'static str, fn(&mut Module) -> bool);

/// Every pass, by name (for filetests and `gcnc ir --after`).
pub const PASSES: &[Pass] = &[
    ("discard_to_demote", discard_to_demote::run),
    ("inline", inline::run),
    ("mem2reg", mem2reg::run),
    ("copy_prop", copy_prop::run),
    ("fold_constants", fold_constants::run),
    ("simplify_algebraic", simplify_algebraic::run),
    ("cse", cse::run),
    ("dce", dce::run),
    ("unroll_loops", unroll_loops::run),
    ("if_to_select", if_to_select::run),
    ("lower_io_to_temporaries", lower_io_to_temporaries::run),
    ("lower_explicit_io", lower_explicit_io::run),
    ("lower_image_derefs", lower_image_derefs::run),
    ("fold_image_16bit", fold_image_16bit::run),
    ("lower_large_constants", lower_large_constants::run),
    ("vectorize_mem", vectorize_mem::run),
    ("scalarize_mem", scalarize_mem::run),
    ("fuse_multiply_add", fuse_multiply_add::run),
];

/// Looks a pass up by name.
pub fn pass_by_name(name: &str) -> Option<Pass> {
    PASSES.iter().copied().find(|p| p.0 == name)
}

/// Runs one pass, then the verifier (debug builds).
pub fn run_pass(m: &mut Module, pass: Pass) -> Result<bool, PassError> {
    run_pass_with(m, pass, &Settings::default(), &mut Timer::default())
}

/// Runs one pass under `settings` (timed into `timer`), then the verifier when enabled.
fn run_pass_with(
    m: &mut Module,
    pass: Pass,
    settings: &Settings,
    timer: &mut Timer,
) -> Result<bool, PassError> {
    run_timed(m, pass.0, pass.1, |&p| p, settings, timer)
}

/// [`run_pass_with`] of a pass entry point `run` whose result says what changed
/// (`changed` reads it as a whole).
fn run_timed<R>(
    m: &mut Module,
    name: &'static str,
    run: impl FnOnce(&mut Module) -> R,
    changed: impl FnOnce(&R) -> bool,
    settings: &Settings,
    timer: &mut Timer,
) -> Result<R, PassError> {
    let r = timer.time(name, || run(m), changed);
    if settings.verify_each() {
        verify_module(m).map_err(|err| PassError { pass: name, err })?;
    }
    Ok(r)
}

/// Runs the pipeline, stopping after the first run of `stop_after` if given (for
/// `gcnc ir --after PASS`). Returns whether the stop point was reached.
struct Runner<'a> {
    stop_after: Option<&'a str>,
    stopped: bool,
    settings: &'a Settings,
    timer: Timer,
    /// Per clean-up pass ([`CLEAN_UP`] order): a run now would report no change. Such a
    /// run is skipped. Set when the pass reported no change (a pass is a deterministic
    /// function of the module: it would report no change again), and for DCE after any
    /// run (it is idempotent, [`dce::run_parts`]); cleared by a change of another pass,
    /// except a DCE run that only detached dead instructions (see [`Runner::optimize`]).
    settled: [bool; CLEAN_UP.len()],
}

/// The scalar clean-up loop's passes, in their order.
const CLEAN_UP: [Pass; 5] = [
    ("copy_prop", copy_prop::run),
    ("fold_constants", fold_constants::run),
    ("simplify_algebraic", simplify_algebraic::run),
    ("cse", cse::run),
    ("dce", dce::run),
];

/// DCE's index in [`CLEAN_UP`] (run through [`dce::run_parts`], which says what changed).
const DCE: usize = 4;
const _: () = assert!(matches!(CLEAN_UP[DCE].0.as_bytes(), b"dce"));

impl Runner<'_> {
    fn pass(&mut self, m: &mut Module, p: Pass) -> Result<bool, PassError> {
        if self.stopped {
            return Ok(false);
        }
        let r = run_pass_with(m, p, self.settings, &mut self.timer)?;
        if r {
            self.settled = [false; CLEAN_UP.len()];
        }
        if self.stop_after == Some(p.0) {
            self.stopped = true;
        }
        Ok(r)
    }

    /// The scalar clean-up loop, until a round changes nothing (bounded). A pass already
    /// settled is not run again (it would change nothing), and once all five are settled
    /// the rest of the round could change nothing either: the same rounds, the same
    /// module, as running every pass of every round.
    ///
    /// Detaching dead instructions (DCE's first step) settles nothing anew and unsettles
    /// none of the other four: each decides per placed instruction from that instruction
    /// and its operands (and CSE from the dominator tree, which detaching leaves alone);
    /// the operands of a placed instruction stay placed, so a pass that found nothing to
    /// do with the dead instructions present finds nothing without them.
    fn optimize(&mut self, m: &mut Module) -> Result<(), PassError> {
        for _ in 0..8 {
            let mut progress = false;
            for (k, &p) in CLEAN_UP.iter().enumerate() {
                if self.settled.iter().all(|&s| s) {
                    return Ok(());
                }
                if self.settled[k] {
                    continue;
                }
                let before = cfg!(debug_assertions).then(|| arena_sizes(m));
                let changed = if k == DCE {
                    self.dce(m)?
                } else {
                    let changed = self.pass(m, p)?;
                    self.settled[k] = !changed;
                    changed
                };
                debug_assert!(
                    changed || before == Some(arena_sizes(m)),
                    "{} reported no change but grew an arena",
                    p.0
                );
                progress |= changed;
            }
            if !progress || self.stopped {
                break;
            }
        }
        Ok(())
    }

    /// DCE in the clean-up loop: settled after its run; a change to the control flow
    /// unsettles the others, a change of dead instructions alone does not.
    fn dce(&mut self, m: &mut Module) -> Result<bool, PassError> {
        if self.stopped {
            return Ok(false);
        }
        let c = run_timed(
            m,
            "dce",
            dce::run_parts,
            |c: &dce::Changed| c.any(),
            self.settings,
            &mut self.timer,
        )?;
        if c.control_flow {
            self.settled = [false; CLEAN_UP.len()];
        }
        self.settled[DCE] = true;
        if self.stop_after == Some("dce") {
            self.stopped = true;
        }
        Ok(c.any())
    }
}

/// Each function's instruction and block arena sizes (a pass reporting no change leaves
/// them as they were; debug builds check it for the settled clean-up passes).
fn arena_sizes(m: &Module) -> Vec<(usize, usize)> {
    m.functions
        .iter()
        .map(|(_, f)| (f.insts.len(), f.blocks.len()))
        .collect()
}

/// The middle end: SPIR-V-translated IR in, IR ready for instruction selection out
/// (default [`Settings`]; the driver, `crate::compile`, uses [`run_pipeline_with`]).
pub fn run_pipeline(m: &mut Module) -> Result<(), PassError> {
    run_pipeline_with(m, &Settings::default(), None).map(|_| ())
}

/// What [`run_pipeline_with`] did besides changing the module.
#[derive(Clone, Debug, Default)]
pub struct PipelineRun {
    /// It stopped after the requested pass.
    pub stopped: bool,
    /// Each pass run, in order, when `Settings::time_passes` is set.
    pub timings: Vec<Timing>,
}

/// [`run_pipeline`] under `settings`, stopping after the first run of `stop_after` if
/// given.
pub fn run_pipeline_with(
    m: &mut Module,
    settings: &Settings,
    stop_after: Option<&str>,
) -> Result<PipelineRun, PassError> {
    let mut r = Runner {
        stop_after,
        stopped: false,
        settings,
        timer: Timer::new(settings, Phase::Middle),
        settled: [false; CLEAN_UP.len()],
    };
    // 1. One function: inline every call, lower returns.
    r.pass(m, ("discard_to_demote", discard_to_demote::run))?;
    r.pass(m, ("inline", inline::run))?;
    // Outputs are written once, at the end, from locals.
    r.pass(m, ("lower_io_to_temporaries", lower_io_to_temporaries::run))?;
    // 2. Function/private variables to SSA (copy_prop first folds the casts of pointer
    //    arguments back into plain derefs), then scalar clean-up.
    r.pass(m, ("copy_prop", copy_prop::run))?;
    r.pass(m, ("dce", dce::run))?;
    r.pass(m, ("mem2reg", mem2reg::run))?;
    r.optimize(m)?;
    // 3. Control flow: unroll small constant loops, flatten small ifs into selects.
    if r.pass(m, ("unroll_loops", unroll_loops::run))? {
        // Unrolled indices fold to constants, which lets mem2reg split more arrays.
        r.optimize(m)?;
        r.pass(m, ("mem2reg", mem2reg::run))?;
        r.optimize(m)?;
    }
    r.pass(m, ("if_to_select", if_to_select::run))?;
    r.optimize(m)?;
    // 4. Memory: derefs to byte offsets from the carried layout, then access shaping for
    //    the back-end, and a final clean-up (offset arithmetic folds and CSEs).
    r.pass(m, ("lower_explicit_io", lower_explicit_io::run))?;
    if let Some(err) = lower_explicit_io::unlowered(m).filter(|_| !r.stopped) {
        return Err(PassError {
            pass: "lower_explicit_io",
            err,
        });
    }
    // Image and sampler derefs to descriptor values (before the clean-up, so that CSE
    // merges repeated descriptor loads).
    r.pass(m, ("lower_image_derefs", lower_image_derefs::run))?;
    // 16-bit conversions around image operations into D16 / A16 / G16 forms (before the
    // clean-up, which removes the folded conversions).
    r.pass(m, ("fold_image_16bit", fold_image_16bit::run))?;
    r.optimize(m)?;
    r.pass(m, ("lower_large_constants", lower_large_constants::run))?;
    r.pass(m, ("vectorize_mem", vectorize_mem::run))?;
    r.pass(m, ("scalarize_mem", scalarize_mem::run))?;
    r.optimize(m)?;
    // 5. Contraction, once the algebraic rules have run (they never see an `ffma` they
    //    could have simplified as a multiply and an add).
    if r.pass(m, ("fuse_multiply_add", fuse_multiply_add::run))? {
        r.pass(m, ("dce", dce::run))?;
    }
    Ok(PipelineRun {
        stopped: r.stopped,
        timings: r.timer.timings,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The clean-up loop with no run skipped: every pass of every round until a round
    /// changes nothing (at most eight). Returns the number of runs.
    fn every_pass_every_round(m: &mut Module) -> usize {
        let mut runs = 0;
        for _ in 0..8 {
            let mut progress = false;
            for (_, run) in CLEAN_UP {
                progress |= run(m);
                runs += 1;
            }
            if !progress {
                break;
            }
        }
        runs
    }

    /// [`Runner::optimize`] on its own; returns the number of runs.
    fn skipping(m: &mut Module) -> usize {
        let settings = Settings {
            verify: true,
            time_passes: true,
        };
        let mut r = Runner {
            stop_after: None,
            stopped: false,
            settings: &settings,
            timer: Timer::new(&settings, Phase::Middle),
            settled: [false; CLEAN_UP.len()],
        };
        r.optimize(m).unwrap();
        r.timer.timings.len()
    }

    fn run(m: &mut Module, name: &str) {
        run_pass(m, pass_by_name(name).unwrap()).unwrap();
    }

    /// Every compute test shader, at the pipeline's first clean-up (after mem2reg) and at
    /// its clean-up after memory lowering: the loop that skips settled passes leaves the
    /// module exactly as running every pass of every round does, in fewer runs.
    #[test]
    fn the_clean_up_loop_skips_only_runs_that_change_nothing() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/shaders/compute");
        let mut paths: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "spv"))
            .collect();
        paths.sort();
        assert!(paths.len() > 50, "{dir}");
        let (mut skipped, mut all) = (0, 0);
        for path in &paths {
            let words =
                crate::front::spirv::words_from_bytes(&std::fs::read(path).unwrap()).unwrap();
            let opts = crate::front::spirv::Options::default();
            let Ok(mut m) = crate::front::spirv::translate(&words, &opts) else {
                continue;
            };
            for p in [
                "discard_to_demote",
                "inline",
                "lower_io_to_temporaries",
                "copy_prop",
                "dce",
                "mem2reg",
            ] {
                run(&mut m, p);
            }
            for round in 0..2 {
                let mut reference = m.clone();
                let runs = skipping(&mut m);
                let reference_runs = every_pass_every_round(&mut reference);
                assert_eq!(
                    crate::ir::print_module(&m),
                    crate::ir::print_module(&reference),
                    "{} clean-up {round}",
                    path.display()
                );
                assert!(runs <= reference_runs, "{}", path.display());
                skipped += reference_runs - runs;
                all += reference_runs;
                run(&mut m, "lower_explicit_io");
                run(&mut m, "lower_image_derefs");
            }
        }
        // the skipping is exercised
        assert!(skipped > 0, "{skipped} of {all} runs skipped");
    }
}
