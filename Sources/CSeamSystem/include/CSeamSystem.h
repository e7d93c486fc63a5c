#ifndef CSEAMSYSTEM_H
#define CSEAMSYSTEM_H

#include <sys/types.h>

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

/// A pipe whose two ends are close-on-exec (pipe2 with O_CLOEXEC), so that a child launched by
/// another thread meanwhile does not inherit them. Returns 0, or the errno of the failure
/// (EMFILE when no descriptor is left).
int cseam_pipe_cloexec(int fds[2]);

/// Launches `path` with `argv` and `envp` (posix_spawn): stdin from /dev/null, stdout and stderr
/// onto the given descriptors, every other descriptor closed (closefrom 3, glibc 2.34 and later),
/// the signal mask empty and SIGPIPE at its default. Returns 0 with `*pid` set, or the errno of
/// the failure; it never aborts the caller, unlike Foundation's `Process`.
int cseam_spawn(pid_t *pid, const char *path, char *const argv[], char *const envp[], int stdout_fd, int stderr_fd);

#endif
