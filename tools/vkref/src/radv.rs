//! Compiles compute shaders (and, through [`crate::radv_graphics`], vertex + fragment
//! pipelines) with Mesa's RADV on its null device — ACO or LLVM, for vega10
//! (GFX9), navi21 (GFX10.3) or gfx1100 (GFX11), wave32 or wave64 — and reports compile time,
//! the pipeline-executable statistics (RADV's names: Instructions, Code size, VGPRs, SGPRs,
//! Pre-Sched SGPRs, Spilled SGPRs/VGPRs, Scratch size, LDS size, Subgroups per SIMD, Copies,
//! Branches, ...) and the disassembly.
//!
//! Design: RADV reads its configuration (`RADV_FORCE_FAMILY`, `RADV_DEBUG`,
//! `RADV_PERFTEST`) when the instance is created, so each [`Config`] lives in its own child
//! process — this executable re-invoked as `vkref radv-worker` — that keeps one instance and
//! answers requests over stdin/stdout ([`crate::wire`] frames). A crash inside RADV (its
//! GFX9 LLVM backend dies on some shaders) kills only the worker: the request returns
//! [`Error::Crashed`] and the next request starts a new worker.
//!
//! Real compiles: every pipeline creation gets a fresh `VkShaderModule` whose SPIR-V header
//! bound word (word 3) is raised by a per-process counter, so RADV's in-memory pipeline
//! cache never hits; by default workers also run with `RADV_DEBUG=nocache` and
//! `MESA_SHADER_CACHE_DISABLE=true`. [`cache_check`] measures that this works: creating the
//! same module twice hits the cache (µs), fresh modules do not (hundreds of µs).
//!
//! Timing covers `vkCreateComputePipelines` only, without capture flags; statistics and
//! internal representations come from one extra creation with
//! `CAPTURE_STATISTICS | CAPTURE_INTERNAL_REPRESENTATIONS`. [`Worker::time`] asks for timed
//! creations alone (benchmarks), [`Worker::peak_memory`] for the heap high-water mark of a
//! creation (see [`crate::compare::heap`]).

use crate::device::{vkc, Error, Gpu, Pick};
use crate::reflect::{self, DescriptorKind, Stage};
use crate::wire::{self, Reader, Writer};
use ash::vk;
use gcnc::isa::{Gen, Wave};
use std::collections::BTreeMap;
use std::io::{BufReader, BufWriter, Read};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Instant;

/// The GPU RADV pretends to have.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Family {
    /// GFX9, gfx900.
    Vega10,
    /// GFX10.3, gfx1030.
    Navi21,
    /// GFX11, gfx1100.
    Gfx1100,
}

impl Family {
    pub const ALL: [Family; 3] = [Family::Vega10, Family::Navi21, Family::Gfx1100];
    /// The `RADV_FORCE_FAMILY` value.
    pub fn radv_name(self) -> &'static str {
        match self {
            Family::Vega10 => "vega10",
            Family::Navi21 => "navi21",
            Family::Gfx1100 => "gfx1100",
        }
    }
    /// The generation gcnc compiles for on the same chip.
    pub fn gen(self) -> Gen {
        match self {
            Family::Vega10 => Gen::Gfx9,
            Family::Navi21 => Gen::Gfx10,
            Family::Gfx1100 => Gen::Gfx11,
        }
    }
    /// The LLVM target name gcnc uses for the same chip.
    pub fn gfx_target(self) -> &'static str {
        self.gen().mcpu()
    }
    /// From either the RADV or the LLVM name.
    pub fn parse(s: &str) -> Option<Family> {
        Family::ALL
            .into_iter()
            .find(|f| f.radv_name() == s || f.gfx_target() == s)
    }
}

/// Which RADV backend compiles.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Backend {
    Aco,
    Llvm,
}

impl Backend {
    pub fn name(self) -> &'static str {
        match self {
            Backend::Aco => "aco",
            Backend::Llvm => "llvm",
        }
    }
    pub fn parse(s: &str) -> Option<Backend> {
        [Backend::Aco, Backend::Llvm]
            .into_iter()
            .find(|b| b.name() == s)
    }
}

/// One worker configuration.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Config {
    pub family: Family,
    pub backend: Backend,
    /// The wave size RADV is asked for (wave32 only on GFX10+).
    pub wave: Wave,
    /// `RADV_DEBUG=nocache` (on by default; [`cache_check`] turns it off to see the cache).
    pub nocache: bool,
}

impl Config {
    pub fn new(family: Family, backend: Backend, wave: Wave) -> Config {
        Config {
            family,
            backend,
            wave,
            nocache: true,
        }
    }

    fn validate(&self) -> Result<(), Error> {
        if self.family.gen().supports(self.wave) {
            Ok(())
        } else {
            Err(Error::Usage(format!(
                "{} is not available on {}",
                self.wave,
                self.family.radv_name()
            )))
        }
    }

