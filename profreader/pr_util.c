/* pr_util.c: the reader's plumbing: the hash map, interning, growing
   arrays, lines of a buffer, numbers, errors, whole files and the
   detection of a file's format.

   Copyright (C) 2026 The heapsnap/callprof developers.
   SPDX-License-Identifier: GPL-2.0-or-later */

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pr_internal.h"

void *pr_xmalloc(size_t n)
{
   void *p = malloc(n ? n : 1);
   if (p == NULL) {
      fputs("profreader: out of memory\n", stderr);
      abort();
   }
   return p;
}

void *pr_xcalloc(size_t n, size_t size)
{
   void *p = calloc(n ? n : 1, size ? size : 1);
   if (p == NULL) {
      fputs("profreader: out of memory\n", stderr);
      abort();
   }
   return p;
}

char *pr_xstrndup(const char *s, size_t n)
{
   char *d = pr_xmalloc(n + 1);
   memcpy(d, s, n);
   d[n] = '\0';
   return d;
}

void pr_grow(void *arr, size_t *cap, size_t n, size_t size)
{
   void **a = arr;
   size_t c;
   if (n < *cap)
      return;
   c = *cap ? *cap * 2 : 16;
   while (c <= n)
      c *= 2;
   *a = realloc(*a, c * size);
   if (*a == NULL) {
      fputs("profreader: out of memory\n", stderr);
      abort();
   }
   *cap = c;
}

/*------------------------------------------------------------------*/
/* The map: linear probing, doubled at half full.  The hash takes the
   key eight bytes at a time (a multiply and a shift each, then a final
   mix so that the low bits, the slot, depend on every byte): keys are
   mostly pointers and positions, and a byte at a time (FNV-1a) was half
   of the time of reading a big Callgrind file. */

static size_t hash(const void *key, size_t len)
{
   const unsigned char *k = key;
   unsigned long long h = 0x9E3779B97F4A7C15ULL ^ len, w;
   while (len >= 8) {
      memcpy(&w, k, 8);
      h = (h ^ w) * 0xFF51AFD7ED558CCDULL;
      h ^= h >> 32;
      k += 8;
      len -= 8;
   }
   if (len > 0) {
      w = 0;
      memcpy(&w, k, len);
      h = (h ^ w) * 0xFF51AFD7ED558CCDULL;
   }
   h ^= h >> 33;
   h *= 0xC4CEB9FE1A85EC53ULL;
   h ^= h >> 33;
   return (size_t)h;
}

void pr_map_init(PR_Map *m)
{
   memset(m, 0, sizeof *m);
}

void pr_map_free(PR_Map *m)
{
   size_t i;
   for (i = 0; i < m->cap; i++)
      free(m->keys[i]);
   free(m->keys);
   free(m->klen);
   free(m->vals);
   memset(m, 0, sizeof *m);
}

static size_t find(const PR_Map *m, const void *key, size_t len)
{
   size_t i = hash(key, len) & (m->cap - 1);
   while (m->keys[i] != NULL &&
          !(m->klen[i] == len && memcmp(m->keys[i], key, len) == 0))
      i = (i + 1) & (m->cap - 1);
   return i;
}

int pr_map_get(const PR_Map *m, const void *key, size_t len, size_t *val)
{
   size_t i;
   if (m->cap == 0)
      return 0;
   i = find(m, key, len);
   if (m->keys[i] == NULL)
      return 0;
   *val = m->vals[i];
   return 1;
}

static void rehash(PR_Map *m)
{
   PR_Map old = *m;
   size_t i;
   m->cap = old.cap ? old.cap * 2 : 64;
   m->keys = pr_xcalloc(m->cap, sizeof *m->keys);
   m->klen = pr_xcalloc(m->cap, sizeof *m->klen);
   m->vals = pr_xcalloc(m->cap, sizeof *m->vals);
   for (i = 0; i < old.cap; i++) {
      if (old.keys[i] != NULL) {
         size_t j = find(m, old.keys[i], old.klen[i]);
         m->keys[j] = old.keys[i];
         m->klen[j] = old.klen[i];
         m->vals[j] = old.vals[i];
      }
   }
   free(old.keys);
   free(old.klen);
   free(old.vals);
}

void pr_map_put(PR_Map *m, const void *key, size_t len, size_t val)
{
   size_t i;
   if (m->cap == 0 || 2 * (m->used + 1) > m->cap)
      rehash(m);
   i = find(m, key, len);
   if (m->keys[i] == NULL) {
      m->keys[i] = pr_xstrndup(key, len);
      m->klen[i] = len;
      m->used++;
   }
   m->vals[i] = val;
}

void pr_pool_init(PR_Pool *p)
{
   memset(p, 0, sizeof *p);
}

