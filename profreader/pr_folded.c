/* pr_folded.c: folded stacks, the input of flame graphs.

   Copyright (C) 2026 The heapsnap/callprof developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   One stack a line, outermost frame first, frames separated by ';', then
   a space and a count:

     main;parse;strlen 120

   as callprof's --folded-out-file and FlameGraph's stackcollapse-*
   scripts write them.  The count is the last space-separated word (a
   frame may contain spaces: "operator new(unsigned long)").  Equal stacks
   add up; the order is that of first appearance.  Blank lines and lines
   starting with '#' are skipped. */

#include <string.h>
#include <stdlib.h>

#include "pr_internal.h"

PR_Folded *pr_fold_parse(const char *data, size_t len, const char *name,
                         PR_Error *err)
{
   PR_Folded *f = pr_xcalloc(1, sizeof *f);
   PR_Cursor cur = { data, data + len, 0 };
   PR_Map seen;
   size_t cap = 0, n, i;
   const char *s;

   pr_map_init(&seen);
   while (pr_next_line(&cur, &s, &n)) {
      const char *sp, *p;
      pr_u64 count;
      while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
         n--;
      if (n == 0 || s[0] == '#')
         continue;
      sp = s + n;
      while (sp > s && sp[-1] != ' ')
         sp--;
      p = sp;
      if (sp == s || !pr_parse_u64(&p, s + n, &count) || p != s + n) {
         pr_error(err, name, cur.lineno, "not a folded stack line "
                  "(\"frame;frame;... COUNT\")");
         pr_map_free(&seen);
         pr_fold_free(f);
         return NULL;
      }
      n = (size_t)(sp - 1 - s);
      if (pr_map_get(&seen, s, n, &i)) {
         f->stacks[i].count += count;
         continue;
      }
      pr_grow(&f->stacks, &cap, f->n_stacks, sizeof *f->stacks);
      f->stacks[f->n_stacks].stack = pr_xstrndup(s, n);
      f->stacks[f->n_stacks].count = count;
      pr_map_put(&seen, s, n, f->n_stacks++);
   }
   pr_map_free(&seen);
   return f;
}

void pr_fold_free(PR_Folded *f)
{
   size_t i;
   if (f == NULL)
      return;
   for (i = 0; i < f->n_stacks; i++)
      free(f->stacks[i].stack);
   free(f->stacks);
   free(f);
}
