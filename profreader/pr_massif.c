/* pr_massif.c: a Massif-format file (Massif's, heapsnap's), read as
   ms_print and massif-visualizer read it.

   Copyright (C) 2026 The heapsnap/callprof developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   The format:

     desc: --heap-admin=8          (the tool's options; repeated lines join)
     cmd: ./prog arg
     time_unit: i                  (i, ms or B)
     #-----------
     snapshot=0
     #-----------
     time=0
     mem_heap_B=0
     mem_heap_extra_B=0
     mem_stacks_B=0
     heap_tree=empty               (or detailed, or peak)

   and after heap_tree=detailed or peak, the tree in pre-order, one node
   a line, indented one space per level:

     n2: 1000 (heap allocation functions) malloc/new/new[], --alloc-fns, etc.
      n1: 600 0x4005F2: make (prog.c:12)
       n0: 600 0x400610: main (prog.c:30)
      n0: 400 in 3 places, all below massif's threshold (1.00%)

   "nN:" is the number of children that follow at the next level.  The
   reader checks that the counts and the indentation agree: a tree whose
   counts are off is shown wrong by ms_print and rejected by
   massif-visualizer, so it is an error here.  So is a snapshot with two
   heap_tree= lines, or a detailed or peak one without its tree: either
   leaves a snapshot whose kind and tree disagree. */

#include <stdlib.h>
#include <string.h>

#include "pr_internal.h"

typedef struct {
   PR_Massif  *m;
   const char *name;
   PR_Cursor   cur;
   PR_Error   *err;
   size_t      cap_snaps, cap_nodes;
   /* the tree being read: children still expected at each depth */
   unsigned   *left;
   size_t      n_left, cap_left;
   int         in_tree;
   int         kind_seen;      /* this snapshot's heap_tree= was read */
} Reader;

static int fail(Reader *r, const char *what)
{
   pr_error(r->err, r->name, r->cur.lineno, "%s", what);
   return 0;
}

static int field(Reader *r, const char *s, size_t len, const char *key,
                 pr_u64 *v)
{
   const char *p = s + strlen(key), *end = s + len;
   if (!pr_parse_u64(&p, end, v) || p != end)
      return fail(r, "bad number");
   return 1;
}

static int tree_done(Reader *r)
{
   size_t i;
   if (r->m->snaps[r->m->n_snaps - 1].n_nodes == 0)
      return fail(r, "heap_tree=detailed or peak without its tree");
   for (i = 0; i < r->n_left; i++)
      if (r->left[i] != 0)
         return fail(r, "a heap tree has fewer nodes than its counts say");
   r->n_left = 0;
   r->in_tree = 0;
   return 1;
}

static int node(Reader *r, const char *s, size_t len)
{
   PR_MsSnapshot *sn = &r->m->snaps[r->m->n_snaps - 1];
   const char *end = s + len, *p = s;
   size_t depth = 0, i;
   pr_u64 kids, bytes;
   PR_MsNode *nd;

   while (p < end && *p == ' ')
      p++;
   depth = (size_t)(p - s);
   if (p >= end || *p != 'n')
      return fail(r, "bad heap tree line");
   p++;
   if (!pr_parse_u64(&p, end, &kids) || p >= end || *p != ':' ||
       kids > 100000000)
      return fail(r, "bad heap tree line");
   p++;
   while (p < end && *p == ' ')
      p++;
   if (!pr_parse_u64(&p, end, &bytes))
      return fail(r, "bad heap tree line");
   if (p < end && *p == ' ')
      p++;
   if (sn->n_nodes == 0) {
      if (depth != 0)
         return fail(r, "a heap tree must start at depth 0");
   } else {
      if (depth == 0 || depth > r->n_left)
         return fail(r, "heap tree indentation does not match the counts");
      for (i = depth; i < r->n_left; i++)
         if (r->left[i] != 0)
            return fail(r, "a heap tree node has fewer children than its count");
      r->n_left = depth;
      if (r->left[depth - 1] == 0)
         return fail(r, "a heap tree node has more children than its count");
      r->left[depth - 1]--;
   }
   pr_grow(&r->left, &r->cap_left, r->n_left, sizeof *r->left);
   r->left[r->n_left++] = (unsigned)kids;
   pr_grow(&sn->nodes, &r->cap_nodes, sn->n_nodes, sizeof *sn->nodes);
   nd = &sn->nodes[sn->n_nodes++];
   nd->depth = (int)depth;
   nd->n_children = (unsigned)kids;
   nd->bytes = bytes;
   nd->text = pr_xstrndup(p, (size_t)(end - p));
   return 1;
}

static void join(char **to, const char *s, size_t len)
{
   size_t old = *to ? strlen(*to) : 0;
   while (len > 0 && *s == ' ') {
      s++;
      len--;
   }
   *to = realloc(*to, old + len + 2);
   if (*to == NULL)
      abort();
   if (old)
      (*to)[old++] = '\n';
   memcpy(*to + old, s, len);
   (*to)[old + len] = '\0';
}

