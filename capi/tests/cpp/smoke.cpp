// The C++ smoke test of libgcnc (capi/tests/c_programs.rs builds it with g++): the
// header compiles as C++ (extern "C", no C-only constructs), and a C++ program can
// compile a shader, read the results and see a typed error. Exit 0 = every check held;
// a failed check prints what and exits 1.
#include "gcnc.h"

#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

static int failures = 0;

static void check(bool ok, const std::string &what) {
  if (!ok) {
    std::fprintf(stderr, "smoke: FAILED: %s (last error: %s)\n", what.c_str(), gcnc_last_error());
    failures++;
  }
}

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s SHADER.spv\n", argv[0]);
    return 2;
  }
  std::ifstream f(argv[1], std::ios::binary);
  std::vector<char> bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  std::vector<uint32_t> words(bytes.size() / 4);
  std::memcpy(words.data(), bytes.data(), words.size() * 4);

  gcnc_options opts{};
  opts.target = GCNC_GFX1100;
  opts.wave_size = 64;
  gcnc_compiler *c = gcnc_compiler_create(&opts);
  check(c != nullptr, "gcnc_compiler_create(gfx1100, wave64)");
  if (!c)
    return 1;

  gcnc_compile_info info{};
  gcnc_binary *bin = nullptr;
  gcnc_result r = gcnc_compile_spirv(c, words.data(), words.size(), &info, &bin);
  check(r == GCNC_SUCCESS && bin != nullptr, "compile the shader");
  if (bin) {
    const uint8_t *elf = gcnc_binary_data(bin);
    check(gcnc_binary_size(bin) > 64 && std::memcmp(elf, "\x7f" "ELF", 4) == 0, "an ELF comes out");
    gcnc_stats s{};
    check(gcnc_binary_stats(bin, GCNC_STAGE_COMPUTE, &s) == GCNC_SUCCESS && s.instructions > 0 &&
              s.code_size > 0,
          "statistics of the compute stage");
    const char *text = gcnc_binary_disassembly(bin);
    check(text != nullptr && std::strstr(text, "s_endpgm") != nullptr, "the disassembly ends the program");
    check(gcnc_binary_stats(bin, GCNC_STAGE_FRAGMENT, &s) == GCNC_ERROR_INVALID_ARGUMENT,
          "no fragment statistics in a compute binary");
    gcnc_binary_destroy(bin);
  }

  // a truncated module: a typed error with the SPIR-V word, and no binary
  gcnc_binary *none = reinterpret_cast<gcnc_binary *>(&failures);
  r = gcnc_compile_spirv(c, words.data(), 3, &info, &none);
  check(r == GCNC_ERROR_INVALID_SPIRV, std::string("truncated SPIR-V -> ") + gcnc_result_name(r));
  check(none == nullptr, "no binary after an error");
  check(std::strstr(gcnc_last_error(), "SPIR-V word") != nullptr, "the message names the word");

  gcnc_compiler_destroy(c);
  if (failures == 0)
    std::printf("smoke: all checks held\n");
  return failures == 0 ? 0 : 1;
}
