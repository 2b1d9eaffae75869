/* check.h: the few helpers the unit tests share (the checks in check.c,
   the rest in test_main.c, for the profwriter tests).

   Copyright (C) 2026 The heapsnap/callprof developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   A check that fails prints one line (where, what) and the run goes on;
   main() prints "unit: N checks, N failed" and exits 1 if any failed.
   MemOut is a sink target that collects everything written into one
   growing string, so a whole output can be compared byte for byte. */

#ifndef CHECK_H
#define CHECK_H

#include "profwriter.h"

extern unsigned check_count, check_failed;

void check_true(int ok, const char *what, const char *file, int line);
void check_str(const char *got, const char *want, const char *what,
               const char *file, int line);
void check_long(long got, long want, const char *what, const char *file,
                int line);

#define CHECK(c)            check_true(!!(c), #c, __FILE__, __LINE__)
#define CHECK_STR(got, want) check_str((got), (want), #got, __FILE__, __LINE__)
#define CHECK_LONG(got, want) \
   check_long((long)(got), (long)(want), #got, __FILE__, __LINE__)

typedef struct {
   char  *p;
   size_t n, cap;
   size_t max_chunk;     /* > 0: accept at most this much per write */
   int    fail_after;    /* > 0: the Nth write call and later fail */
   int    fail_err;
   int    calls;
} MemOut;

long mem_write(void *state, const char *buf, size_t len);
/* A sink onto a fresh MemOut with the given buffer. */
void mem_init(MemOut *m, PW_Sink *s, char *buf, size_t size);
/* Flush S and return everything written so far, NUL-terminated. */
const char *mem_str(MemOut *m, PW_Sink *s);
void mem_free(MemOut *m);
/* 1 if some line of TEXT ends with a space. */
int has_trailing_space(const char *text);

void test_sink(void);
void test_template(void);
void test_file(void);
void test_massif(void);
void test_callgrind(void);
void test_folded(void);

#endif /* CHECK_H */