static int line(Reader *r, const char *s, size_t len)
{
   PR_Massif *m = r->m;
   PR_MsSnapshot *sn = m->n_snaps ? &m->snaps[m->n_snaps - 1] : NULL;

   if (r->in_tree && len > 0 && (s[0] == ' ' || s[0] == 'n'))
      return node(r, s, len);
   if (r->in_tree && !tree_done(r))
      return 0;
   if (len == 0 || s[0] == '#')
      return 1;
   if (pr_starts(s, len, "desc:")) {
      join(&m->desc, s + 5, len - 5);
      return 1;
   }
   if (pr_starts(s, len, "cmd:")) {
      join(&m->cmd, s + 4, len - 4);
      return 1;
   }
   if (pr_starts(s, len, "time_unit:")) {
      join(&m->time_unit, s + 10, len - 10);
      return 1;
   }
   if (pr_starts(s, len, "snapshot=")) {
      pr_u64 v;
      if (!field(r, s, len, "snapshot=", &v))
         return 0;
      pr_grow(&m->snaps, &r->cap_snaps, m->n_snaps, sizeof *m->snaps);
      sn = &m->snaps[m->n_snaps++];
      memset(sn, 0, sizeof *sn);
      sn->num = (long)v;
      r->cap_nodes = 0;
      r->kind_seen = 0;
      return 1;
   }
   if (sn == NULL)
      return fail(r, "snapshot data before snapshot=");
   if (pr_starts(s, len, "time="))
      return field(r, s, len, "time=", &sn->time);
   if (pr_starts(s, len, "mem_heap_B="))
      return field(r, s, len, "mem_heap_B=", &sn->heap);
   if (pr_starts(s, len, "mem_heap_extra_B="))
      return field(r, s, len, "mem_heap_extra_B=", &sn->extra);
   if (pr_starts(s, len, "mem_stacks_B="))
      return field(r, s, len, "mem_stacks_B=", &sn->stacks);
   if (pr_starts(s, len, "heap_tree=")) {
      const char *v = s + 10;
      size_t vl = len - 10;
      if (r->kind_seen)
         return fail(r, "a second heap_tree= in one snapshot");
      r->kind_seen = 1;
      if (vl == 5 && memcmp(v, "empty", 5) == 0)
         sn->kind = PR_TREE_EMPTY;
      else if (vl == 8 && memcmp(v, "detailed", 8) == 0)
         sn->kind = PR_TREE_DETAILED;
      else if (vl == 4 && memcmp(v, "peak", 4) == 0)
         sn->kind = PR_TREE_PEAK;
      else
         return fail(r, "bad heap_tree= value");
      r->in_tree = sn->kind != PR_TREE_EMPTY;
      r->n_left = 0;
      return 1;
   }
   return fail(r, "unknown line");
}

PR_Massif *pr_ms_parse(const char *data, size_t len, const char *name,
                       PR_Error *err)
{
   Reader r;
   const char *s;
   size_t n;
   int ok = 1;

   memset(&r, 0, sizeof r);
   r.m = pr_xcalloc(1, sizeof *r.m);
   r.name = name;
   r.err = err;
   r.cur.p = data;
   r.cur.end = data + len;
   while (ok && pr_next_line(&r.cur, &s, &n))
      ok = line(&r, s, n);
   if (ok && r.in_tree && r.m->snaps[r.m->n_snaps - 1].n_nodes == 0)
      ok = fail(&r, "the file ends before the last heap tree");
   if (ok && r.in_tree)
      ok = tree_done(&r);
   if (ok && (r.m->time_unit == NULL || r.m->n_snaps == 0))
      ok = fail(&r, "no time_unit: or no snapshot (not a Massif-format file?)");
   free(r.left);
   if (!ok) {
      pr_ms_free(r.m);
      return NULL;
   }
   return r.m;
}

void pr_ms_free(PR_Massif *m)
{
   size_t i, j;
   if (m == NULL)
      return;
   for (i = 0; i < m->n_snaps; i++) {
      for (j = 0; j < m->snaps[i].n_nodes; j++)
         free(m->snaps[i].nodes[j].text);
      free(m->snaps[i].nodes);
   }
   free(m->snaps);
   free(m->desc);
   free(m->cmd);
   free(m->time_unit);
   free(m);
}

const char *pr_ms_strip_addr(const char *text)
{
   const char *p = text;
   if (p[0] != '0' || p[1] != 'x')
      return text;
   p += 2;
   while ((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f') ||
          (*p >= 'A' && *p <= 'F'))
      p++;
   if (p[0] == ':' && p[1] == ' ')
      return p + 2;
   return text;
}