void pr_pool_free(PR_Pool *p)
{
   size_t i;
   for (i = 0; i < p->n; i++)
      free(p->strs[i]);
   free(p->strs);
   pr_map_free(&p->map);
   memset(p, 0, sizeof *p);
}

const char *pr_intern(PR_Pool *p, const char *s, size_t len)
{
   size_t i;
   if (pr_map_get(&p->map, s, len, &i))
      return p->strs[i];
   pr_grow(&p->strs, &p->cap, p->n, sizeof *p->strs);
   p->strs[p->n] = pr_xstrndup(s, len);
   pr_map_put(&p->map, s, len, p->n);
   return p->strs[p->n++];
}

/*------------------------------------------------------------------*/

int pr_next_line(PR_Cursor *c, const char **s, size_t *len)
{
   const char *nl;
   if (c->p >= c->end)
      return 0;
   nl = memchr(c->p, '\n', (size_t)(c->end - c->p));
   *s = c->p;
   *len = (size_t)((nl ? nl : c->end) - c->p);
   c->p = nl ? nl + 1 : c->end;
   if (*len > 0 && (*s)[*len - 1] == '\r')
      (*len)--;
   c->lineno++;
   return 1;
}

int pr_parse_u64(const char **s, const char *end, pr_u64 *v)
{
   const char *p = *s;
   pr_u64 x = 0;
   int base = 10, n = 0;
   if (end - p > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
      base = 16;
      p += 2;
   }
   for (; p < end; p++, n++) {
      int d;
      if (*p >= '0' && *p <= '9')
         d = *p - '0';
      else if (base == 16 && *p >= 'a' && *p <= 'f')
         d = *p - 'a' + 10;
      else if (base == 16 && *p >= 'A' && *p <= 'F')
         d = *p - 'A' + 10;
      else
         break;
      if (x > (~0ULL - (pr_u64)d) / (pr_u64)base)
         return 0;
      x = x * (pr_u64)base + (pr_u64)d;
   }
   if (n == 0)
      return 0;
   *s = p;
   *v = x;
   return 1;
}

void pr_error(PR_Error *err, const char *name, size_t line,
              const char *fmt, ...)
{
   va_list ap;
   int n;
   if (err == NULL || err->set)
      return;
   err->set = 1;
   n = line ? snprintf(err->text, sizeof err->text, "%s:%zu: ", name, line)
            : snprintf(err->text, sizeof err->text, "%s: ", name);
   if (n < 0 || (size_t)n >= sizeof err->text)
      return;
   va_start(ap, fmt);
   vsnprintf(err->text + n, sizeof err->text - (size_t)n, fmt, ap);
   va_end(ap);
}

char *pr_slurp(const char *path, size_t *len, PR_Error *err)
{
   FILE *f = fopen(path, "rb");
   char *buf = NULL;
   size_t n = 0, cap = 0, got;
   if (f == NULL) {
      pr_error(err, path, 0, "cannot open: %s", strerror(errno));
      return NULL;
   }
   do {
      pr_grow(&buf, &cap, n + 65536, 1);
      got = fread(buf + n, 1, cap - n - 1, f);
      n += got;
   } while (got > 0);
   if (ferror(f)) {
      pr_error(err, path, 0, "cannot read: %s", strerror(errno));
      fclose(f);
      free(buf);
      return NULL;
   }
   fclose(f);
   buf[n] = '\0';
   *len = n;
   return buf;
}

/* Massif's files start with desc:, then cmd: and time_unit:; Callgrind's
   with "# callgrind format" or version:/creator:/events:/positions: (a
   Cachegrind file starts with desc: too, but has no time_unit:).
   Anything else whose first line ends in a count is folded stacks. */
PR_Format pr_detect(const char *data, size_t len)
{
   PR_Cursor c = { data, data + len, 0 };
   const char *s;
   size_t n;
   int k;
   for (k = 0; k < 50 && pr_next_line(&c, &s, &n); k++) {
      if (n == 0)
         continue;
      if (pr_starts(s, n, "time_unit:") || pr_starts(s, n, "snapshot="))
         return PR_MASSIF;
      if (pr_starts(s, n, "# callgrind format") || pr_starts(s, n, "version:") ||
          pr_starts(s, n, "creator:") || pr_starts(s, n, "events:") ||
          pr_starts(s, n, "positions:") || pr_starts(s, n, "fn="))
         return PR_CALLGRIND;
      if (pr_starts(s, n, "desc:") || pr_starts(s, n, "cmd:") || s[0] == '#')
         continue;
      while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
         n--;
      if (n > 0 && s[n - 1] >= '0' && s[n - 1] <= '9' &&
          memchr(s, ' ', n) != NULL)
         return PR_FOLDED;
      return PR_UNKNOWN;
   }
   return PR_UNKNOWN;
}
