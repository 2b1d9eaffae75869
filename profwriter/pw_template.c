/* pw_template.c: --log-file style output file-name templates.

   Copyright (C) 2026 The heapsnap/callprof developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   Users already know Valgrind's file-name templates from --log-file and
   --massif-out-file, so ours behave the same (Valgrind 3.19's
   VG_(expand_file_name)):

     %p        the process id, in decimal;
     %n        a sequence number 1, 2, 3, ... counted per process: each %n
               expanded takes the next number, and the count starts again
               at 1 when the pid is not the one of the previous expansion
               (a forked child);
     %q{VAR}   the value of environment variable VAR; unset is an error;
     %%        one '%'.

   Any other character after '%' (or '%' at the very end) is an error, so
   is an empty template and one starting with '~' (a shell that did not
   expand it; Valgrind refuses it too).  A result that does not start
   with '/' is relative to BASE_DIR, the directory the program was started
   in, so "BASE_DIR/" is put in front (without looking at whether BASE_DIR
   already ends in '/', as Valgrind).

   Tools check the template when parsing options (pw_template_check, no
   side effects, no environment) and expand it when the file is written,
   at exit, so that a forked child gets its own %p.

   Errors are one line without a trailing newline.  A message that names
   something (a variable, a specifier) lives in a static buffer and is
   valid until the next call. */

#include "pw_platform.h"

static char msg_buf[160];

/* Copy "PREFIX" NAME[0..LEN) "SUFFIX" into msg_buf, truncating NAME. */
static const char *msg_with(const char *prefix, const char *name, size_t len,
                            const char *suffix)
{
   size_t pl = PW_STRLEN(prefix), sl = PW_STRLEN(suffix), j = 0;
   size_t room = sizeof msg_buf - 1 - pl - sl;
   if (len > room)
      len = room;
   PW_MEMCPY(msg_buf + j, prefix, pl);  j += pl;
   PW_MEMCPY(msg_buf + j, name, len);   j += len;
   PW_MEMCPY(msg_buf + j, suffix, sl);  j += sl;
   msg_buf[j] = '\0';
   return msg_buf;
}

static const char *msg_bad_spec(const char *at)
{
   if (*at == '\0')
      return "'%' at the end of the file name (expected %p, %n, %q{VAR} "
             "or %%)";
   return msg_with("unknown specifier '%", at, 1,
                   "' in the file name (expected %p, %n, %q{VAR} or %%)");
}

static const char *const msg_empty = "no file name given";
static const char *const msg_tilde =
   "file name begins with '~' (the shell did not expand it; "
   "use $HOME instead)";
static const char *const msg_no_brace = "expected '{' after '%q'";
static const char *const msg_no_close = "missing '}' in %q{...}";
static const char *const msg_too_long = "file name too long";
static const char *const msg_no_base =
   "current directory unknown: use an absolute file name";

const char *pw_template_check(const char *tmpl)
{
   const char *p;

   if (tmpl == NULL || tmpl[0] == '\0')
      return msg_empty;
   if (tmpl[0] == '~')
      return msg_tilde;
   for (p = tmpl; *p != '\0'; p++) {
      if (*p != '%')
         continue;
      p++;
      if (*p == '%' || *p == 'p' || *p == 'n')
         continue;
      if (*p != 'q')
         return msg_bad_spec(p);
      p++;
      if (*p != '{')
         return msg_no_brace;
      while (*p != '}') {
         if (*p == '\0')
            return msg_no_close;
         p++;
      }
   }
   return NULL;
}

/* Bounded output: out[0..*j) filled, OUTSZ the room including the NUL. */
static int out_put(char *out, size_t outsz, size_t *j, const char *p,
                   size_t n)
{
   if (n >= outsz - *j)
      return 0;
   PW_MEMCPY(out + *j, p, n);
   *j += n;
   return 1;
}

static int out_put_int(char *out, size_t outsz, size_t *j, int v)
{
   char tmp[16];
   unsigned i = sizeof tmp;
   unsigned u = v < 0 ? -(unsigned)v : (unsigned)v;
   do {
      tmp[--i] = (char)('0' + u % 10);
      u /= 10;
   } while (u != 0);
   if (v < 0)
      tmp[--i] = '-';
   return out_put(out, outsz, j, tmp + i, sizeof tmp - i);
}

static const char *expand(const char *tmpl, int pid,
                          const char *(*getenv_fn)(const char *name),
                          const char *base_dir, char *out, size_t outsz)
{
   static int last_pid;
   static int seq_nr;
   const char *p;
   size_t j = 0;

   if (tmpl == NULL || tmpl[0] == '\0')
      return msg_empty;
   if (tmpl[0] == '~')
      return msg_tilde;

   for (p = tmpl; *p != '\0'; p++) {
      if (*p != '%') {
         if (!out_put(out, outsz, &j, p, 1))
            return msg_too_long;
         continue;
      }
      p++;
      if (*p == '%') {
         if (!out_put(out, outsz, &j, p, 1))
            return msg_too_long;
      } else if (*p == 'p') {
         if (!out_put_int(out, outsz, &j, pid))
            return msg_too_long;
      } else if (*p == 'n') {
         if (last_pid != pid)
            seq_nr = 0;
         last_pid = pid;
         seq_nr++;
         if (!out_put_int(out, outsz, &j, seq_nr))
            return msg_too_long;
      } else if (*p == 'q') {
         const char *name, *val;
         char namebuf[256];
         size_t len;
         p++;
         if (*p != '{')
            return msg_no_brace;
         name = ++p;
         while (*p != '}') {
            if (*p == '\0')
               return msg_no_close;
            p++;
         }
         len = (size_t)(p - name);
         if (len >= sizeof namebuf)
            return msg_with("environment variable '", name, len,
                            "' is not set");
         PW_MEMCPY(namebuf, name, len);
         namebuf[len] = '\0';
         val = getenv_fn ? getenv_fn(namebuf) : NULL;
         if (val == NULL)
            return msg_with("environment variable '", name, len,
                            "' is not set");
         if (!out_put(out, outsz, &j, val, PW_STRLEN(val)))
            return msg_too_long;
      } else {
         return msg_bad_spec(p);
      }
   }
   out[j] = '\0';

   /* Relative: move the name right and put "BASE_DIR/" in front. */
   if (out[0] != '/') {
      size_t bl, k;
      if (base_dir == NULL)
         return msg_no_base;
      bl = PW_STRLEN(base_dir);
      if (bl + 1 + j >= outsz)
         return msg_too_long;
      for (k = j + 1; k > 0; k--)          /* the NUL too */
         out[k - 1 + bl + 1] = out[k - 1];
      PW_MEMCPY(out, base_dir, bl);
      out[bl] = '/';
   }
   return NULL;
}

/* On failure OUT holds "" rather than a partial name. */
const char *pw_template_expand(const char *tmpl, int pid,
                               const char *(*getenv_fn)(const char *name),
                               const char *base_dir,
                               char *out, size_t outsz)
{
   const char *msg;

   if (out == NULL || outsz == 0)
      return msg_too_long;
   msg = expand(tmpl, pid, getenv_fn, base_dir, out, outsz);
   if (msg != NULL)
      out[0] = '\0';
   return msg;
}
