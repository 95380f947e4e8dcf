//! How the compiler runs, as opposed to what it compiles: verification and timing
//! switches. The library reads no environment variables; a front end (the `gcnc` CLI)
//! may fill [`Settings`] from them (`GCNC_VERIFY=1`, `GCNC_TIME_PASSES=1`).

use std::time::Duration;

/// Compiler switches that do not change the generated code.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Settings {
    /// Run the IR verifier after every middle-end pass and the MIR verifier between
    /// backend stages. Debug builds (and so the tests) always verify.
    pub verify: bool,
    /// Measure each middle-end pass and backend stage ([`Timing`], returned with the
    /// compiled shader).
    pub time_passes: bool,
}

impl Settings {
    /// Whether the verifiers run: always in debug builds, on request in release builds.
    pub fn verify_each(&self) -> bool {
        cfg!(debug_assertions) || self.verify
    }
}

/// The three parts of the chain (compile-time reports split by them).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Phase {
    /// SPIR-V → verified IR.
    Front,
    /// The middle-end passes.
    Middle,
    /// IR → machine code → the (linked) ELF.
    Back,
}

impl Phase {
    pub fn name(self) -> &'static str {
        match self {
            Phase::Front => "front-end",
            Phase::Middle => "middle-end",
            Phase::Back => "backend",
        }
    }
}

/// How long one pass or stage took (when [`Settings::time_passes`] is set).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Timing {
    /// Which part of the chain it belongs to.
    pub phase: Phase,
    /// The pass or stage name (`mem2reg`, `isel`, `regalloc`, ...).
    pub pass: &'static str,
    pub elapsed: Duration,
    /// Whether a middle-end pass changed the IR (false for the other stages).
    pub changed: bool,
}

impl Timing {
    /// One line of the `GCNC_TIME_PASSES` report.
    pub fn to_line(&self) -> String {
        format!(
            "{:>20} {:>10.3?} {}",
            self.pass,
            self.elapsed,
            if self.changed { "changed" } else { "" }
        )
    }
}

/// Collects [`Timing`]s when timing is on; a no-op otherwise.
#[derive(Debug)]
pub struct Timer {
    on: bool,
    /// The phase the next measurements belong to.
    pub phase: Phase,
    pub timings: Vec<Timing>,
}

impl Default for Timer {
    fn default() -> Timer {
        Timer::new(&Settings::default(), Phase::Middle)
    }
}

impl Timer {
    pub fn new(settings: &Settings, phase: Phase) -> Timer {
        Timer {
            on: settings.time_passes,
            phase,
            timings: Vec::new(),
        }
    }

    /// Runs `f` as the stage `pass`, recording its time; `changed` says from the result
    /// whether it changed anything.
    pub fn time<T>(
        &mut self,
        pass: &'static str,
        f: impl FnOnce() -> T,
        changed: impl FnOnce(&T) -> bool,
    ) -> T {
        if !self.on {
            return f();
        }
        let start = std::time::Instant::now();
        let r = f();
        let elapsed = start.elapsed();
        self.timings.push(Timing {
            phase: self.phase,
            pass,
            elapsed,
            changed: changed(&r),
        });
        r
    }

    /// [`Timer::time`] for a stage that is not a middle-end pass.
    pub fn stage<T>(&mut self, pass: &'static str, f: impl FnOnce() -> T) -> T {
        self.time(pass, f, |_| false)
    }
}
