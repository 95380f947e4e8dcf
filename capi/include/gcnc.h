/* gcnc: a SPIR-V to AMD GCN/RDNA compiler without LLVM -- the C API (libgcnc).
 * Generated from capi/src/lib.rs by cbindgen (capi/tests/header.rs); do not edit.
 * Ownership of every pointer: docs/c-api.md. */

#ifndef GCNC_H
#define GCNC_H

#include <stddef.h>
#include <stdint.h>

// `gcnc_binding::stride` / `sampler_offset`: the kind's default.
#define GCNC_DEFAULT 4294967295

// `gcnc_compile_info::flags`: compile an unlinked shader for `gcnc_link`
// (docs/link.md): the descriptor and user-data layouts, and the specialization
// constants listed in `link_spec_ids`, are left to the link stage.
#define GCNC_COMPILE_UNLINKED 1

// What a call returned. Every code but `GCNC_SUCCESS` comes with a message
// (`gcnc_last_error`).
typedef enum gcnc_result {
  GCNC_SUCCESS = 0,
  // A null pointer, an unknown enumeration value or flag, a bad wave size, a bad
  // pipeline layout or link state, an entry point the module does not have.
  GCNC_ERROR_INVALID_ARGUMENT = 1,
  // The SPIR-V module is malformed or invalid (the message names the word and opcode).
  GCNC_ERROR_INVALID_SPIRV = 2,
  // Valid input gcnc does not compile (yet): a capability, an instruction, a stage
  // on this generation, more registers than the budget.
  GCNC_ERROR_UNSUPPORTED = 3,
  // An unlinked compile cannot leave this to the link stage: compile the whole
  // pipeline.
  GCNC_ERROR_NEEDS_WHOLE_PIPELINE = 4,
  // The link stage refused its inputs or state.
  GCNC_ERROR_LINK = 5,
  // The cache directory could not be created.
  GCNC_ERROR_IO = 6,
  // A bug in gcnc (a broken internal invariant or a caught panic).
  GCNC_ERROR_INTERNAL = 7,
} gcnc_result;

// A compiled or linked binary: the PAL ELF, the statistics of each compiled stage and
// (made on first request) the disassembly. Opaque.
typedef struct gcnc_binary gcnc_binary;

// A compiler: a target and wave size, and the caches. Opaque.
typedef struct gcnc_compiler gcnc_compiler;

// A GPU generation (`GCNC_GFX900`, `GCNC_GFX1030`, `GCNC_GFX1100`).
typedef uint32_t gcnc_target;

// How to create a compiler.
typedef struct gcnc_options {
  // `GCNC_GFX900`, `GCNC_GFX1030` or `GCNC_GFX1100`.
  gcnc_target target;
  // 32 or 64; 0 for the generation's default (wave64 on GFX9, wave32 after).
  uint32_t wave_size;
  // A directory for the shader cache (created if missing), or NULL for none. Copied.
  const char *cache_dir;
} gcnc_options;

// A shader stage.
typedef uint32_t gcnc_stage;

// What a binding holds (docs/abi.md "Descriptor memory"); fixes the default stride.
typedef uint32_t gcnc_descriptor_kind;

// Where one binding's descriptors sit in its set's memory: the content of the JSON
// pipeline layout (docs/abi.md). A set named by any binding must list every binding the
// shader uses; sets no binding names are packed from the shader's declarations.
typedef struct gcnc_binding {
  uint32_t set;
  uint32_t binding;
  // A `GCNC_DESCRIPTOR_*` value.
  gcnc_descriptor_kind kind;
  // Byte offset of element 0 in the set (a multiple of 4 below 1 MiB).
  uint32_t offset;
  // Bytes between array elements, or `GCNC_DEFAULT` (the kind's size).
  uint32_t stride;
  // Combined image+sampler only: where the S# sits in an element, or `GCNC_DEFAULT`
  // (32).
  uint32_t sampler_offset;
} gcnc_binding;

// One specialization constant value.
typedef struct gcnc_spec_constant {
  // The SpecId.
  uint32_t id;
  // 4 or 8: the bytes of the constant (a bool or 32-bit value is 4).
  uint32_t size;
  // The bit pattern, in the low `size` bytes.
  uint64_t value;
} gcnc_spec_constant;

