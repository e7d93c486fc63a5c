#ifndef CSEAMHEAP_H
#define CSEAMHEAP_H

/// Bytes allocated and not yet freed (glibc's mallinfo2: arena plus mmapped blocks), or -1 where
/// glibc does not provide it.
long long cseam_heap_in_use(void);

#endif
