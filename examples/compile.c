/* examples/compile.c: compile a SPIR-V compute shader to a PAL ELF through libgcnc, the
 * C API (docs/c-api.md), as a driver would.
 *
 *   cc examples/compile.c -Icapi/include -L$TARGET/debug -lgcnc_capi -o compile
 *   ./compile SHADER.spv gfx900|gfx1030|gfx1100 OUT.elf [--stats] [--asm]
 *
 * Prints the RADV-named statistics and the disassembly when asked; on failure prints the
 * result code and gcnc's message (with the SPIR-V word or IR instruction) and exits 1.
 * The ELF is byte-identical to `gcnc compile SHADER.spv --target T -o OUT.elf`. */
#include "gcnc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The whole file, or NULL; *size gets its length in bytes. */
static unsigned char *read_file(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  unsigned char *buf = NULL;
  size_t len = 0, cap = 0, n;
  do {
    if (len == cap) {
      cap = cap ? 2 * cap : 4096;
      unsigned char *grown = realloc(buf, cap);
      if (!grown) {
        free(buf);
        fclose(f);
        return NULL;
      }
      buf = grown;
    }
    n = fread(buf + len, 1, cap - len, f);
    len += n;
  } while (n > 0);
  fclose(f);
  *size = len;
  return buf;
}

static int fail(const char *what, gcnc_result r) {
  fprintf(stderr, "compile: %s: %s: %s\n", what, gcnc_result_name(r), gcnc_last_error());
  return 1;
}

int main(int argc, char **argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: %s SHADER.spv gfx900|gfx1030|gfx1100 OUT.elf [--stats] [--asm]\n", argv[0]);
    return 2;
  }
  gcnc_options opts = {0};
  if (strcmp(argv[2], "gfx900") == 0)
    opts.target = GCNC_GFX900;
  else if (strcmp(argv[2], "gfx1030") == 0)
    opts.target = GCNC_GFX1030;
  else if (strcmp(argv[2], "gfx1100") == 0)
    opts.target = GCNC_GFX1100;
  else {
    fprintf(stderr, "compile: unknown target %s\n", argv[2]);
    return 2;
  }

  size_t bytes;
  unsigned char *spirv = read_file(argv[1], &bytes);
  if (!spirv) {
    perror(argv[1]);
    return 1;
  }
  /* SPIR-V is a sequence of little-endian words; copy them so they are aligned */
  size_t count = bytes / 4;
  uint32_t *words = malloc(count ? count * sizeof *words : 1);
  memcpy(words, spirv, count * 4);
  free(spirv);

  gcnc_compiler *compiler = gcnc_compiler_create(&opts);
  if (!compiler) {
    free(words);
    fprintf(stderr, "compile: gcnc_compiler_create: %s\n", gcnc_last_error());
    return 1;
  }

  /* zero-initialised: the first compute entry point, the default layout, no spec constants */
  gcnc_compile_info info = {0};
  info.stage = GCNC_STAGE_COMPUTE;
  gcnc_binary *binary = NULL;
  gcnc_result r = gcnc_compile_spirv(compiler, words, count, &info, &binary);
  free(words);
  if (r != GCNC_SUCCESS) {
    gcnc_compiler_destroy(compiler);
    return fail(argv[1], r);
  }

  int status = 0;
  for (int i = 4; i < argc; i++) {
    if (strcmp(argv[i], "--stats") == 0) {
      gcnc_stats s;
      r = gcnc_binary_stats(binary, GCNC_STAGE_COMPUTE, &s);
      if (r != GCNC_SUCCESS) {
        status = fail("stats", r);
        continue;
      }
      printf("Instructions: %u\nCode size: %u\nSGPRs: %u\nVGPRs: %u\nSpilled SGPRs: %u\n"
             "Spilled VGPRs: %u\nScratch size: %u\nLDS size: %u\nSubgroups per SIMD: %u\n"
             "Copies: %u\nBranches: %u\n",
             s.instructions, s.code_size, s.sgprs, s.vgprs, s.spilled_sgprs, s.spilled_vgprs,
             s.scratch_size, s.lds_size, s.subgroups_per_simd, s.copies, s.branches);
    } else if (strcmp(argv[i], "--asm") == 0) {
      const char *text = gcnc_binary_disassembly(binary);
      if (!text)
        status = fail("disassembly", GCNC_ERROR_INTERNAL);
      else
        fputs(text, stdout);
    } else {
      fprintf(stderr, "compile: unknown option %s\n", argv[i]);
      status = 2;
    }
  }

  FILE *out = fopen(argv[3], "wb");
  if (!out || fwrite(gcnc_binary_data(binary), 1, gcnc_binary_size(binary), out) !=
                  gcnc_binary_size(binary)) {
    perror(argv[3]);
    status = 1;
  }
  if (out && fclose(out) != 0) {
    perror(argv[3]);
    status = 1;
  }
  gcnc_binary_destroy(binary);
  gcnc_compiler_destroy(compiler);
  return status;
}