    /// The environment the worker runs with.
    pub fn env(&self) -> Vec<(&'static str, String)> {
        let mut debug = Vec::new();
        if self.backend == Backend::Llvm {
            debug.push("llvm");
        }
        if self.nocache {
            debug.push("nocache");
        }
        // No NGG culling code in the vertex stage: gcnc's NGG shader culls nothing
        // (compute is unaffected).
        debug.push("nonggc");
        let mut env = vec![
            (
                "VK_ICD_FILENAMES",
                "/usr/share/vulkan/icd.d/radeon_icd.x86_64.json".to_string(),
            ),
            ("RADV_FORCE_FAMILY", self.family.radv_name().to_string()),
            ("MESA_SHADER_CACHE_DISABLE", "true".to_string()),
            ("RADV_DEBUG", debug.join(",")),
        ];
        if self.wave == Wave::W32 {
            // compute, the vertex stage (NGG) and the fragment stage alike
            env.push(("RADV_PERFTEST", "cswave32,gewave32,pswave32".to_string()));
        }
        env.push(("VKREF_WAVE", self.wave.lanes().to_string()));
        env
    }
}

impl std::fmt::Display for Config {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}/{}/{}",
            self.family.radv_name(),
            self.backend.name(),
            self.wave
        )?;
        if !self.nocache {
            write!(f, "/cache-on")?;
        }
        Ok(())
    }
}

/// A statistic's value as RADV reports it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum StatValue {
    Bool(bool),
    I64(i64),
    U64(u64),
    F64(f64),
}

impl StatValue {
    /// Integer view (booleans 0/1, floats truncated).
    pub fn as_u64(self) -> u64 {
        match self {
            StatValue::Bool(b) => b as u64,
            StatValue::I64(v) => v.max(0) as u64,
            StatValue::U64(v) => v,
            StatValue::F64(v) => v.max(0.0) as u64,
        }
    }
}

/// One pipeline-executable statistic.
#[derive(Debug, Clone, PartialEq)]
pub struct Statistic {
    pub name: String,
    pub description: String,
    pub value: StatValue,
}

/// What compiling one shader produced.
#[derive(Debug, Clone, PartialEq)]
pub struct Compiled {
    /// Wall time of each `vkCreateComputePipelines` (fresh module each), in nanoseconds.
    pub compile_ns: Vec<u64>,
    pub statistics: Vec<Statistic>,
    /// Internal representations that are text: (name, text), e.g. ("Assembly", ...).
    pub representations: Vec<(String, String)>,
    /// The executable's subgroup size (the wave size RADV compiled for).
    pub subgroup_size: u32,
}

impl Compiled {
    /// Median compile time in nanoseconds.
    pub fn median_ns(&self) -> u64 {
        median(&self.compile_ns)
    }
    /// A statistic by RADV's name.
    pub fn stat(&self, name: &str) -> Option<u64> {
        self.statistics
            .iter()
            .find(|s| s.name == name)
            .map(|s| s.value.as_u64())
    }
    /// The disassembly ("Assembly" representation).
    pub fn disassembly(&self) -> Option<&str> {
        self.representations
            .iter()
            .find(|(n, _)| n == "Assembly")
            .map(|(_, t)| t.as_str())
    }
    /// ACO's "Instructions" statistic, or (LLVM gives none) the number of instructions in
    /// the disassembly, not counting `s_code_end` padding.
    pub fn instructions(&self) -> Option<u64> {
        self.stat("Instructions")
            .or_else(|| self.disassembly().map(count_instructions))
    }
    /// SGPRs comparable across generations: ACO reports 128 on GFX10+, so its
    /// "Pre-Sched SGPRs" is used when present.
    pub fn sgprs(&self) -> Option<u64> {
        self.stat("Pre-Sched SGPRs").or_else(|| self.stat("SGPRs"))
    }
}

/// Counts instruction lines in a RADV disassembly: lines whose first token looks like a
/// mnemonic (`s_`, `v_`, `buffer_`, `global_`, ...), excluding `s_code_end`.
pub fn count_instructions(asm: &str) -> u64 {
    const PREFIXES: [&str; 11] = [
        "s_", "v_", "buffer_", "global_", "flat_", "scratch_", "ds_", "image_", "exp ", "tbuffer_",
        "lds_",
    ];
    asm.lines()
        .map(str::trim_start)
        .filter(|l| PREFIXES.iter().any(|p| l.starts_with(p)) && !l.starts_with("s_code_end"))
        .count() as u64
}

/// Result of [`cache_check`]: times in nanoseconds.
#[derive(Debug, Clone, PartialEq)]
pub struct CacheCheck {
    /// First creation from the module.
    pub first_ns: u64,
    /// Later creations from the same module (cache hits unless the cache is off).
    pub same_module_ns: Vec<u64>,
    /// Creations each from a fresh module with a different bound word.
    pub fresh_module_ns: Vec<u64>,
}

impl CacheCheck {
    /// Ok when the same-module repeats were cache hits (the cache exists and is measurable)
    /// and the fresh-module creations were not (they take at least 10× the hit time).
    pub fn verdict(&self) -> Result<(), String> {
        let hit = median(&self.same_module_ns);
        let fresh = median(&self.fresh_module_ns);
        if hit.saturating_mul(10) > self.first_ns {
            return Err(format!(
                "repeating the same module took {hit} ns vs {} ns first: no cache hit seen, the check is not sensitive",
                self.first_ns
            ));
        }
        if fresh < hit.saturating_mul(10) {
            return Err(format!("fresh modules took {fresh} ns, a cache hit {hit} ns: fresh modules are being cached"));
        }
        Ok(())
    }
}

fn median(v: &[u64]) -> u64 {
    if v.is_empty() {
        return 0;
    }
    let mut s = v.to_vec();
    s.sort_unstable();
    s[s.len() / 2]
}

// ---------------------------------------------------------------------------------------
// Parent side.

