#include "CSeamSystem.h"

#include <stdlib.h>  /* defines __GLIBC__ when the C library is glibc */
#if defined(__GLIBC__)
#include <malloc.h>
#endif

long long cseam_heap_in_use(void) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
    struct mallinfo2 info = mallinfo2();
    return (long long)(info.uordblks + info.hblkhd);
#else
    return -1;
#endif
}
