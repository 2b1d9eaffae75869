/* pf_out.c: a report written whole or not at all.

   Copyright (C) 2026 The heapsnap/callprof developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   Every report (profreport's, profdiff's differential flame graph) is
   written beside its name under a temporary one, ".NAME.PID.part", and
   renamed when complete, so that nobody opens half a report and a
   failed write leaves nothing behind.  The file is opened here rather
   than by libxml2, so that a failure is one line with its reason
   (libxml2 would print its own). */

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "pf.h"

int pf_write_file(const char *out, int (*write)(xmlTextWriterPtr w,
                                                 const void *ctx),
                  const void *ctx, char *msg, size_t size)
{
   const char *slash = strrchr(out, '/');
   int dir = slash ? (int)(slash - out + 1) : 0, fd, e;
   char tmp[4200];
   xmlOutputBufferPtr buf;
   xmlTextWriterPtr w;

   snprintf(tmp, sizeof tmp, "%.*s.%s.%d.part", dir, out,
            slash ? slash + 1 : out, (int)getpid());
   fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
   if (fd < 0) {
      snprintf(msg, size, "%.1000s: cannot write: %s", out, strerror(errno));
      return -1;
   }
   buf = xmlOutputBufferCreateFd(fd, NULL);
   w = buf ? xmlNewTextWriter(buf) : NULL;
   if (w == NULL) {
      close(fd);
      unlink(tmp);
      snprintf(msg, size, "%.1000s: out of memory", out);
      return -1;
   }
   if (write(w, ctx) != 0 || xmlTextWriterFlush(w) < 0) {
      xmlFreeTextWriter(w);
      close(fd);
      unlink(tmp);
      snprintf(msg, size, "%.1000s: cannot write it whole", out);
      return -1;
   }
   xmlFreeTextWriter(w);                 /* frees BUF, leaves FD open */
   if (close(fd) != 0 || rename(tmp, out) != 0) {
      e = errno;
      unlink(tmp);
      snprintf(msg, size, "%.1000s: cannot write: %s", out, strerror(e));
      return -1;
   }
   return 0;
}
