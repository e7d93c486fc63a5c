#define _GNU_SOURCE
#include "CSeamSystem.h"

#include <errno.h>
#include <pthread.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

int cseam_set_thread_niceness(int niceness) {
#if defined(__linux__)
    pid_t thread = (pid_t)syscall(SYS_gettid);
    return setpriority(PRIO_PROCESS, (id_t)thread, niceness) == 0 ? 0 : errno;
#else
    (void)niceness;
    return ENOTSUP;
#endif
}

int cseam_thread_niceness(void) {
#if defined(__linux__)
    pid_t thread = (pid_t)syscall(SYS_gettid);
    errno = 0;
    return getpriority(PRIO_PROCESS, (id_t)thread);
#else
    return 0;
#endif
}

int cseam_set_thread_name(const char *name) {
#if defined(__linux__)
    char truncated[16];
    strncpy(truncated, name, sizeof(truncated) - 1);
    truncated[sizeof(truncated) - 1] = 0;
    return pthread_setname_np(pthread_self(), truncated);
#else
    (void)name;
    return ENOTSUP;
#endif
}
