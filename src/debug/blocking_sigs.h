/* SPDX-License-Identifier: MIT */
#ifndef PK_DEBUG_BLOCKING_SIGS_H
#define PK_DEBUG_BLOCKING_SIGS_H

/*
 * The prototypes of the wrapped functions with a fixed argument list, as
 * W(return type, name, (parameters), (arguments)), for the two sets of
 * wrappers: __wrap_* (src/debug/blocking.c, for -Wl,--wrap=) and the
 * plain names libpreempt.so interposes (src/debug/interpose/).  printf,
 * fprintf, open, __printf_chk, __fprintf_chk and free (variadic, or free's
 * void) are written out by hand in both.  The __*_chk functions are what
 * glibc's <stdio.h> and <unistd.h> call under _FORTIFY_SOURCE.
 */

#include <poll.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

/* clang-format off */
#define PK_BLOCKING_SLEEPER_SIGS(W)                                            \
	W(ssize_t, read, (int fd, void *buf, size_t n), (fd, buf, n))          \
	W(ssize_t, write, (int fd, const void *buf, size_t n), (fd, buf, n))   \
	W(int, nanosleep, (const struct timespec *req, struct timespec *rem),  \
	  (req, rem))                                                          \
	W(int, clock_nanosleep, (clockid_t clk, int flags,                     \
	  const struct timespec *req, struct timespec *rem),                   \
	  (clk, flags, req, rem))                                              \
	W(int, usleep, (useconds_t us), (us))                                  \
	W(unsigned int, sleep, (unsigned int s), (s))                          \
	W(int, poll, (struct pollfd *fds, nfds_t n, int timeout),              \
	  (fds, n, timeout))                                                   \
	W(int, select, (int n, fd_set *r, fd_set *w, fd_set *e,                \
	  struct timeval *t), (n, r, w, e, t))                                 \
	W(int, epoll_wait, (int epfd, struct epoll_event *ev, int max,         \
	  int timeout), (epfd, ev, max, timeout))                              \
	W(int, pthread_mutex_lock, (pthread_mutex_t *m), (m))                  \
	W(int, pthread_cond_wait, (pthread_cond_t *c, pthread_mutex_t *m),     \
	  (c, m))                                                              \
	W(int, pthread_cond_timedwait, (pthread_cond_t *c, pthread_mutex_t *m, \
	  const struct timespec *t), (c, m, t))                                \
	W(int, sem_wait, (sem_t *s), (s))                                      \
	W(int, sem_timedwait, (sem_t *s, const struct timespec *t), (s, t))    \
	W(FILE *, fopen, (const char *path, const char *mode), (path, mode))   \
	W(int, fclose, (FILE *f), (f))                                         \
	W(int, fflush, (FILE *f), (f))                                         \
	W(size_t, fwrite, (const void *p, size_t size, size_t n, FILE *f),     \
	  (p, size, n, f))                                                     \
	W(int, fputs, (const char *s, FILE *f), (s, f))                        \
	W(int, puts, (const char *s), (s))                                     \
	W(int, vprintf, (const char *fmt, va_list ap), (fmt, ap))              \
	W(int, vfprintf, (FILE *f, const char *fmt, va_list ap), (f, fmt, ap))

/* glibc's fortified entry points (not in its headers' public part). */
extern int __open_2(const char *path, int flags);
extern ssize_t __read_chk(int fd, void *buf, size_t n, size_t buflen);
extern int __printf_chk(int flag, const char *fmt, ...);
extern int __fprintf_chk(FILE *f, int flag, const char *fmt, ...);
extern int __vprintf_chk(int flag, const char *fmt, va_list ap);
extern int __vfprintf_chk(FILE *f, int flag, const char *fmt, va_list ap);

/* clang-format off */
#define PK_BLOCKING_MORE_SIGS(W)                                               \
	W(int, putchar, (int c), (c))                                          \
	W(int, putc, (int c, FILE *f), (c, f))                                 \
	W(int, fputc, (int c, FILE *f), (c, f))                                \
	W(ssize_t, recv, (int fd, void *buf, size_t n, int flags),             \
	  (fd, buf, n, flags))                                                 \
	W(int, accept, (int fd, struct sockaddr *addr, socklen_t *len),        \
	  (fd, addr, len))                                                     \
	W(int, __open_2, (const char *path, int flags), (path, flags))         \
	W(ssize_t, __read_chk, (int fd, void *buf, size_t n, size_t buflen),   \
	  (fd, buf, n, buflen))                                                \
	W(int, __vprintf_chk, (int flag, const char *fmt, va_list ap),         \
	  (flag, fmt, ap))                                                     \
	W(int, __vfprintf_chk, (FILE *f, int flag, const char *fmt,            \
	  va_list ap), (f, flag, fmt, ap))
/* clang-format on */

#define PK_BLOCKING_ALLOC_SIGS(W)                                              \
	W(void *, malloc, (size_t n), (n))                                     \
	W(void *, calloc, (size_t n, size_t size), (n, size))                  \
	W(void *, realloc, (void *p, size_t n), (p, n))
/* clang-format on */

#endif /* PK_DEBUG_BLOCKING_SIGS_H */