static WORKER_EXE: OnceLock<PathBuf> = OnceLock::new();

/// Sets the path of the `vkref` executable used as worker (tests pass
/// `env!("CARGO_BIN_EXE_vkref")`). Without it: `$VKREF_EXE`, then a `vkref` beside or one
/// directory above the current executable.
pub fn set_worker_exe(path: impl Into<PathBuf>) {
    let _ = WORKER_EXE.set(path.into());
}

/// The worker executable that will be used.
pub fn worker_exe() -> Result<PathBuf, Error> {
    if let Some(p) = WORKER_EXE.get() {
        return Ok(p.clone());
    }
    if let Some(p) = std::env::var_os("VKREF_EXE") {
        return Ok(PathBuf::from(p));
    }
    let me = std::env::current_exe().map_err(|e| Error::Worker(format!("current_exe: {e}")))?;
    if me.file_stem().is_some_and(|s| s == "vkref") {
        return Ok(me);
    }
    let dir = me.parent().unwrap_or(Path::new("."));
    for cand in [dir.join("vkref"), dir.join("..").join("vkref")] {
        if cand.is_file() {
            return Ok(cand);
        }
    }
    Err(Error::Worker(format!(
        "cannot find the vkref executable near {}; build it (cargo build -p gcnc-vkref) or set VKREF_EXE",
        me.display()
    )))
}

fn xdg_runtime_dir() -> Result<PathBuf, Error> {
    if let Some(d) = std::env::var_os("XDG_RUNTIME_DIR") {
        let d = PathBuf::from(d);
        let probe = d.join(format!(".vkref-probe-{}", std::process::id()));
        if std::fs::write(&probe, b"").is_ok() {
            let _ = std::fs::remove_file(&probe);
            return Ok(d);
        }
    }
    let user = std::env::var("USER").unwrap_or_else(|_| "user".into());
    let d = std::env::temp_dir().join(format!("vkref-xdg-{user}"));
    std::fs::create_dir_all(&d)
        .map_err(|e| Error::Worker(format!("creating {}: {e}", d.display())))?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let _ = std::fs::set_permissions(&d, std::fs::Permissions::from_mode(0o700));
    }
    Ok(d)
}

/// A running worker process for one configuration.
pub struct Worker {
    config: Config,
    child: Child,
    stdin: BufWriter<ChildStdin>,
    stdout: BufReader<ChildStdout>,
    stderr: Arc<Mutex<Vec<u8>>>,
    /// The device the worker opened ("AMD RADV NAVI21", ...).
    pub device_name: String,
    pub driver_info: String,
}

pub(crate) const TAG_ERR: u8 = 0;
const TAG_HELLO: u8 = 1;
const TAG_COMPILE: u8 = 2;
const TAG_CACHE: u8 = 3;
const TAG_TIME: u8 = 4;
const TAG_MEMORY: u8 = 5;
/// Graphics requests ([`crate::radv_graphics`]).
pub(crate) const TAG_GFX_COMPILE: u8 = 6;
pub(crate) const TAG_GFX_TIME: u8 = 7;

