// Declarations only (include/libfuzzer.h); the definitions come from libclang_rt.fuzzer.
#include "libfuzzer.h"
