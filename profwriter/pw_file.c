/* pw_file.c: output files that appear whole or not at all.

   Copyright (C) 2026 The heapsnap/callprof developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   A profile is written at exit, often large, and read by tools that die
   on a truncated file.  So it is written under a hidden temporary name
   beside the target,

      DIR/.BASE.part       for PATH = DIR/BASE  (".BASE.part" without DIR)

   and renamed onto PATH only once everything has been written and the
   file closed.  Same directory, so the rename is atomic: a reader sees
   the old file, the new one, or none, never half of one.  Where the
   kernel and the file system allow (O_TMPFILE), the file is written
   without a name at all and, when complete, linked straight to PATH if
   PATH does not exist yet (every numbered dump), so that a process
   killed at any moment (SIGKILL, a crash of the tool) leaves no .part
   file behind.  A file that replaces PATH is linked to the temporary
   name and renamed, as above: a kill in the microseconds between the
   two leaves the .part file, which the next write of the same target
   replaces.  A disk that
   fills up, a quota, a directory that vanished: the temporary file is
   removed, the target is left alone, and the user gets exactly one line

      TOOL: cannot write PATH: REASON

   through pw_message.  Nothing here asserts or aborts on I/O errors; the
   program under test has finished its work and must exit normally.

   A target that is not a regular file (/dev/null, /dev/stdout, a fifo)
   is written directly, as Massif and Callgrind write it: renaming onto
   it would replace the device with a file.

   Writes go through a sink with a 64 KiB heap buffer; errors are collected
   by the sink (sticky) and looked at once, in pw_file_commit. */

#include "pw_platform.h"

#define PW_FILE_BUF_SIZE (64 * 1024)

struct PW_File {
   PW_Sink  sink;
   int      fd;
   char    *path;      /* the target */
   char    *tmp;       /* DIR/.BASE.part; NULL: written directly */
   int      anon;      /* written unnamed, named tmp at the commit */
   char    *tool;      /* for messages */
   char    *buf;       /* the sink's buffer */
};

/* Copy of S in a fresh heap block, or NULL. */
static char *dup_str(const char *s)
{
   size_t n = PW_STRLEN(s) + 1;
   char *d = PW_MALLOC("pw.file.dup_str.1", n);
   if (d != NULL)
      PW_MEMCPY(d, s, n);
   return d;
}

/* "TOOL: cannot write PATH: REASON", one line. */
static void report(const char *tool, const char *path, int err)
{
   static const char mid[] = ": cannot write ";
   const char *reason = pw_errstr(err);
   size_t tl = PW_STRLEN(tool), pl = PW_STRLEN(path);
   size_t rl = PW_STRLEN(reason), ml = sizeof mid - 1, j = 0;
   char *line = PW_MALLOC("pw.file.report.1", tl + ml + pl + 2 + rl + 1);

   if (line == NULL) {            /* host only: say what we can */
      pw_message(reason);
      return;
   }
   PW_MEMCPY(line + j, tool, tl);   j += tl;
   PW_MEMCPY(line + j, mid, ml);    j += ml;
   PW_MEMCPY(line + j, path, pl);   j += pl;
   line[j++] = ':';
   line[j++] = ' ';
   PW_MEMCPY(line + j, reason, rl); j += rl;
   line[j] = '\0';
   pw_message(line);
   PW_FREE(line);
}

/* "DIR/.BASE.part" for PATH; NULL if out of memory. */
static char *temp_name(const char *path)
{
   static const char suffix[] = ".part";
   size_t n = PW_STRLEN(path), base = 0, i, j;
   char *t;

   for (i = 0; i < n; i++)
      if (path[i] == '/')
         base = i + 1;
   t = PW_MALLOC("pw.file.temp_name.1", n + 1 + sizeof suffix);
   if (t == NULL)
      return NULL;
   PW_MEMCPY(t, path, base);
   j = base;
   t[j++] = '.';
   PW_MEMCPY(t + j, path + base, n - base);
   j += n - base;
   PW_MEMCPY(t + j, suffix, sizeof suffix);     /* with the NUL */
   return t;
}

static long file_write(void *state, const char *buf, size_t len)
{
   PW_File *f = state;
   return pw_sys_write(f->fd, buf, len);
}

