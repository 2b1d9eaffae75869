/* pd_html.c: the differential flame graph (--html).

   Copyright (C) 2026 The heapsnap/callprof developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   NEW's flame graph and BASE's, profreport's (profreport/pf_svg.c),
   each frame coloured by the change of its own cost, on one page. */

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pd.h"

/*------------------------------------------------------------*/
/*--- The differential flame graph                         ---*/
/*------------------------------------------------------------*/

/* Each frame of A gets, as OTHER and OTHER_SELF, the total and self
   cost of the same path in B (names folded, as functions are matched);
   the largest change of a self cost. */
static pr_u64 annotate(PF_Node *a, const PF_Node *b)
{
   PF_Node *c;
   const PF_Node *d;
   pr_u64 most;
   char x[4096], y[4096];
   int level;
   a->other = b ? b->total : 0;
   a->other_self = b ? b->self : 0;
   most = a->self > a->other_self ? a->self - a->other_self
                                  : a->other_self - a->self;
   for (c = a->child; c; c = c->next) {
      pr_u64 m;
      pd_fold(c->name, x, sizeof x, &level);
      for (d = b ? b->child : NULL; d; d = d->next)
         if (!strcmp(pd_fold(d->name, y, sizeof y, &level), x))
            break;
      m = annotate(c, d);
      if (m > most)
         most = m;
   }
   return most;
}

typedef struct {
   PF_Report   r[2];        /* NEW's graph, BASE's */
   const char *unit;
   pr_u64      total[2];    /* BASE, NEW */
} DiffPage;

static int write_diff_page(xmlTextWriterPtr w, const void *ctx)
{
   const DiffPage *d = ctx;
   char buf[8400], title[8400], a[40], b[40], c[40], p[40];
   int rc = 0;
   snprintf(buf, sizeof buf, "profdiff: %s -> %s", pd_opt.files[0], pd_opt.files[1]);
   pf_clean(buf, title, sizeof title);
   rc |= pf_page_start(w, title);
   rc |= pf_el(w, "style", NULL, "body { font-family: Verdana, sans-serif; "
               "margin: 1em 2em; color: #222; } h1 { font-size: 1.4em; } "
               "h2 { font-size: 1.15em; } p.about { color: #555; }");
   rc |= pf_page_body(w, title);
   snprintf(buf, sizeof buf, "%s: BASE %s, NEW %s, change %s (%s).", d->unit,
            pd_commas(d->total[0], a, sizeof a), pd_commas(d->total[1], b, sizeof b),
            pd_signed_commas((double)d->total[1] - (double)d->total[0], c, sizeof c),
            pd_percent(d->total[0], d->total[1], p, sizeof p));
   rc |= pf_el(w, "p", "about", buf);
   rc |= pf_el(w, "p", "about", "Each frame is coloured by the change of its "
               "own (self) cost from BASE to NEW: red where it grew, blue where "
               "it fell, the deeper the colour the larger the change; white "
               "where it did not change.  Its tooltip gives both totals and "
               "the change.");
   rc |= xmlTextWriterStartElement(w, BAD_CAST "p") < 0;
   rc |= xmlTextWriterStartElement(w, BAD_CAST "a") < 0;
   rc |= xmlTextWriterWriteAttribute(w, BAD_CAST "href", BAD_CAST "#new") < 0;
   rc |= xmlTextWriterWriteString(w, BAD_CAST "NEW, coloured by the change") < 0;
   rc |= xmlTextWriterEndElement(w) < 0;
   rc |= xmlTextWriterWriteString(w, BAD_CAST " \xc2\xb7 ") < 0;
   rc |= xmlTextWriterStartElement(w, BAD_CAST "a") < 0;
   rc |= xmlTextWriterWriteAttribute(w, BAD_CAST "href", BAD_CAST "#base") < 0;
   rc |= xmlTextWriterWriteString(w, BAD_CAST "BASE, the reversed view: what "
                                  "vanished or shrank") < 0;
   rc |= xmlTextWriterEndElement(w) < 0;
   rc |= xmlTextWriterEndElement(w) < 0;             /* p */
   for (int k = 0; k < 2; k++) {
      rc |= xmlTextWriterStartElement(w, BAD_CAST "h2") < 0;
      rc |= xmlTextWriterWriteAttribute(w, BAD_CAST "id", BAD_CAST (k ? "base" : "new")) < 0;
      rc |= xmlTextWriterWriteString(w, BAD_CAST (k ? "BASE, coloured by the "
         "change (what vanished or shrank is blue)" : "NEW, coloured by the "
         "change (what grew is red)")) < 0;
      rc |= xmlTextWriterEndElement(w) < 0;
      rc |= xmlTextWriterStartElement(w, BAD_CAST "div") < 0;
      rc |= xmlTextWriterWriteAttribute(w, BAD_CAST "class", BAD_CAST "flame") < 0;
      rc |= pf_write_svg(w, &d->r[k], 1200, 0.1, 0) != 0;
      rc |= xmlTextWriterEndElement(w) < 0;
   }
   rc |= pf_page_end(w);
   return rc ? -1 : 0;
}

/* --html: the page of both graphs, coloured by the change of EVENT
   (each side's column; -1 for heap profiles). */
void pd_write_html(PD_Side *b, PD_Side *n, const int col[2], const char *unit)
{
   DiffPage d;
   PD_Side *side[2] = { n, b };                /* r[0] NEW, r[1] BASE */
   char msg[1200], title[4200];
   pr_u64 most, back;
   int k;
   memset(&d, 0, sizeof d);
   for (k = 0; k < 2; k++) {
      long snap;
      d.r[k].root = pf_node_new("all");
      if (side[k]->cg)
         pf_add_callgrind(d.r[k].root, side[k]->cg, col[k ? 0 : 1]);
      else
         pf_add_massif(d.r[k].root, side[k]->ms, &snap);
      pf_sort(d.r[k].root);
      d.r[k].unit = (char *)unit;
      d.r[k].estimated = side[k]->cg != NULL;
      d.r[k].diff = k + 1;
      snprintf(title, sizeof title, "%s: %s", k ? "BASE" : "NEW", side[k]->path);
      d.r[k].title = title[0] ? pf_xstrdup(title) : NULL;
   }
   most = annotate(d.r[0].root, d.r[1].root);
   back = annotate(d.r[1].root, d.r[0].root);
   d.r[0].max_change = d.r[1].max_change = most > back ? most : back;
   d.unit = unit;
   d.total[0] = d.r[1].root->total;
   d.total[1] = d.r[0].root->total;
   if (pf_write_file(pd_opt.html, write_diff_page, &d, msg, sizeof msg) != 0) {
      fprintf(stderr, "profdiff: %s\n", msg);
      exit(2);
   }
   for (k = 0; k < 2; k++) {
      pf_node_free(d.r[k].root);
      free(d.r[k].title);
   }
}

