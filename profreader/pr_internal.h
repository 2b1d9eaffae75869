/* pr_internal.h: what the reader's files share and its users need not
   see: a hash map from byte keys to indices, string interning, growing
   arrays and a line cursor over a buffer.

   Copyright (C) 2026 The heapsnap/callprof developers.
   SPDX-License-Identifier: GPL-2.0-or-later */

#ifndef PR_INTERNAL_H
#define PR_INTERNAL_H

#include <stddef.h>
#include <string.h>
#include "profreader.h"

/* Open addressing, linear probing; keys are copied.  Values are indices
   (into the caller's arrays) or anything else that fits a size_t. */
typedef struct {
   size_t  cap, used;          /* cap a power of two */
   char  **keys;               /* NULL: free slot; a key is len + bytes */
   size_t *klen;
   size_t *vals;
} PR_Map;

void    pr_map_init(PR_Map *m);
void    pr_map_free(PR_Map *m);
/* The slot of KEY: 1 and *VAL if present, else 0. */
int     pr_map_get(const PR_Map *m, const void *key, size_t len, size_t *val);
void    pr_map_put(PR_Map *m, const void *key, size_t len, size_t val);

/* Interned strings: one copy of each, freed with the pool. */
typedef struct { PR_Map map; char **strs; size_t n, cap; } PR_Pool;
void        pr_pool_init(PR_Pool *p);
void        pr_pool_free(PR_Pool *p);
const char *pr_intern(PR_Pool *p, const char *s, size_t len);

/* Grows *ARR (of elements of SIZE) to hold at least N+1; aborts when out
   of memory (a reader has no better answer). */
void  pr_grow(void *arr, size_t *cap, size_t n, size_t size);
void *pr_xmalloc(size_t n);
void *pr_xcalloc(size_t n, size_t size);
char *pr_xstrndup(const char *s, size_t n);

/* Lines of a buffer, "\n" or "\r\n" ended; a NUL ends nothing. */
typedef struct {
   const char *p, *end;
   size_t      lineno;
} PR_Cursor;
/* The next line into *S / *LEN (without its end); 0 at the end. */
int pr_next_line(PR_Cursor *c, const char **s, size_t *len);

/* Whether the LEN bytes at S begin with PREFIX. */
static inline int pr_starts(const char *s, size_t len, const char *prefix)
{
   size_t n = strlen(prefix);
   return len >= n && memcmp(s, prefix, n) == 0;
}

/* Decimal (or 0x hex) at *S within END; 0 if none or it overflows. */
int pr_parse_u64(const char **s, const char *end, pr_u64 *v);

#endif /* PR_INTERNAL_H */
