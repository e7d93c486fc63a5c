// libFuzzer's driver, for Swift executables. SwiftPM links an executable with `main` aliased to
// `<Module>_main`, so libFuzzer's own `main` is never used: each fuzz executable's
// `<Module>_main` calls this instead (LLVM 12+ libFuzzer, in Swift's clang runtime).
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