// What to compile. Zero-initialised, it asks for the module's first compute entry
// point with the default layout.
typedef struct gcnc_compile_info {
  // The entry point name, or NULL for the stage's only/first one.
  const char *entry_point;
  // `GCNC_STAGE_COMPUTE` for `gcnc_compile_spirv` (graphics stages compile as a
  // pipeline with `gcnc_compile_graphics`, which ignores this field).
  gcnc_stage stage;
  // The pipeline layout (`binding_count` entries; NULL when 0).
  const struct gcnc_binding *bindings;
  size_t binding_count;
  // Specialization constants (`spec_constant_count` entries; NULL when 0).
  const struct gcnc_spec_constant *spec_constants;
  size_t spec_constant_count;
  // `GCNC_COMPILE_*` bits.
  uint32_t flags;
  // With `GCNC_COMPILE_UNLINKED`: SpecIds whose values come at link time.
  const uint32_t *link_spec_ids;
  size_t link_spec_id_count;
} gcnc_compile_info;

// Bytes in memory (an input of `gcnc_link`).
typedef struct gcnc_blob {
  const uint8_t *data;
  size_t size;
} gcnc_blob;

// RADV-named statistics of one stage's main code (the names RADV's
// `VK_KHR_pipeline_executable_properties` reports).
typedef struct gcnc_stats {
  // "Instructions"
  uint32_t instructions;
  // "Code size": bytes up to and including `s_endpgm`
  uint32_t code_size;
  // "SGPRs"
  uint32_t sgprs;
  // "VGPRs"
  uint32_t vgprs;
  // "Spilled SGPRs"
  uint32_t spilled_sgprs;
  // "Spilled VGPRs"
  uint32_t spilled_vgprs;
  // "Scratch size": bytes per lane
  uint32_t scratch_size;
  // "LDS size"
  uint32_t lds_size;
  // "Subgroups per SIMD"
  uint32_t subgroups_per_simd;
  // "Copies"
  uint32_t copies;
  // "Branches"
  uint32_t branches;
} gcnc_stats;

// GFX9, gfx900 (Vega): wave64 only.
#define GCNC_GFX900 0

// GFX10.3, gfx1030 (RDNA2): wave32 (default) or wave64.
#define GCNC_GFX1030 1

// GFX11, gfx1100 (RDNA3): wave32 (default) or wave64.
#define GCNC_GFX1100 2

#define GCNC_STAGE_COMPUTE 0

#define GCNC_STAGE_VERTEX 1

#define GCNC_STAGE_FRAGMENT 2

// Uniform or storage buffer (16-byte V#).
#define GCNC_DESCRIPTOR_BUFFER 0

// Uniform or storage texel buffer (16 bytes).
#define GCNC_DESCRIPTOR_TEXEL_BUFFER 1

// Storage image (32-byte T#).
#define GCNC_DESCRIPTOR_STORAGE_IMAGE 2

// Sampled image without a sampler (32-byte T#).
#define GCNC_DESCRIPTOR_SAMPLED_IMAGE 3

// Sampler (16-byte S#).
#define GCNC_DESCRIPTOR_SAMPLER 4

// Combined image + sampler (48 bytes: T#, then S#).
#define GCNC_DESCRIPTOR_COMBINED_IMAGE_SAMPLER 5