static void file_free(PW_File *f)
{
   PW_FREE(f->buf);
   PW_FREE(f->tool);
   PW_FREE(f->tmp);
   PW_FREE(f->path);
   PW_FREE(f);
}

PW_File *pw_file_open(const char *path, const char *tool, int mode)
{
   PW_File *f;
   size_t n;
   int fd, special;

   if (tool == NULL)
      tool = "profwriter";
   if (path == NULL || path[0] == '\0') {
      report(tool, path ? path : "", PW_ENOENT);
      return NULL;
   }
   n = PW_STRLEN(path);
   if (path[n - 1] == '/') {              /* no file name part */
      report(tool, path, PW_EISDIR);
      return NULL;
   }

   special = pw_sys_is_special(path);   /* a device: written directly */
   f = PW_MALLOC("pw.file.open.1", sizeof *f);
   if (f == NULL) {
      report(tool, path, PW_ENOMEM);
      return NULL;
   }
   PW_MEMSET(f, 0, sizeof *f);
   f->fd   = -1;
   f->path = dup_str(path);
   f->tool = dup_str(tool);
   f->tmp  = special ? NULL : temp_name(path);
   f->buf  = PW_MALLOC("pw.file.open.4", PW_FILE_BUF_SIZE);
   if (f->path == NULL || f->tool == NULL || (f->tmp == NULL && !special)
       || f->buf == NULL) {
      report(tool, path, PW_ENOMEM);
      file_free(f);
      return NULL;
   }

   fd = -1;
   if (f->tmp != NULL) {
      /* The directory of PATH: TMP up to its last '/' (".BASE.part"). */
      size_t d = PW_STRLEN(f->tmp);
      char *dir;
      while (d > 0 && f->tmp[d - 1] != '/')
         d--;
      dir = PW_MALLOC("pw.file.open.5", d + 2);
      if (dir != NULL) {
         if (d == 0)
            PW_MEMCPY(dir, ".", 2);
         else {
            PW_MEMCPY(dir, f->tmp, d);
            dir[d] = '\0';
         }
         fd = pw_sys_open_anon(dir, mode);
         PW_FREE(dir);
      }
      f->anon = fd >= 0;
   }
   if (fd < 0)
      fd = pw_sys_open_write(f->tmp ? f->tmp : f->path, mode);
   if (fd < 0) {
      report(tool, path, -fd);
      file_free(f);
      return NULL;
   }
   f->fd = fd;
   pw_sink_init(&f->sink, file_write, f, f->buf, PW_FILE_BUF_SIZE);
   return f;
}

PW_Sink *pw_file_sink(PW_File *f)
{
   return &f->sink;
}

const char *pw_file_path(const PW_File *f)
{
   return f->path;
}

int pw_file_commit(PW_File *f)
{
   int err, r, named = !f->anon;   /* the temporary file has its name */

   err = pw_flush(&f->sink);
   if (err == 0 && f->anon) {
      /* A new target gets its name at once; nothing to rename. */
      r = pw_sys_link_fd(f->fd, f->path);
      if (r == 0) {
         r = pw_sys_close(f->fd);
         if (r < 0)
            report(f->tool, f->path, -r);
         file_free(f);
         return -r;
      }
      if (r != -PW_EEXIST)
         err = -r;
   }
   if (err == 0 && f->anon) {
      r = pw_sys_link_fd(f->fd, f->tmp);
      if (r == -PW_EEXIST) {            /* a dead process's, see above */
         pw_sys_unlink(f->tmp);
         r = pw_sys_link_fd(f->fd, f->tmp);
      }
      if (r < 0)
         err = -r;
      else
         named = 1;
   }
   r = pw_sys_close(f->fd);
   f->fd = -1;
   if (err == 0 && r < 0)
      err = -r;
   if (err == 0 && f->tmp != NULL) {
      r = pw_sys_rename(f->tmp, f->path);
      if (r < 0)
         err = -r;
   }
   if (err != 0) {
      if (f->tmp != NULL && named)
         pw_sys_unlink(f->tmp);
      report(f->tool, f->path, err);
   }
   file_free(f);
   return err;
}

void pw_file_abandon(PW_File *f)
{
   if (f == NULL)
      return;
   if (f->fd >= 0)
      pw_sys_close(f->fd);
   if (f->tmp != NULL && !f->anon)
      pw_sys_unlink(f->tmp);
   file_free(f);
}