impl Worker {
    /// Starts a worker and waits for it to open the device.
    pub fn spawn(config: Config) -> Result<Worker, Error> {
        config.validate()?;
        let exe = worker_exe()?;
        let mut cmd = Command::new(&exe);
        cmd.arg("radv-worker")
            .env_remove("VK_DRIVER_FILES")
            .env_remove("VK_LOADER_DRIVERS_SELECT")
            .env_remove("RADV_PERFTEST")
            .env("XDG_RUNTIME_DIR", xdg_runtime_dir()?)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        for (k, v) in config.env() {
            cmd.env(k, v);
        }
        let mut child = cmd
            .spawn()
            .map_err(|e| Error::Worker(format!("spawning {}: {e}", exe.display())))?;
        let stdin = BufWriter::new(child.stdin.take().expect("piped"));
        let stdout = BufReader::new(child.stdout.take().expect("piped"));
        let mut err_pipe = child.stderr.take().expect("piped");
        let stderr = Arc::new(Mutex::new(Vec::new()));
        let sink = stderr.clone();
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = err_pipe.read(&mut buf) {
                if n == 0 {
                    break;
                }
                let mut s = sink.lock().unwrap_or_else(|p| p.into_inner());
                s.extend_from_slice(&buf[..n]);
                let excess = s.len().saturating_sub(16 << 10);
                s.drain(..excess);
            }
        });
        let mut w = Worker {
            config,
            child,
            stdin,
            stdout,
            stderr,
            device_name: String::new(),
            driver_info: String::new(),
        };
        let hello = w.receive()?;
        let mut r = Reader::new(&hello);
        match r.u8().map_err(proto)? {
            TAG_HELLO => {
                w.device_name = r.str().map_err(proto)?;
                w.driver_info = r.str().map_err(proto)?;
                Ok(w)
            }
            TAG_ERR => Err(Error::Worker(format!(
                "{config}: {}",
                r.str().map_err(proto)?
            ))),
            t => Err(Error::Worker(format!("unexpected hello tag {t}"))),
        }
    }

    pub fn config(&self) -> Config {
        self.config
    }

    /// The worker's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Kills the worker process (SIGKILL), e.g. to abandon a compile that hangs; the next
    /// request reports [`Error::Crashed`].
    pub fn kill(&mut self) {
        let _ = self.child.kill();
    }

    fn crashed(&mut self) -> Error {
        let status = match self.child.wait() {
            Ok(s) => s.to_string(),
            Err(e) => format!("unknown status ({e})"),
        };
        // Let the stderr thread drain what the dead process left.
        std::thread::sleep(std::time::Duration::from_millis(50));
        let stderr =
            String::from_utf8_lossy(&self.stderr.lock().unwrap_or_else(|p| p.into_inner()))
                .into_owned();
        Error::Crashed {
            config: self.config.to_string(),
            status,
            stderr,
        }
    }

    fn receive(&mut self) -> Result<Vec<u8>, Error> {
        match wire::recv(&mut self.stdout) {
            Ok(Some(b)) => Ok(b),
            Ok(None) | Err(_) => Err(self.crashed()),
        }
    }

    pub(crate) fn request(&mut self, body: &[u8]) -> Result<Vec<u8>, Error> {
        if wire::send(&mut self.stdin, body).is_err() {
            return Err(self.crashed());
        }
        self.receive()
    }

    /// Compiles `entry` of `spirv` `repeats` times (fresh module each, timed) plus once with
    /// statistics and internal representations captured.
    pub fn compile(&mut self, spirv: &[u8], entry: &str, repeats: u32) -> Result<Compiled, Error> {
        let mut w = Writer::default();
        w.u8(TAG_COMPILE).bytes(spirv).str(entry).u32(repeats);
        let reply = self.request(&w.buf)?;
        let mut r = Reader::new(&reply);
        match r.u8().map_err(proto)? {
            TAG_COMPILE => {
                let n = r.count(8).map_err(proto)?;
                let compile_ns = (0..n)
                    .map(|_| r.u64())
                    .collect::<Result<_, _>>()
                    .map_err(proto)?;
                let c = read_capture(&mut r, compile_ns)?;
                r.end().map_err(proto)?;
                Ok(c)
            }
            TAG_ERR => Err(Error::Usage(r.str().map_err(proto)?)),
            t => Err(Error::Worker(format!("unexpected reply tag {t}"))),
        }
    }

    /// Times `n` pipeline creations (fresh module each) and nothing else: no statistics
    /// capture, so a benchmark can ask for exactly the creations it times.
    pub fn time(&mut self, spirv: &[u8], entry: &str, n: u32) -> Result<Vec<u64>, Error> {
        self.u64_list(TAG_TIME, spirv, entry, n)
    }

    /// For each of `n` creations (fresh module each): the peak heap bytes it allocated, as
    /// [`crate::compare::heap::measure`] counts them. Fails when the worker executable does
    /// not interpose `malloc` (the `vkref` binary does).
    pub fn peak_memory(&mut self, spirv: &[u8], entry: &str, n: u32) -> Result<Vec<u64>, Error> {
        self.u64_list(TAG_MEMORY, spirv, entry, n)
    }

    fn u64_list(&mut self, tag: u8, spirv: &[u8], entry: &str, n: u32) -> Result<Vec<u64>, Error> {
        let mut w = Writer::default();
        w.u8(tag).bytes(spirv).str(entry).u32(n);
        self.u64_reply(tag, &w.buf)
    }

    /// Sends `request` and reads a reply of `tag` holding a list of `u64`.
    pub(crate) fn u64_reply(&mut self, tag: u8, request: &[u8]) -> Result<Vec<u64>, Error> {
        let reply = self.request(request)?;
        let mut r = Reader::new(&reply);
        match r.u8().map_err(proto)? {
            t if t == tag => {
                let k = r.count(8).map_err(proto)?;
                let v = (0..k)
                    .map(|_| r.u64())
                    .collect::<Result<_, _>>()
                    .map_err(proto)?;
                r.end().map_err(proto)?;
                Ok(v)
            }
            TAG_ERR => Err(Error::Usage(r.str().map_err(proto)?)),
            t => Err(Error::Worker(format!("unexpected reply tag {t}"))),
        }
    }

    /// Measures the in-memory cache: one creation, `n` more from the same module, `n` from
    /// fresh modules.
    pub fn cache_check(&mut self, spirv: &[u8], entry: &str, n: u32) -> Result<CacheCheck, Error> {
        let mut w = Writer::default();
        w.u8(TAG_CACHE).bytes(spirv).str(entry).u32(n);
        let reply = self.request(&w.buf)?;
        let mut r = Reader::new(&reply);
        match r.u8().map_err(proto)? {
            TAG_CACHE => {
                let first_ns = r.u64().map_err(proto)?;
                let mut lists = [Vec::new(), Vec::new()];
                for l in &mut lists {
                    let k = r.count(8).map_err(proto)?;
                    *l = (0..k)
                        .map(|_| r.u64())
                        .collect::<Result<_, _>>()
                        .map_err(proto)?;
                }
                r.end().map_err(proto)?;
                let [same_module_ns, fresh_module_ns] = lists;
                Ok(CacheCheck {
                    first_ns,
                    same_module_ns,
                    fresh_module_ns,
                })
            }
            TAG_ERR => Err(Error::Usage(r.str().map_err(proto)?)),
            t => Err(Error::Worker(format!("unexpected reply tag {t}"))),
        }
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Reads what [`write_capture`] wrote: one executable's statistics, text
/// representations and subgroup size, as a [`Compiled`] with `compile_ns`.
pub(crate) fn read_capture(r: &mut Reader, compile_ns: Vec<u64>) -> Result<Compiled, Error> {
    let n = r.count(13).map_err(proto)?;
    let mut statistics = Vec::with_capacity(n);
    for _ in 0..n {
        let name = r.str().map_err(proto)?;
        let description = r.str().map_err(proto)?;
        let kind = r.u8().map_err(proto)?;
        let raw = r.u64().map_err(proto)?;
        let value = match kind {
            0 => StatValue::Bool(raw != 0),
            1 => StatValue::I64(raw as i64),
            2 => StatValue::U64(raw),
            _ => StatValue::F64(f64::from_bits(raw)),
        };
        statistics.push(Statistic {
            name,
            description,
            value,
        });
    }
    let n = r.count(8).map_err(proto)?;
    let mut representations = Vec::with_capacity(n);
    for _ in 0..n {
        representations.push((r.str().map_err(proto)?, r.str().map_err(proto)?));
    }
    let subgroup_size = r.u32().map_err(proto)?;
    Ok(Compiled {
        compile_ns,
        statistics,
        representations,
        subgroup_size,
    })
}

/// Writes one executable's capture ([`read_capture`] reads it).
pub(crate) fn write_capture(w: &mut Writer, c: &Capture) {
    let (stats, reprs, subgroup_size) = c;
    w.u32(stats.len() as u32);
    for s in stats {
        let (kind, raw) = match s.value {
            StatValue::Bool(b) => (0, b as u64),
            StatValue::I64(v) => (1, v as u64),
            StatValue::U64(v) => (2, v),
            StatValue::F64(v) => (3, v.to_bits()),
        };
        w.str(&s.name).str(&s.description).u8(kind).u64(raw);
    }
    w.u32(reprs.len() as u32);
    for (name, text) in reprs {
        w.str(name).str(text);
    }
    w.u32(*subgroup_size);
}

pub(crate) fn proto(e: wire::Error) -> Error {
    Error::Worker(e.to_string())
}

static POOL: Mutex<BTreeMap<Config, Worker>> = Mutex::new(BTreeMap::new());

/// Runs `f` on the pooled worker for `config`, starting one if needed; a worker that crashed
/// is dropped so the next call starts a fresh one.
pub fn with_worker<T>(
    config: Config,
    f: impl FnOnce(&mut Worker) -> Result<T, Error>,
) -> Result<T, Error> {
    let mut pool = POOL.lock().unwrap_or_else(|p| p.into_inner());
    if let std::collections::btree_map::Entry::Vacant(e) = pool.entry(config) {
        e.insert(Worker::spawn(config)?);
    }
    let w = pool.get_mut(&config).expect("inserted");
    let r = f(w);
    if matches!(r, Err(Error::Crashed { .. }) | Err(Error::Worker(_))) {
        pool.remove(&config);
    }
    r
}

/// Compiles the entry point `main` of a compute shader once, on a pooled worker.
pub fn compile(
    spirv: &[u8],
    stage: Stage,
    family: Family,
    backend: Backend,
    wave: Wave,
) -> Result<Compiled, Error> {
    if stage != Stage::Compute {
        return Err(Error::Usage(format!(
            "only compute shaders are supported, not {stage:?}"
        )));
    }
    let module = reflect::reflect_bytes(spirv)?;
    let entry = module
        .entry_points
        .iter()
        .find(|e| e.stage == Stage::Compute)
        .ok_or_else(|| Error::Usage("the module has no compute entry point".into()))?
        .name
        .clone();
    with_worker(Config::new(family, backend, wave), |w| {
        w.compile(spirv, &entry, 1)
    })
}

/// Runs the cache-defeat check on a worker with RADV's cache left on.
pub fn cache_check(
    spirv: &[u8],
    entry: &str,
    family: Family,
    backend: Backend,
    n: u32,
) -> Result<CacheCheck, Error> {
    let config = Config {
        nocache: false,
        ..Config::new(family, backend, Wave::W64)
    };
    with_worker(config, |w| w.cache_check(spirv, entry, n))
}

// ---------------------------------------------------------------------------------------
// Worker side.

/// The `vkref radv-worker` main loop: opens RADV's device, then answers frames on stdin
/// until it closes. Returns the process exit code.
pub fn worker_main() -> i32 {
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    let mut input = stdin.lock();
    let mut output = BufWriter::new(stdout.lock());
    let gpu = Gpu::new(
        Pick::First,
        &[ash::khr::pipeline_executable_properties::NAME],
    )
    .and_then(|g| {
        if g.info.driver_name.to_lowercase().contains("radv") {
            Ok(g)
        } else {
            Err(Error::NoDevice(format!(
                "expected RADV, got {} ({})",
                g.info.device_name, g.info.driver_name
            )))
        }
    });
    let mut w = Writer::default();
    let gpu = match gpu {
        Ok(g) => {
            w.u8(TAG_HELLO)
                .str(&g.info.device_name)
                .str(&g.info.driver_info);
            g
        }
        Err(e) => {
            w.u8(TAG_ERR).str(&e.to_string());
            let _ = wire::send(&mut output, &w.buf);
            return 1;
        }
    };
    if wire::send(&mut output, &w.buf).is_err() {
        return 1;
    }
    // Shaders that use subgroup operations get RADV's API subgroup size (64) unless the
    // pipeline asks for a size, so every creation requires the configured wave size.
    let wave = std::env::var("VKREF_WAVE")
        .ok()
        .and_then(|w| w.parse().ok())
        .and_then(Wave::from_lanes)
        .unwrap_or(Wave::W64);
    let mut counter = 0u32;
    loop {
        let frame = match wire::recv(&mut input) {
            Ok(Some(f)) => f,
            Ok(None) => return 0,
            Err(_) => return 1,
        };
        let reply = match serve(&gpu, wave, &frame, &mut counter) {
            Ok(b) => b,
            Err(e) => {
                let mut w = Writer::default();
                w.u8(TAG_ERR).str(&e.to_string());
                w.buf
            }
        };
        if wire::send(&mut output, &reply).is_err() {
            return 1;
        }
    }
}

fn serve(gpu: &Gpu, wave: Wave, frame: &[u8], counter: &mut u32) -> Result<Vec<u8>, Error> {
    if matches!(frame.first(), Some(&(TAG_GFX_COMPILE | TAG_GFX_TIME))) {
        return crate::radv_graphics::serve(gpu, frame, counter);
    }
    let mut r = Reader::new(frame);
    let tag = r.u8().map_err(proto)?;
    let spirv = r.bytes().map_err(proto)?;
    let entry = r.str().map_err(proto)?;
    let n = r.u32().map_err(proto)?;
    r.end().map_err(proto)?;
    let mut p = Pipelines::new(gpu, spirv, &entry, wave)?;
    let mut w = Writer::default();
    match tag {
        TAG_COMPILE => {
            let mut times = Vec::new();
            for _ in 0..n {
                *counter += 1;
                times.push(p.create(*counter, false)?.0);
            }
            *counter += 1;
            let (_, pipeline) = p.create(*counter, true)?;
            let captured = capture(gpu, pipeline, 0)?;
            w.u8(TAG_COMPILE).u32(times.len() as u32);
            for t in times {
                w.u64(t);
            }
            write_capture(&mut w, &captured);
        }
        TAG_CACHE => {
            *counter += 1;
            let first = p.create_with(*counter, false, true)?.0;
            let mut same = Vec::new();
            for _ in 0..n {
                same.push(p.create_with(*counter, false, true)?.0);
            }
            let mut fresh = Vec::new();
            for _ in 0..n {
                *counter += 1;
                fresh.push(p.create(*counter, false)?.0);
            }
            w.u8(TAG_CACHE).u64(first).u32(same.len() as u32);
            for t in same {
                w.u64(t);
            }
            w.u32(fresh.len() as u32);
            for t in fresh {
                w.u64(t);
            }
        }
        TAG_TIME => {
            w.u8(TAG_TIME).u32(n);
            for _ in 0..n {
                *counter += 1;
                w.u64(p.create(*counter, false)?.0);
            }
        }
        TAG_MEMORY => {
            w.u8(TAG_MEMORY).u32(n);
            for _ in 0..n {
                *counter += 1;
                let (r, peak) = crate::compare::heap::measure(|| p.create(*counter, false));
                r?;
                let peak = peak.ok_or_else(|| {
                    Error::Worker("this worker executable does not interpose malloc".into())
                })?;
                w.u64(peak);
            }
        }
        t => return Err(Error::Worker(format!("unknown request tag {t}"))),
    }
    Ok(w.buf)
}

/// Pipeline layout for one shader plus the objects of the last creation.
struct Pipelines<'g> {
    gpu: &'g Gpu,
    words: Vec<u32>,
    bound: u32,
    entry: std::ffi::CString,
    wave: Wave,
    set_layouts: Vec<vk::DescriptorSetLayout>,
    layout: vk::PipelineLayout,
    /// Kept module for same-module repeats (cache check).
    kept: vk::ShaderModule,
    pipelines: Vec<vk::Pipeline>,
}

