//! vkref: the reference drivers gcnc is checked against, driven through Vulkan.
//!
//! - [`reflect`]: SPIR-V reflection (entry points, workgroup size, bindings, push-constant
//!   size, the located interface, spec constants, capabilities), with typed errors on malformed input.
//! - [`lavapipe`]: runs a compute dispatch on Mesa's lavapipe (CPU) and returns the buffers.
//! - [`draw`]: runs a graphics draw description (the emulator's JSON) on lavapipe and
//!   returns the attachments.
//! - [`radv`]: compiles a compute pipeline with RADV (ACO or LLVM) on its null device, in a
//!   child process per configuration, returning compile time, statistics and disassembly;
//!   [`radv_graphics`] does the same for a vertex + fragment pipeline, per stage.
//! - [`corpus`]: the project's compute-shader corpus with driver-independent expectations.
//! - [`compare`]: gcnc against RADV/ACO and RADV/LLVM over a directory of SPIR-V: compile
//!   time, statistics, peak memory, as a markdown table (`vkref compare`); VS+FS pipelines
//!   with `--graphics` ([`compare::graphics`]).
//! - [`images`]: images, samplers and texel formats as tests describe them.
//! - [`run_buffers`]: `vkref run`, one dispatch of any module with buffers from files.
//! - [`oracle`]: the one place that decides whether a missing oracle skips or fails a test.
//!
//! Vulkan is reached through `ash`, which loads `libvulkan.so.1` at run time, so nothing
//! here links against Vulkan at build time.

pub mod compare;
pub mod corpus;
pub mod device;
pub mod draw;
pub mod draw_samples;
pub mod images;
pub mod lavapipe;
pub mod oracle;
pub mod radv;
pub mod radv_graphics;
pub mod reflect;
pub mod run_buffers;
pub mod wire;

pub use device::Error;
