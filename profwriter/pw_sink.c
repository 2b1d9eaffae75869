/* pw_sink.c: the buffered byte stream every writer of profwriter uses.

   Copyright (C) 2026 The heapsnap/callprof developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   A PW_Sink is a write callback, an opaque state for it, a caller-owned
   buffer, a count of the bytes accepted and a sticky first error.  The
   emitters (Massif, Callgrind, folded stacks) write through it without
   ever looking at errors; the owner of the sink checks once, at the end,
   with pw_flush().  This is the shape of nanopb's pb_ostream_t and Lua's
   ldump.c, and it keeps error handling out of the format code.

   Rules:
     - A NULL write callback makes a counting sink: nothing is stored or
       written, only s->bytes grows.  Use it to measure output.
     - Output is buffered in s->buf; a piece larger than the buffer is
       written straight through.  Without a buffer (size 0) every piece is
       written at once.
     - A short write is retried with the rest; a write that makes no
       progress counts as an I/O error.
     - The first failure is kept in s->error as a positive errno value.
       From then on all output is dropped (and not counted): the file is
       lost anyway and the owner will say so once.

   This file also holds pw_errstr (the same wording inside a tool, where
   there is no strerror, and on the host) and, on the host, pw_message and
   the unit-test hooks. */

#include "pw_platform.h"

/* ------------------------------------------------------------------ */
/* Writing                                                             */
/* ------------------------------------------------------------------ */

void pw_sink_init(PW_Sink *s, PW_WriteFn write, void *state,
                  char *buf, size_t size)
{
   s->write = write;
   s->state = state;
   s->buf   = buf;
   s->size  = buf ? size : 0;
   s->used  = 0;
   s->bytes = 0;
   s->error = 0;
}

/* Hand N bytes at P to the callback, retrying short writes. */
static void sink_write_out(PW_Sink *s, const char *p, size_t n)
{
   while (n > 0 && s->error == 0) {
      long r = s->write(s->state, p, n);
      if (r < 0) {
         s->error = (int)-r;
      } else if (r == 0 || (size_t)r > n) {
         s->error = PW_EIO;           /* no progress, or nonsense */
      } else {
         p += r;
         n -= (size_t)r;
      }
   }
}

int pw_flush(PW_Sink *s)
{
   if (s->write != NULL && s->used > 0 && s->error == 0)
      sink_write_out(s, s->buf, s->used);
   s->used = 0;
   return s->error;
}

void pw_putn(PW_Sink *s, const char *p, size_t n)
{
   if (s->error != 0 || n == 0)
      return;
   s->bytes += n;
   if (s->write == NULL)
      return;                          /* counting only */
   if (n <= s->size - s->used) {
      PW_MEMCPY(s->buf + s->used, p, n);
      s->used += n;
      return;
   }
   pw_flush(s);
   if (n < s->size) {
      PW_MEMCPY(s->buf, p, n);
      s->used = n;
   } else {
      sink_write_out(s, p, n);
   }
}

void pw_put(PW_Sink *s, const char *str)
{
   pw_putn(s, str, PW_STRLEN(str));
}

void pw_putc(PW_Sink *s, char c)
{
   if (s->error == 0 && s->write != NULL && s->used < s->size) {
      s->buf[s->used++] = c;
      s->bytes++;
      return;
   }
   pw_putn(s, &c, 1);
}

void pw_put_u64(PW_Sink *s, pw_u64 v)
{
   char tmp[24];
   unsigned i = sizeof tmp;
   do {
      tmp[--i] = (char)('0' + v % 10);
      v /= 10;
   } while (v != 0);
   pw_putn(s, tmp + i, sizeof tmp - i);
}

void pw_put_hex(PW_Sink *s, pw_u64 v)
{
   static const char digits[] = "0123456789abcdef";
   char tmp[20];
   unsigned i = sizeof tmp;
   do {
      tmp[--i] = digits[v & 0xf];
      v >>= 4;
   } while (v != 0);
   tmp[--i] = 'x';
   tmp[--i] = '0';
   pw_putn(s, tmp + i, sizeof tmp - i);
}

