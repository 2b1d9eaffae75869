/* test_sink.c: PW_Sink, pw_printf and pw_errstr.

   Copyright (C) 2026 The heapsnap/callprof developers.
   SPDX-License-Identifier: GPL-2.0-or-later */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "check.h"

static void test_counting(void)
{
   PW_Sink s;

   pw_sink_init(&s, NULL, NULL, NULL, 0);
   pw_put(&s, "hello");
   pw_putc(&s, '\n');
   pw_printf(&s, "%d-%s", 42, "x");
   pw_put_u64(&s, 12345);
   CHECK_LONG(s.bytes, 5 + 1 + 4 + 5);
   CHECK_LONG(pw_flush(&s), 0);
   CHECK_LONG(s.error, 0);
}

static void test_buffering(void)
{
   PW_Sink s;
   MemOut m;
   char buf[8];

   /* pieces smaller than, equal to and larger than the buffer */
   mem_init(&m, &s, buf, sizeof buf);
   pw_put(&s, "abc");
   pw_put(&s, "defgh");
   pw_put(&s, "0123456789abcdefghij");
   pw_putc(&s, '!');
   CHECK_LONG(s.bytes, 3 + 5 + 20 + 1);
   CHECK_STR(mem_str(&m, &s), "abcdefgh0123456789abcdefghij!");
   mem_free(&m);

   /* no buffer at all: straight through */
   mem_init(&m, &s, NULL, 0);
   pw_put(&s, "xy");
   pw_putc(&s, 'z');
   CHECK_LONG(m.n, 3);
   CHECK_STR(mem_str(&m, &s), "xyz");
   mem_free(&m);

   /* short writes are retried */
   mem_init(&m, &s, buf, sizeof buf);
   m.max_chunk = 3;
   pw_put(&s, "the quick brown fox jumps over the lazy dog");
   CHECK_STR(mem_str(&m, &s), "the quick brown fox jumps over the lazy dog");
   CHECK_LONG(s.error, 0);
   mem_free(&m);
}

static void test_numbers(void)
{
   PW_Sink s;
   MemOut m;
   char buf[64];

   mem_init(&m, &s, buf, sizeof buf);
   pw_put_u64(&s, 0);
   pw_putc(&s, ' ');
   pw_put_u64(&s, 18446744073709551615ULL);
   pw_putc(&s, ' ');
   pw_put_hex(&s, 0);
   pw_putc(&s, ' ');
   pw_put_hex(&s, 0xdeadBEEFULL);
   pw_putc(&s, ' ');
   pw_put_hex(&s, 0xffffffffffffffffULL);
   CHECK_STR(mem_str(&m, &s),
             "0 18446744073709551615 0x0 0xdeadbeef 0xffffffffffffffff");
   mem_free(&m);
}

static void test_printf(void)
{
   PW_Sink s;
   MemOut m;
   char buf[16];
   char big[1001], want[1100];

   mem_init(&m, &s, buf, sizeof buf);
   pw_printf(&s, "%s|%c|%d|%u|%ld|%lu|%lld|%llu|%lx|%llx|%%|%.2f",
             "str", 'c', -5, 7u, -6L, 8UL, -9LL, 10ULL, 0xabUL, 0xcdULL,
             1.0 / 3);
   CHECK_STR(mem_str(&m, &s), "str|c|-5|7|-6|8|-9|10|ab|cd|%|0.33");
   mem_free(&m);

   /* longer than pw_printf's local buffer: the heap fallback */
   memset(big, 'x', 1000);
   big[1000] = '\0';
   big[0] = 'A';
   big[999] = 'Z';
   snprintf(want, sizeof want, "<%s> %d", big, 77);
   mem_init(&m, &s, buf, sizeof buf);
   pw_printf(&s, "<%s> %d", big, 77);
   CHECK_STR(mem_str(&m, &s), want);
   CHECK_LONG(s.bytes, strlen(want));
   mem_free(&m);

   /* counting sink with a long printf */
   pw_sink_init(&s, NULL, NULL, NULL, 0);
   pw_printf(&s, "%s", big);
   CHECK_LONG(s.bytes, 1000);
}

static void test_errors(void)
{
   PW_Sink s;
   MemOut m;
   char buf[4];

   /* the second write call fails: the error sticks, later output is
      dropped and not counted */
   mem_init(&m, &s, buf, sizeof buf);
   m.fail_after = 2;
   m.fail_err = EIO;
   pw_put(&s, "abcd");          /* fits, buffered */
   pw_put(&s, "efgh");          /* flushes "abcd" (call 1), then is
                                   written through and fails (call 2) */
   CHECK_LONG(s.error, EIO);
   CHECK_LONG(s.bytes, 8);
   pw_put(&s, "more");
   pw_printf(&s, "%s", "even more");
   pw_putc(&s, 'x');
   CHECK_LONG(s.bytes, 8);
   CHECK_LONG(pw_flush(&s), EIO);
   CHECK_LONG(m.calls, 2);
   CHECK_STR(mem_str(&m, &s), "abcd");
   mem_free(&m);

   /* a write that makes no progress is an I/O error, not a hang */
   mem_init(&m, &s, NULL, 0);
   m.max_chunk = 0;
   m.fail_after = 1;
   m.fail_err = 0;             /* returns -0 == 0 */
   pw_put(&s, "x");
   CHECK_LONG(s.error, EIO);
   mem_free(&m);
}

static void test_errstr(void)
{
   CHECK_STR(pw_errstr(ENOENT), "No such file or directory");
   CHECK_STR(pw_errstr(EACCES), "Permission denied");
   CHECK_STR(pw_errstr(EPERM), "Operation not permitted");
   CHECK_STR(pw_errstr(ENOSPC), "No space left on device");
   CHECK_STR(pw_errstr(EDQUOT), "Disk quota exceeded");
   CHECK_STR(pw_errstr(EISDIR), "Is a directory");
   CHECK_STR(pw_errstr(ENOTDIR), "Not a directory");
   CHECK_STR(pw_errstr(EROFS), "Read-only file system");
   CHECK_STR(pw_errstr(EIO), "Input/output error");
   CHECK_STR(pw_errstr(ENAMETOOLONG), "File name too long");
   CHECK_STR(pw_errstr(EEXIST), "File exists");
   CHECK_STR(pw_errstr(EMFILE), "Too many open files");
   CHECK_STR(pw_errstr(ENOMEM), "Cannot allocate memory");
   CHECK_STR(pw_errstr(EFBIG), "File too large");
   CHECK_STR(pw_errstr(ELOOP), "Too many levels of symbolic links");
   CHECK_STR(pw_errstr(9999), "error 9999");
   CHECK_STR(pw_errstr(0), "error 0");
}

void test_sink(void)
{
   test_counting();
   test_buffering();
   test_numbers();
   test_printf();
   test_errors();
   test_errstr();
}
