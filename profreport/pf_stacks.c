/* pf_stacks.c: each thread's stack high-water mark, on a heap page.

   Copyright (C) 2026 The heapsnap/callprof developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   With --stacks=yes heapsnap writes, beside its file FILE, FILE.stacks
   (docs/heapsnap.md): a Massif-format file with one detailed snapshot
   per thread, in the order the marks were reached; mem_heap_B is the
   thread's deepest stack in bytes, and the tree is a single path, the
   call stack at that moment:

      n1: 7512 (stack high-water mark of thread 1) its call stack there
       n1: 7512 0x4020CAB: mmap (mmap64.c:60)
        n1: 7512 0x40068DB: _dl_map_segment (dl-map-segments.h:29)
        ...

   The page of FILE then gets a table of the threads, deepest first:
   the thread, its mark, when it was reached, and its call stack, the
   innermost frame first, as a debugger prints a backtrace.

      <h2>Stack high-water marks</h2>
      <table class="stacks"><tr><th>thread</th>...</tr>
        <tr><td>thread 1</td><td class="n">7,512</td><td class="n">40,484</td>
            <td><ol class="frames"><li>mmap (mmap64.c:60)</li>...</ol></td></tr>
      </table> */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pf.h"

static int cmp_mark(const void *a, const void *b)
{
   const PR_MsSnapshot *x = *(const PR_MsSnapshot *const *)a;
   const PR_MsSnapshot *y = *(const PR_MsSnapshot *const *)b;
   if (x->heap != y->heap)
      return x->heap > y->heap ? -1 : 1;
   return x->num < y->num ? -1 : x->num > y->num;
}

int pf_write_stacks(xmlTextWriterPtr w, const PR_Massif *m)
{
   const PR_MsSnapshot **v = calloc(m->n_snaps ? m->n_snaps : 1, sizeof *v);
   size_t i, k, n = 0;
   char buf[4096], a[40];
   int rc = 0;
   if (v == NULL) {
      perror("profreport");
      exit(1);
   }
   for (i = 0; i < m->n_snaps; i++)
      if (m->snaps[i].n_nodes > 0)
         v[n++] = &m->snaps[i];
   qsort(v, n, sizeof *v, cmp_mark);
   rc |= pf_el(w, "h2", NULL, "Stack high-water marks");
   rc |= pf_el(w, "p", "about", "Each thread's deepest stack and its call "
               "stack at that moment, the innermost frame first (heapsnap "
               "--stacks=yes, from the .stacks file beside the profile).");
   rc |= xmlTextWriterStartElement(w, BAD_CAST "table") < 0;
   rc |= xmlTextWriterWriteAttribute(w, BAD_CAST "class", BAD_CAST "stacks") < 0;
   rc |= xmlTextWriterStartElement(w, BAD_CAST "tr") < 0;
   rc |= pf_el(w, "th", NULL, "thread");
   rc |= pf_el(w, "th", NULL, "stack bytes");
   snprintf(buf, sizeof buf, "reached at (%s)", m->time_unit ? m->time_unit : "");
   rc |= pf_el(w, "th", NULL, buf);
   rc |= pf_el(w, "th", NULL, "call stack");
   rc |= xmlTextWriterEndElement(w) < 0;
   for (i = 0; i < n; i++) {
      const PR_MsSnapshot *s = v[i];
      const char *root = s->nodes[0].text, *t = strstr(root, "thread ");
      size_t len = 0;
      if (t)
         while (t[7 + len] >= '0' && t[7 + len] <= '9')
            len++;
      snprintf(buf, sizeof buf, "%.*s", t ? (int)(7 + len) : 0, t ? t : "");
      rc |= xmlTextWriterStartElement(w, BAD_CAST "tr") < 0;
      rc |= pf_el(w, "td", NULL, buf[0] ? buf : "?");
      pf_commas(s->heap, a, sizeof a);
      rc |= pf_el(w, "td", "n", a);
      pf_commas(s->time, a, sizeof a);
      rc |= pf_el(w, "td", "n", a);
      rc |= xmlTextWriterStartElement(w, BAD_CAST "td") < 0;
      rc |= xmlTextWriterStartElement(w, BAD_CAST "ol") < 0;
      rc |= xmlTextWriterWriteAttribute(w, BAD_CAST "class", BAD_CAST "frames") < 0;
      for (k = 1; k < s->n_nodes; k++)
         rc |= pf_el(w, "li", NULL, pf_clean(pr_ms_strip_addr(s->nodes[k].text),
                                             buf, sizeof buf));
      rc |= xmlTextWriterEndElement(w) < 0;       /* ol */
      rc |= xmlTextWriterEndElement(w) < 0;       /* td */
      rc |= xmlTextWriterEndElement(w) < 0;       /* tr */
   }
   rc |= xmlTextWriterEndElement(w) < 0;          /* table */
   free(v);
   return rc;
}