/* Almost every line fits the local buffer; a longer one (a long command
   line, a long symbol) is formatted again into a heap buffer of the size
   the first attempt reported.  Both worlds' vsnprintf return the length
   the whole text needs. */
void pw_printf(PW_Sink *s, const char *fmt, ...)
{
   char local[256];
   va_list ap, ap2;
   size_t len;

   if (s->error != 0)
      return;
   va_start(ap, fmt);
   va_copy(ap2, ap);
   len = (size_t)PW_VSNPRINTF(local, sizeof local, fmt, ap);
   va_end(ap);
   if (len < sizeof local) {
      pw_putn(s, local, len);
   } else {
      char *big = PW_MALLOC("pw.sink.printf.1", len + 1);
      if (big == NULL) {
         s->error = PW_ENOMEM;
      } else {
         PW_VSNPRINTF(big, len + 1, fmt, ap2);
         pw_putn(s, big, len);
         PW_FREE(big);
      }
   }
   va_end(ap2);
}

/* ------------------------------------------------------------------ */
/* Error texts                                                         */
/* ------------------------------------------------------------------ */

/* The errno values come from <errno.h> on the host and from the core's
   VKI_ constants inside a tool (see PW_E* in pw_platform.h), so they are
   right on every platform; the texts are glibc's. */
static const struct { int err; const char *text; } err_texts[] = {
   { PW_EPERM,        "Operation not permitted" },
   { PW_ENOENT,       "No such file or directory" },
   { PW_EIO,          "Input/output error" },
   { PW_ENOMEM,       "Cannot allocate memory" },
   { PW_EACCES,       "Permission denied" },
   { PW_EEXIST,       "File exists" },
   { PW_ENOTDIR,      "Not a directory" },
   { PW_EISDIR,       "Is a directory" },
   { PW_EMFILE,       "Too many open files" },
   { PW_EFBIG,        "File too large" },
   { PW_ENOSPC,       "No space left on device" },
   { PW_EROFS,        "Read-only file system" },
   { PW_ENAMETOOLONG, "File name too long" },
   { PW_ELOOP,        "Too many levels of symbolic links" },
   { PW_EDQUOT,       "Disk quota exceeded" },
};

const char *pw_errstr(int err)
{
   static char unknown[32];
   char digits[16];
   unsigned i, n = 0, j = 0;
   unsigned v = err < 0 ? -(unsigned)err : (unsigned)err;

   for (i = 0; i < sizeof err_texts / sizeof err_texts[0]; i++)
      if (err_texts[i].err == err)
         return err_texts[i].text;

   /* "error N", without a formatter */
   PW_MEMCPY(unknown, "error ", 6);
   j = 6;
   if (err < 0)
      unknown[j++] = '-';
   do {
      digits[n++] = (char)('0' + v % 10);
      v /= 10;
   } while (v != 0);
   while (n > 0)
      unknown[j++] = digits[--n];
   unknown[j] = '\0';
   return unknown;
}

/* ------------------------------------------------------------------ */
/* Host-only services and test hooks                                   */
/* ------------------------------------------------------------------ */

#ifdef PW_TEST_HOOKS
long (*pw_test_write_hook)(int fd, const char *buf, size_t len);
#endif

#ifdef PW_HOST

#ifdef PW_TEST_HOOKS
char pw_test_last_message[512];
#endif

void pw_message(const char *line)
{
#ifdef PW_TEST_HOOKS
   size_t n = PW_STRLEN(line);
   if (n >= sizeof pw_test_last_message)
      n = sizeof pw_test_last_message - 1;
   PW_MEMCPY(pw_test_last_message, line, n);
   pw_test_last_message[n] = '\0';
#endif
   fprintf(stderr, "%s\n", line);
}

#endif /* PW_HOST */