impl<'g> Pipelines<'g> {
    fn new(gpu: &'g Gpu, spirv: &[u8], entry: &str, wave: Wave) -> Result<Self, Error> {
        let module = reflect::reflect_bytes(spirv)?;
        let ep = module.entry(entry)?;
        if ep.stage != Stage::Compute {
            return Err(Error::Usage(format!(
                "entry point {entry:?} is {:?}; only compute is supported",
                ep.stage
            )));
        }
        gpu.check_module(&module)?;
        let words = reflect::words_of(spirv)?;
        let bound = words[3];
        let entry = std::ffi::CString::new(entry)
            .map_err(|_| Error::Usage("entry name contains NUL".into()))?;
        let mut p = Pipelines {
            gpu,
            words,
            bound,
            entry,
            wave,
            set_layouts: Vec::new(),
            layout: vk::PipelineLayout::null(),
            kept: vk::ShaderModule::null(),
            pipelines: Vec::new(),
        };
        let d = &gpu.device;
        let nsets = ep.bindings.iter().map(|b| b.set + 1).max().unwrap_or(0);
        // SAFETY: valid create infos on a live device; handles are destroyed in Drop.
        unsafe {
            for s in 0..nsets {
                let lb: Vec<vk::DescriptorSetLayoutBinding> = ep
                    .bindings
                    .iter()
                    .filter(|b| b.set == s)
                    .map(|b| {
                        vk::DescriptorSetLayoutBinding::default()
                            .binding(b.binding)
                            .descriptor_type(vk_descriptor_type(b.kind))
                            .descriptor_count(b.count.unwrap_or(1).max(1))
                            .stage_flags(vk::ShaderStageFlags::COMPUTE)
                    })
                    .collect();
                let ci = vk::DescriptorSetLayoutCreateInfo::default().bindings(&lb);
                p.set_layouts.push(vkc(
                    "vkCreateDescriptorSetLayout",
                    d.create_descriptor_set_layout(&ci, None),
                )?);
            }
            let ranges = [vk::PushConstantRange {
                stage_flags: vk::ShaderStageFlags::COMPUTE,
                offset: 0,
                size: ep.push_constant_size.unwrap_or(0),
            }];
            let mut lci = vk::PipelineLayoutCreateInfo::default().set_layouts(&p.set_layouts);
            if ep.push_constant_size.unwrap_or(0) > 0 {
                lci = lci.push_constant_ranges(&ranges);
            }
            p.layout = vkc(
                "vkCreatePipelineLayout",
                d.create_pipeline_layout(&lci, None),
            )?;
        }
        Ok(p)
    }

