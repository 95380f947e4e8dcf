//! Peak heap of one compile, measured at the `malloc` level so that gcnc (Rust, in process)
//! and RADV (C/C++, in its worker process) are counted by the same rule.
//!
//! Design: an executable that wants the measurement defines `malloc`, `free`, `calloc`,
//! `realloc` and the aligned allocators itself, forwarding to glibc's `__libc_*` entry
//! points and reporting each block's `malloc_usable_size` to [`account`] (the `vkref`
//! binary does, in `interpose_malloc.rs`; symbols of the executable take precedence over
//! libc's for every library, including the Vulkan driver it loads). The bookkeeping is off
//! except inside [`measure`], where the bytes live and their high-water mark are kept in
//! atomics. [`measure`] probes with one allocation whether the interposer is present and
//! returns `None` when it is not, never a zero that looks like a measurement.
//!
//! What it counts: bytes of heap blocks allocated inside the measured call and live at the
//! same time, at their usable size (requested size rounded up to malloc's 16-byte
//! granule). Blocks freed inside that were allocated before lower the live count and are
//! not a peak. Every thread's allocations count, so measure code that runs on one.

use std::sync::atomic::{AtomicBool, AtomicI64, Ordering::Relaxed};
use std::sync::Mutex;

static ON: AtomicBool = AtomicBool::new(false);
static LIVE: AtomicI64 = AtomicI64::new(0);
static PEAK: AtomicI64 = AtomicI64::new(0);
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// Whether a measurement is running (the interposer's fast path reads only this).
#[inline]
pub fn counting() -> bool {
    ON.load(Relaxed)
}

/// Records `delta` bytes allocated (positive) or freed (negative). Never allocates.
#[inline]
pub fn account(delta: i64) {
    let now = LIVE.fetch_add(delta, Relaxed) + delta;
    PEAK.fetch_max(now, Relaxed);
}

extern "C" {
    fn malloc(size: usize) -> *mut std::ffi::c_void;
    fn free(p: *mut std::ffi::c_void);
}

/// Runs `f`, returning its result and the peak bytes live at once that it allocated, or
/// `None` when this executable does not interpose `malloc`.
pub fn measure<T>(f: impl FnOnce() -> T) -> (T, Option<u64>) {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|p| p.into_inner());
    LIVE.store(0, Relaxed);
    PEAK.store(0, Relaxed);
    ON.store(true, Relaxed);
    // SAFETY: a plain allocation and its release; the pointer is not used otherwise.
    let installed = unsafe {
        let p = std::hint::black_box(malloc(64));
        let seen = PEAK.load(Relaxed) >= 64;
        free(p);
        seen
    };
    LIVE.store(0, Relaxed);
    PEAK.store(0, Relaxed);
    let r = f();
    ON.store(false, Relaxed);
    (r, installed.then(|| PEAK.load(Relaxed).max(0) as u64))
}
