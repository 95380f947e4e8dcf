//! The `vkref` executable's own `malloc` family: forwards every call to glibc's `__libc_*`
//! implementation and, while [`vkref::compare::heap::measure`] runs, reports block sizes
//! (`malloc_usable_size`) to it. Being defined in the executable, these symbols take
//! precedence over libc's for the whole process — Rust's allocator, RADV, ACO and LLVM alike
//! — which is what lets the comparison count gcnc's and RADV's heap by one rule.
//!
//! Invariants: nothing here allocates or panics; with counting off each call costs one
//! relaxed atomic load on top of glibc's.

use std::ffi::{c_int, c_void};
use vkref::compare::heap::{account, counting};

extern "C" {
    fn __libc_malloc(size: usize) -> *mut c_void;
    fn __libc_calloc(n: usize, size: usize) -> *mut c_void;
    fn __libc_realloc(p: *mut c_void, size: usize) -> *mut c_void;
    fn __libc_free(p: *mut c_void);
    fn __libc_memalign(align: usize, size: usize) -> *mut c_void;
    fn malloc_usable_size(p: *mut c_void) -> usize;
}

const EINVAL: c_int = 22;
const ENOMEM: c_int = 12;

#[inline]
unsafe fn took(p: *mut c_void) -> *mut c_void {
    if !p.is_null() && counting() {
        account(malloc_usable_size(p) as i64);
    }
    p
}

/// # Safety
/// The C `malloc` contract.
#[no_mangle]
pub unsafe extern "C" fn malloc(size: usize) -> *mut c_void {
    took(__libc_malloc(size))
}

/// # Safety
/// The C `calloc` contract.
#[no_mangle]
pub unsafe extern "C" fn calloc(n: usize, size: usize) -> *mut c_void {
    took(__libc_calloc(n, size))
}

/// # Safety
/// The C `free` contract.
#[no_mangle]
pub unsafe extern "C" fn free(p: *mut c_void) {
    if !p.is_null() && counting() {
        account(-(malloc_usable_size(p) as i64));
    }
    __libc_free(p)
}

/// # Safety
/// The C `realloc` contract.
#[no_mangle]
pub unsafe extern "C" fn realloc(p: *mut c_void, size: usize) -> *mut c_void {
    let on = counting();
    let old = if on && !p.is_null() {
        malloc_usable_size(p) as i64
    } else {
        0
    };
    let q = __libc_realloc(p, size);
    if on {
        if !q.is_null() {
            account(malloc_usable_size(q) as i64 - old);
        } else if size == 0 {
            account(-old);
        }
    }
    q
}

/// # Safety
/// The C `memalign` contract.
#[no_mangle]
pub unsafe extern "C" fn memalign(align: usize, size: usize) -> *mut c_void {
    took(__libc_memalign(align, size))
}

/// # Safety
/// The C `aligned_alloc` contract.
#[no_mangle]
pub unsafe extern "C" fn aligned_alloc(align: usize, size: usize) -> *mut c_void {
    took(__libc_memalign(align, size))
}

/// # Safety
/// The C `posix_memalign` contract.
#[no_mangle]
pub unsafe extern "C" fn posix_memalign(out: *mut *mut c_void, align: usize, size: usize) -> c_int {
    if !align.is_power_of_two() || align % std::mem::size_of::<*mut c_void>() != 0 {
        return EINVAL;
    }
    let p = took(__libc_memalign(align, size));
    if p.is_null() {
        return ENOMEM;
    }
    *out = p;
    0
}