    fn create(&mut self, salt: u32, capture: bool) -> Result<(u64, vk::Pipeline), Error> {
        self.create_with(salt, capture, false)
    }

    /// Creates a pipeline from a module whose bound word is raised by `salt`; with `keep`,
    /// the module is created once and reused for later `keep` calls.
    fn create_with(
        &mut self,
        salt: u32,
        capture: bool,
        keep: bool,
    ) -> Result<(u64, vk::Pipeline), Error> {
        let d = &self.gpu.device;
        // SAFETY: as in `new`; the pipeline is destroyed right away unless captured.
        unsafe {
            let module = if keep && self.kept != vk::ShaderModule::null() {
                self.kept
            } else {
                let mut words = self.words.clone();
                words[3] = self.bound.saturating_add(salt);
                let ci = vk::ShaderModuleCreateInfo::default().code(&words);
                let m = vkc("vkCreateShaderModule", d.create_shader_module(&ci, None))?;
                if keep {
                    self.kept = m;
                }
                m
            };
            let flags = if capture {
                vk::PipelineCreateFlags::CAPTURE_STATISTICS_KHR
                    | vk::PipelineCreateFlags::CAPTURE_INTERNAL_REPRESENTATIONS_KHR
            } else {
                vk::PipelineCreateFlags::empty()
            };
            let mut size = vk::PipelineShaderStageRequiredSubgroupSizeCreateInfo::default()
                .required_subgroup_size(self.wave.lanes());
            let stage = vk::PipelineShaderStageCreateInfo::default()
                .stage(vk::ShaderStageFlags::COMPUTE)
                .module(module)
                .name(&self.entry)
                .push_next(&mut size);
            let ci = [vk::ComputePipelineCreateInfo::default()
                .flags(flags)
                .stage(stage)
                .layout(self.layout)];
            let t = Instant::now();
            let r = d.create_compute_pipelines(vk::PipelineCache::null(), &ci, None);
            let ns = t.elapsed().as_nanos() as u64;
            if !keep {
                d.destroy_shader_module(module, None);
            }
            let pipeline = r.map_err(|(_, e)| Error::Vk {
                call: "vkCreateComputePipelines",
                result: e.as_raw(),
            })?[0];
            if capture {
                self.pipelines.push(pipeline);
            } else {
                d.destroy_pipeline(pipeline, None);
            }
            Ok((ns, pipeline))
        }
    }
}