#ifdef __cplusplus
extern "C" {
#endif // __cplusplus

// Creates a compiler, or returns NULL (with `gcnc_last_error` set) when the options are
// bad or the cache directory cannot be created. Destroy it with `gcnc_compiler_destroy`.
//
// # Safety
// `opts` is null or points to a valid `gcnc_options` whose `cache_dir` is null or a
// NUL-terminated string.
struct gcnc_compiler *gcnc_compiler_create(const struct gcnc_options *opts);

// Destroys a compiler (NULL is ignored). No call may be using it; binaries it made stay
// valid.
//
// # Safety
// `c` is null or a compiler from `gcnc_compiler_create` not yet destroyed.
void gcnc_compiler_destroy(struct gcnc_compiler *c);

// Compiles one compute shader: SPIR-V words → a PAL ELF, the whole pipeline (a CS
// pipeline ELF ready for PAL) or, with `GCNC_COMPILE_UNLINKED`, an unlinked shader for
// `gcnc_link`. On success `*out` is a new binary the caller destroys with
// `gcnc_binary_destroy`; on failure `*out` is NULL.
//
// # Safety
// `c` is a live compiler, `words` points to `count` words, `info` to a valid
// `gcnc_compile_info`, `out` to writable storage for a pointer.
enum gcnc_result gcnc_compile_spirv(const struct gcnc_compiler *c,
                                    const uint32_t *words,
                                    size_t count,
                                    const struct gcnc_compile_info *info,
                                    struct gcnc_binary **out);

// Compiles a vertex and a fragment shader into one VS+PS pipeline ELF with the default
// graphics state (docs/abi.md "Graphics"). `info` gives the entry point name (NULL:
// each module's first of its stage), the layout and the specialization constants of
// both stages; its `stage` is ignored, and `GCNC_COMPILE_UNLINKED` is refused (graphics
// has no link stage yet). Ownership as `gcnc_compile_spirv`.
//
// # Safety
// As `gcnc_compile_spirv`, for both word arrays.
enum gcnc_result gcnc_compile_graphics(const struct gcnc_compiler *c,
                                       const uint32_t *vs_words,
                                       size_t vs_count,
                                       const uint32_t *fs_words,
                                       size_t fs_count,
                                       const struct gcnc_compile_info *info,
                                       struct gcnc_binary **out);

// Links unlinked shaders (ELF bytes from `gcnc_compile_spirv` with
// `GCNC_COMPILE_UNLINKED`, or read back from anywhere) with the pipeline state into one
// pipeline ELF. `state_json` is the link state in the JSON form of docs/link.md
// (`descriptor_layout`, `user_data`, `spec_constants`, `relocatable`, `choices`); NULL
// means `{}`. The inputs must be for the compiler's generation. With a cache directory
// the parts come from and go to the cache. Ownership as `gcnc_compile_spirv`; the
// linked binary has no statistics of its own (ask the unlinked binaries).
//
// # Safety
// `c` is a live compiler, `inputs` points to `count` blobs each valid for its size,
// `state_json` is null or NUL-terminated, `out` is writable.
enum gcnc_result gcnc_link(const struct gcnc_compiler *c,
                           const struct gcnc_blob *inputs,
                           size_t count,
                           const char *state_json,
                           struct gcnc_binary **out);

// The ELF bytes (`gcnc_binary_size` of them), owned by the binary: valid until
// `gcnc_binary_destroy`. NULL for a NULL binary.
//
// # Safety
// `b` is null or a live binary.
const uint8_t *gcnc_binary_data(const struct gcnc_binary *b);

// The ELF's size in bytes (0 for a NULL binary).
//
// # Safety
// `b` is null or a live binary.
size_t gcnc_binary_size(const struct gcnc_binary *b);

// The RADV-named statistics of `stage` in the binary into `*out`:
// `GCNC_STAGE_COMPUTE` for a compute shader, `GCNC_STAGE_VERTEX` /
// `GCNC_STAGE_FRAGMENT` for a graphics pipeline. A linked pipeline has none
// (`GCNC_ERROR_INVALID_ARGUMENT`).
//
// # Safety
// `b` is null or a live binary; `out` is null or writable.
enum gcnc_result gcnc_binary_stats(const struct gcnc_binary *b,
                                   gcnc_stage stage,
                                   struct gcnc_stats *out);

// The disassembly of the binary's code (LLVM syntax, one instruction per line; a
// graphics or linked binary labels each stage or part with a `; name` line), made on
// the first call. Owned by the binary: valid until `gcnc_binary_destroy`. NULL on
// failure, with `gcnc_last_error` set.
//
// # Safety
// `b` is null or a live binary.
const char *gcnc_binary_disassembly(const struct gcnc_binary *b);

// Destroys a binary (NULL is ignored).
//
// # Safety
// `b` is null or a binary from this API not yet destroyed.
void gcnc_binary_destroy(struct gcnc_binary *b);

// The message of the calling thread's last failed call ("" after a success), with the
// location gcnc knows (SPIR-V word and opcode, IR instruction, link input). Owned by
// the library: valid until the thread's next gcnc call.
const char *gcnc_last_error(void);

// The name of a `gcnc_result` code (`"GCNC_ERROR_INVALID_SPIRV"`), a static string.
const char *gcnc_result_name(uint32_t code);

#ifdef __cplusplus
}  // extern "C"
#endif  // __cplusplus

#endif  /* GCNC_H */
