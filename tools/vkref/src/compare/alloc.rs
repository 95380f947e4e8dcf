//! A counting global allocator: measures the peak heap a piece of code allocates, in
//! process, exactly (bytes requested, not pages).
//!
//! Design: [`Counting`] forwards to the system allocator. While a [`measure`] call runs it
//! also keeps the live byte count and its high-water mark in two atomics; outside it costs
//! one relaxed load per allocation, so timing runs are unaffected. A binary opts in by
//! declaring `#[global_allocator] static A: Counting = Counting;` (the `vkref` executable and
//! the comparison tests do); where it is not installed, [`measure`] returns `None` rather
//! than a zero that looks like a measurement.
//!
//! Invariant: only one [`measure`] runs at a time (a mutex serialises them); allocations of
//! other threads during a measurement are counted too, so measure single-threaded code.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering::Relaxed};
use std::sync::Mutex;

static ON: AtomicBool = AtomicBool::new(false);
static LIVE: AtomicI64 = AtomicI64::new(0);
static PEAK: AtomicI64 = AtomicI64::new(0);
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// The counting allocator (see the module doc).
pub struct Counting;

// SAFETY: every call forwards to `System` with the caller's arguments unchanged; the
// bookkeeping only touches atomics and never allocates.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = System.alloc(layout);
        if !p.is_null() && ON.load(Relaxed) {
            grow(layout.size() as i64);
        }
        p
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let p = System.alloc_zeroed(layout);
        if !p.is_null() && ON.load(Relaxed) {
            grow(layout.size() as i64);
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout);
        if ON.load(Relaxed) {
            LIVE.fetch_sub(layout.size() as i64, Relaxed);
        }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = System.realloc(ptr, layout, new_size);
        if !p.is_null() && ON.load(Relaxed) {
            grow(new_size as i64 - layout.size() as i64);
        }
        p
    }
}

fn grow(delta: i64) {
    let now = LIVE.fetch_add(delta, Relaxed) + delta;
    PEAK.fetch_max(now, Relaxed);
}

/// Runs `f` and returns its result with the peak number of heap bytes live at once during
/// it, counting only what was allocated inside (memory freed inside that was allocated
/// before lowers the live count below zero and is not a peak). `None` when [`Counting`]
/// is not the global allocator.
pub fn measure<T>(f: impl FnOnce() -> T) -> (T, Option<u64>) {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|p| p.into_inner());
    LIVE.store(0, Relaxed);
    PEAK.store(0, Relaxed);
    ON.store(true, Relaxed);
    // A probe allocation tells whether the counter is wired in.
    let probe = std::hint::black_box(Box::new([0u8; 64]));
    let installed = PEAK.load(Relaxed) >= 64;
    drop(probe);
    LIVE.store(0, Relaxed);
    PEAK.store(0, Relaxed);
    let r = f();
    ON.store(false, Relaxed);
    let peak = PEAK.load(Relaxed).max(0) as u64;
    (r, installed.then_some(peak))
}