/// One pipeline executable's statistics, text representations and subgroup size.
pub(crate) type Capture = (Vec<Statistic>, Vec<(String, String)>, u32);

/// The executables of a pipeline created with the capture flags: (stage flags, name).
pub(crate) fn executables(gpu: &Gpu, pipeline: vk::Pipeline) -> Result<Vec<(u32, String)>, Error> {
    let ext = ash::khr::pipeline_executable_properties::Device::new(&gpu.instance, &gpu.device);
    let info = vk::PipelineInfoKHR::default().pipeline(pipeline);
    // SAFETY: the pipeline was created on this device with the capture flags.
    let execs = unsafe {
        vkc(
            "vkGetPipelineExecutablePropertiesKHR",
            ext.get_pipeline_executable_properties(&info),
        )?
    };
    Ok(execs
        .iter()
        .map(|e| (e.stages.as_raw(), cstr(&e.name)))
        .collect())
}

/// Captures executable `index` of a pipeline created with the capture flags.
pub(crate) fn capture(gpu: &Gpu, pipeline: vk::Pipeline, index: u32) -> Result<Capture, Error> {
    {
        let g = gpu;
        let ext = ash::khr::pipeline_executable_properties::Device::new(&g.instance, &g.device);
        // SAFETY: the pipeline was created with the capture flags on this device; the
        // two-call idiom below sizes the data buffers before RADV writes into them.
        unsafe {
            let info = vk::PipelineInfoKHR::default().pipeline(pipeline);
            let execs = vkc(
                "vkGetPipelineExecutablePropertiesKHR",
                ext.get_pipeline_executable_properties(&info),
            )?;
            let Some(exec) = execs.get(index as usize) else {
                return Err(Error::Worker(format!("pipeline has no executable {index}")));
            };
            let subgroup_size = exec.subgroup_size;
            let einfo = vk::PipelineExecutableInfoKHR::default()
                .pipeline(pipeline)
                .executable_index(index);
            let stats = vkc(
                "vkGetPipelineExecutableStatisticsKHR",
                ext.get_pipeline_executable_statistics(&einfo),
            )?;
            let stats = stats
                .iter()
                .map(|s| Statistic {
                    name: cstr(&s.name),
                    description: cstr(&s.description),
                    value: match s.format {
                        vk::PipelineExecutableStatisticFormatKHR::BOOL32 => {
                            StatValue::Bool(s.value.b32 != 0)
                        }
                        vk::PipelineExecutableStatisticFormatKHR::INT64 => {
                            StatValue::I64(s.value.i64)
                        }
                        vk::PipelineExecutableStatisticFormatKHR::UINT64 => {
                            StatValue::U64(s.value.u64)
                        }
                        _ => StatValue::F64(s.value.f64),
                    },
                })
                .collect();
            let fp = ext
                .fp()
                .get_pipeline_executable_internal_representations_khr;
            let mut count = 0u32;
            vkc(
                "vkGetPipelineExecutableInternalRepresentationsKHR",
                fp(g.device.handle(), &einfo, &mut count, std::ptr::null_mut()).result(),
            )?;
            let mut reps =
                vec![vk::PipelineExecutableInternalRepresentationKHR::default(); count as usize];
            vkc(
                "vkGetPipelineExecutableInternalRepresentationsKHR",
                fp(g.device.handle(), &einfo, &mut count, reps.as_mut_ptr()).result(),
            )?;
            let mut bufs: Vec<Vec<u8>> = reps.iter().map(|r| vec![0u8; r.data_size]).collect();
            for (r, b) in reps.iter_mut().zip(&mut bufs) {
                r.p_data = b.as_mut_ptr().cast();
            }
            let res = fp(g.device.handle(), &einfo, &mut count, reps.as_mut_ptr());
            if res != vk::Result::SUCCESS && res != vk::Result::INCOMPLETE {
                return Err(Error::Vk {
                    call: "vkGetPipelineExecutableInternalRepresentationsKHR",
                    result: res.as_raw(),
                });
            }
            let mut out = Vec::new();
            for (r, b) in reps.iter().zip(&bufs) {
                if r.is_text == vk::TRUE {
                    let len = b
                        .iter()
                        .position(|c| *c == 0)
                        .unwrap_or(b.len())
                        .min(r.data_size);
                    out.push((
                        cstr(&r.name),
                        String::from_utf8_lossy(&b[..len]).into_owned(),
                    ));
                }
            }
            Ok((stats, out, subgroup_size))
        }
    }
}

