/* SPDX-License-Identifier: MIT */
#ifndef PK_DEBUG_BLOCKING_SIGS_H
#define PK_DEBUG_BLOCKING_SIGS_H

/*
 * The prototypes of the wrapped functions with a fixed argument list, as
 * W(return type, name, (parameters), (arguments)), for the two sets of
 * wrappers: __wrap_* (src/debug/blocking.c, for -Wl,--wrap=) and the
 * plain names libpreempt.so interposes (src/debug/interpose/).  printf,
 * fprintf and free are written out by hand in both.
 */

#include <poll.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <sys/select.h>
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

#define PK_BLOCKING_ALLOC_SIGS(W)                                              \
	W(void *, malloc, (size_t n), (n))                                     \
	W(void *, calloc, (size_t n, size_t size), (n, size))                  \
	W(void *, realloc, (void *p, size_t n), (p, n))
/* clang-format on */

#endif /* PK_DEBUG_BLOCKING_SIGS_H */
