#ifndef CSEAMSYSTEM_H
#define CSEAMSYSTEM_H

/// Bytes allocated and not yet freed (glibc's mallinfo2: arena plus mmapped blocks), or -1 where
/// glibc does not provide it.
long long cseam_heap_in_use(void);

/// Lowers the calling thread's scheduling priority to `niceness` (0 to 19; higher is lower).
/// Returns 0, or the errno of the failure. Linux schedules each thread on its own, so this
/// affects only the caller.
int cseam_set_thread_niceness(int niceness);

/// Names the calling thread (the first 15 bytes of `name`), as `ps`, `top` and `perf` show it.
/// Returns 0, or the error number of the failure.
int cseam_set_thread_name(const char *name);

/// The calling thread's niceness (-20 to 19).
int cseam_thread_niceness(void);

#endif