impl Drop for Pipelines<'_> {
    fn drop(&mut self) {
        let d = &self.gpu.device;
        // SAFETY: all handles were created by this struct on `d`.
        unsafe {
            for p in &self.pipelines {
                d.destroy_pipeline(*p, None);
            }
            d.destroy_shader_module(self.kept, None);
            d.destroy_pipeline_layout(self.layout, None);
            for l in &self.set_layouts {
                d.destroy_descriptor_set_layout(*l, None);
            }
        }
    }
}

fn cstr(chars: &[std::ffi::c_char]) -> String {
    let bytes: Vec<u8> = chars
        .iter()
        .take_while(|c| **c != 0)
        .map(|c| *c as u8)
        .collect();
    String::from_utf8_lossy(&bytes).into_owned()
}

/// The Vulkan descriptor type of a reflected binding.
pub fn vk_descriptor_type(k: DescriptorKind) -> vk::DescriptorType {
    match k {
        DescriptorKind::StorageBuffer => vk::DescriptorType::STORAGE_BUFFER,
        DescriptorKind::UniformBuffer => vk::DescriptorType::UNIFORM_BUFFER,
        DescriptorKind::StorageImage => vk::DescriptorType::STORAGE_IMAGE,
        DescriptorKind::SampledImage => vk::DescriptorType::SAMPLED_IMAGE,
        DescriptorKind::Sampler => vk::DescriptorType::SAMPLER,
        DescriptorKind::CombinedImageSampler => vk::DescriptorType::COMBINED_IMAGE_SAMPLER,
        DescriptorKind::UniformTexelBuffer => vk::DescriptorType::UNIFORM_TEXEL_BUFFER,
        DescriptorKind::StorageTexelBuffer => vk::DescriptorType::STORAGE_TEXEL_BUFFER,
        DescriptorKind::InputAttachment => vk::DescriptorType::INPUT_ATTACHMENT,
        DescriptorKind::AccelerationStructure => vk::DescriptorType::ACCELERATION_STRUCTURE_KHR,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn instruction_count_skips_labels_comments_and_code_end() {
        let asm = "main:\nBB0_0:\n\ts_mov_b32 s0, s3 ; BE800003\n\tv_add_u32 v0, s1, v0\n\tbuffer_store_dword v1, v0, s[8:11], 0 offen\n\ts_endpgm\n\ts_code_end\n\ts_code_end\n";
        assert_eq!(count_instructions(asm), 4);
    }

    #[test]
    fn config_environment() {
        let c = Config::new(Family::Navi21, Backend::Llvm, Wave::W32);
        let env = c.env();
        assert!(env.contains(&("RADV_DEBUG", "llvm,nocache,nonggc".to_string())));
        assert!(env.contains(&("RADV_PERFTEST", "cswave32,gewave32,pswave32".to_string())));
        assert!(env.contains(&("RADV_FORCE_FAMILY", "navi21".to_string())));
        assert!(Config::new(Family::Vega10, Backend::Aco, Wave::W32)
            .validate()
            .is_err());
        assert_eq!(Family::parse("gfx1030"), Some(Family::Navi21));
        assert_eq!(Family::parse("vega10"), Some(Family::Vega10));
    }
}
