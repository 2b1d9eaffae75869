/* pf_read.c: reading one input file, in memory that does not grow with
   the file where the file can be big.

   Copyright (C) 2026 The heapsnap/callprof developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   The file is read a chunk (4 MB) at a time.  Its kind is found from
   the first chunk (pr_detect looks at the first lines only).  A
   Callgrind-format file, the kind that gets big (a million call sites
   or --dump-instr=yes make hundreds of megabytes), is never held whole:
   each chunk goes to the reader's stream (pr_cg_stream_feed), which
   keeps only the call graph the flame graph is estimated from
   (PR_CG_CALL_GRAPH: functions' self costs, calls summed per caller and
   callee).  Heap profiles and folded stacks are small and read whole.

   A read that takes over a second says how far it is on stderr:
   "profreport: cp.out: 45% (760 MB of 1.7 GB)" ("760 MB read" from a
   pipe), rewritten in place with \r on a terminal (a space after it
   covers the one character by which "10 MB" is shorter than "9.9 MB"),
   a line every 5 seconds otherwise; a quick read says nothing, so that
   a test's stderr stays clean. */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "pf.h"

#define CHUNK (4u << 20)

typedef struct {
   const char *path;
   pr_u64      size;            /* 0: not known (a pipe) */
   double      start, last;     /* seconds */
   pr_u64      said;            /* the amount last shown */
   int         tty, shown;
} Progress;

static double now(void)
{
   struct timespec ts;
   clock_gettime(CLOCK_MONOTONIC, &ts);
   return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* "760 MB", "1.7 GB" (decimal units, as ls -lh --si and df -H). */
static void amount(pr_u64 v, char *buf, size_t size)
{
   if (v >= 1000000000ULL)
      snprintf(buf, size, "%.1f GB", (double)v / 1e9);
   else if (v >= 10000000ULL)
      snprintf(buf, size, "%.0f MB", (double)v / 1e6);
   else
      snprintf(buf, size, "%.1f MB", (double)v / 1e6);
}

static void show(Progress *pg, pr_u64 done, int last)
{
   double t = now() - pg->start;
   char a[32], b[32];
   if (!last && (t < 1 || (pg->shown && t - pg->last < (pg->tty ? 0.2 : 5))))
      return;
   if (last && (!pg->shown || done == pg->said)) {
      if (pg->shown && pg->tty)
         fputc('\n', stderr);
      return;
   }
   pg->shown = 1;
   pg->said = done;
   pg->last = t;
   amount(done, a, sizeof a);
   if (pg->size > 0) {
      amount(pg->size, b, sizeof b);
      fprintf(stderr, "%sprofreport: %s: %d%% (%s of %s)%s",
              pg->tty ? "\r" : "", pg->path,
              (int)(done >= pg->size ? 100 : 100.0 * (double)done /
                                             (double)pg->size),
              a, b, pg->tty ? " " : "\n");
   } else
      fprintf(stderr, "%sprofreport: %s: %s read%s", pg->tty ? "\r" : "",
              pg->path, a, pg->tty ? " " : "\n");
   if (last && pg->tty)
      fputc('\n', stderr);
}

/* Up to SIZE bytes into BUF, fewer only at the end of the file; their
   line ends and the last byte counted into IN. */
static size_t fill(FILE *f, char *buf, size_t size, PF_Input *in,
                   size_t *ends)
{
   size_t n = 0, got;
   const char *p, *end;
   while (n < size && (got = fread(buf + n, 1, size - n, f)) > 0)
      n += got;
   for (p = buf, end = buf + n;
        p < end && (p = memchr(p, '\n', (size_t)(end - p))) != NULL; p++)
      (*ends)++;
   if (n > 0)
      in->last = (unsigned char)buf[n - 1];
   return n;
}

static int cannot(const char *path, const char *what, PR_Error *err)
{
   pr_error(err, path, 0, "cannot %s: %s", what, strerror(errno));
   return -1;
}

int pf_read(const char *path, PF_Input *in, PR_Error *err)
{
   FILE *f = fopen(path, "rb");
   struct stat st;
   Progress pg;
   char *buf;
   size_t n, cap = CHUNK + 1, ends = 0;
   pr_u64 done;
   int rc = 0;

   memset(in, 0, sizeof *in);
   if (f == NULL)
      return cannot(path, "open", err);
   memset(&pg, 0, sizeof pg);
   pg.path = path;
   if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode))
      pg.size = (pr_u64)st.st_size;
   pg.tty = isatty(STDERR_FILENO);
   pg.start = now();
   buf = malloc(cap);
   if (buf == NULL) {
      fclose(f);
      return cannot(path, "read", err);
   }
   n = fill(f, buf, CHUNK, in, &ends);
   done = n;
   in->kind = pr_detect(buf, n);
   if (in->kind == PR_CALLGRIND) {
      PR_CgStream *s = pr_cg_stream_new(path, PR_CG_CALL_GRAPH, err);
      while (n > 0 && pr_cg_stream_feed(s, buf, n)) {
         show(&pg, done, 0);
         n = fill(f, buf, CHUNK, in, &ends);
         done += n;
      }
      if (ferror(f)) {
         rc = cannot(path, "read", err);
         pr_cg_free(pr_cg_stream_end(s));
      } else if ((in->cg = pr_cg_stream_end(s)) == NULL)
         rc = -1;
      free(buf);
   } else {
      /* The rest after the first chunk, whole; the kind again from all
         of it, as if it had been read at once. */
      while (n == CHUNK) {              /* a full chunk: maybe more */
         if (done + CHUNK + 1 > cap) {
            char *more = realloc(buf, cap = (cap - 1) * 2 + 1);
            if (more == NULL) {
               free(buf);
               fclose(f);
               return cannot(path, "read", err);
            }
            buf = more;
         }
         show(&pg, done, 0);
         n = fill(f, buf + done, CHUNK, in, &ends);
         done += n;
      }
      if (ferror(f)) {
         free(buf);
         rc = cannot(path, "read", err);
      } else {
         buf[done] = '\0';
         in->data = buf;
         in->kind = pr_detect(buf, (size_t)done);
      }
   }
   in->len = (size_t)done;
   in->lines = ends + (done == 0 || in->last != '\n');
   show(&pg, done, 1);
   fclose(f);
   return rc;
}
