/* pf_html.c: the report page.

   Copyright (C) 2026 The heapsnap/callprof developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   One self-contained file, well-formed XML that browsers read as HTML:

      <!DOCTYPE html>
      <html xmlns="http://www.w3.org/1999/xhtml"> <head> title, style
      <body>
        <h1>TITLE</h1>
        <p class="about">what was read, the command lines, the total,
          and whether the widths are an estimate</p>
        for a heap profile, the memory over time (pf_chart.c)
        <div class="flame"> the flame graph's <svg> (pf_svg.c) </div>
        <h2>Top frames</h2>
        <table class="top"> the 50 names with the most self cost: self
          and total (a name's total counts each path once, however often
          the name recurs on it), with their shares of the whole </table>

   Every text goes through xmlTextWriter, which escapes it. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pf.h"

#define TOP_ROWS 50

typedef struct {
   const char *name;
   pr_u64      self, total;
} Row;

typedef struct {
   Row     *rows;
   size_t   n, cap;
   PF_Index index;
} Rows;


typedef struct { const Rows *t; const char *name; } RowKey;

static int same_row(const void *ctx, size_t i)
{
   const RowKey *k = ctx;
   return strcmp(k->t->rows[i].name, k->name) == 0;
}

static Row *row_of(Rows *t, const char *name)
{
   RowKey k = { t, name };
   size_t i = pf_index_find(&t->index, pf_hash(name, strlen(name), 0),
                            same_row, &k, t->n);
   if (i == t->n) {
      if (t->n == t->cap) {
         t->cap = t->cap ? 2 * t->cap : 64;
         t->rows = pf_xrealloc(t->rows, t->cap * sizeof *t->rows);
      }
      t->rows[i].name = name;
      t->rows[i].self = t->rows[i].total = 0;
      t->n++;
   }
   return &t->rows[i];
}

static void gather(Rows *t, const PF_Node *n, const PF_Node **path,
                   unsigned depth)
{
   const PF_Node *c;
   unsigned k;
   Row *r = row_of(t, n->name);
   r->self += n->self;
   for (k = 0; k < depth; k++)
      if (strcmp(path[k]->name, n->name) == 0)
         break;
   if (k == depth)
      r->total += n->total;            /* the outermost on this path */
   if (depth < 1024)
      path[depth] = n;
   for (c = n->child; c; c = c->next)
      gather(t, c, path, depth < 1024 ? depth + 1 : depth);
}

static int cmp_row(const void *a, const void *b)
{
   const Row *x = a, *y = b;
   if (x->self != y->self)
      return x->self > y->self ? -1 : 1;
   return strcmp(x->name, y->name);
}

int pf_el(xmlTextWriterPtr w, const char *name, const char *cls,
          const char *text)
{
   int rc = xmlTextWriterStartElement(w, BAD_CAST name) < 0;
   if (cls)
      rc |= xmlTextWriterWriteAttribute(w, BAD_CAST "class", BAD_CAST cls) < 0;
   rc |= xmlTextWriterWriteString(w, BAD_CAST text) < 0;
   rc |= xmlTextWriterEndElement(w) < 0;
   return rc;
}

int pf_page_start(xmlTextWriterPtr w, const char *title)
{
   int rc = xmlTextWriterStartDocument(w, NULL, "UTF-8", NULL) < 0;
   rc |= xmlTextWriterWriteDTD(w, BAD_CAST "html", NULL, NULL, NULL) < 0;
   rc |= xmlTextWriterStartElement(w, BAD_CAST "html") < 0;
   rc |= xmlTextWriterWriteAttribute(w, BAD_CAST "xmlns",
                                     BAD_CAST "http://www.w3.org/1999/xhtml") < 0;
   rc |= xmlTextWriterStartElement(w, BAD_CAST "head") < 0;
   rc |= xmlTextWriterStartElement(w, BAD_CAST "meta") < 0;
   rc |= xmlTextWriterWriteAttribute(w, BAD_CAST "charset", BAD_CAST "utf-8") < 0;
   rc |= xmlTextWriterEndElement(w) < 0;
   rc |= pf_el(w, "title", NULL, title);
   return rc;
}

int pf_page_body(xmlTextWriterPtr w, const char *title)
{
   int rc = xmlTextWriterEndElement(w) < 0;         /* head */
   rc |= xmlTextWriterStartElement(w, BAD_CAST "body") < 0;
   rc |= pf_el(w, "h1", NULL, title);
   return rc;
}

int pf_page_end(xmlTextWriterPtr w)
{
   int rc = xmlTextWriterEndElement(w) < 0;         /* body */
   rc |= xmlTextWriterEndElement(w) < 0;            /* html */
   rc |= xmlTextWriterEndDocument(w) < 0;
   return rc;
}

int pf_write_html(xmlTextWriterPtr w, const PF_Report *r, double width,
                  double minwidth)
{
   Rows t = { NULL, 0, 0, { NULL, 0, 0 } };
   const PF_Node *path[1024];
   char buf[8192], a[40];
   const PF_Node *c;
   size_t i;
   int rc = 0;

   rc |= pf_page_start(w, pf_clean(r->title, buf, sizeof buf));
   rc |= pf_el(w, "style", NULL,
            "body { font-family: Verdana, sans-serif; margin: 1em 2em; "
            "color: #222; }\n"
            "h1 { font-size: 1.4em; } h2 { font-size: 1.15em; }\n"
            "p.about { color: #555; }\n"
            "table.top { border-collapse: collapse; font-size: 0.9em; }\n"
            "table.top td, table.top th { padding: 2px 10px; "
            "border-bottom: 1px solid #ddd; }\n"
            "table.top td.n { text-align: right; "
            "font-variant-numeric: tabular-nums; }\n"
            "table.fns, table.arcs { border-collapse: collapse; "
            "font-size: 0.85em; }\n"
            "table.fns td, table.fns th, table.arcs td, table.arcs th "
            "{ padding: 2px 8px; border-bottom: 1px solid #ddd; }\n"
            "table.fns th.derived { color: #770; }\n"
            "td.n { text-align: right; font-variant-numeric: tabular-nums; }\n"
            "td.fn { min-width: 16em; max-width: 40em; overflow-wrap: anywhere; }\n"
            "span.where { display: block; color: #777; font-size: 0.85em; }\n"
            "p.where { color: #555; } p.rate { margin: 0.2em 0; }\n"
            "div.fn { margin: 1em 0 1.5em; } div.fn h3 { font-size: 1em; "
            "margin-bottom: 0.2em; } div.fn h4 { font-size: 0.9em; "
            "margin: 0.6em 0 0.2em; }\n"
            "div.fn:target { background: #fff6d8; }\n"
            "table.stacks { border-collapse: collapse; font-size: 0.85em; }\n"
            "table.stacks td, table.stacks th { padding: 2px 8px; "
            "border-bottom: 1px solid #ddd; vertical-align: top; }\n"
            "ol.frames { margin: 0; padding-left: 1.5em; }\n"
            "svg text.legend { font-size: 11px; }\n");
   rc |= pf_page_body(w, pf_clean(r->title, buf, sizeof buf));

   pf_commas(r->root->total, a, sizeof a);
   snprintf(buf, sizeof buf, "From %s. Total: %s %s.%s", r->source, a,
            r->unit, r->estimated ? " The flame graph's widths are "
            "estimated from the call graph: the file has no exact call "
            "paths." : "");
   rc |= pf_el(w, "p", "about", buf);
   for (i = 0; i < r->n_cmds; i++) {
      char cmd[4096];
      snprintf(buf, sizeof buf, "Command: %s",
               pf_clean(r->cmds[i], cmd, sizeof cmd));
      rc |= pf_el(w, "p", "about", buf);
   }

   if (r->n_series > 0) {
      rc |= pf_el(w, "h2", NULL, "Memory over time");
      rc |= pf_el(w, "p", "about", "The top allocation sites, the rest of "
               "the heap (requested bytes), the extra (the allocator's "
               "overhead) and the stacks, stacked; the dashed line is the "
               "peak, whose tree the flame graph below draws.  A site's bytes "
               "between two snapshots with a tree are interpolated.");
      rc |= xmlTextWriterStartElement(w, BAD_CAST "div") < 0;
      rc |= xmlTextWriterWriteAttribute(w, BAD_CAST "class", BAD_CAST "chart") < 0;
      rc |= pf_write_chart(w, r, width) != 0;
      rc |= xmlTextWriterEndElement(w) < 0;
      if (r->stacks)
         rc |= pf_write_stacks(w, r->stacks) != 0;
      rc |= pf_el(w, "h2", NULL, "The heap at the peak");
   }
   rc |= xmlTextWriterStartElement(w, BAD_CAST "div") < 0;
   rc |= xmlTextWriterWriteAttribute(w, BAD_CAST "class", BAD_CAST "flame") < 0;
   rc |= pf_write_svg(w, r, width, minwidth, 0) != 0;
   rc |= xmlTextWriterEndElement(w) < 0;

   if (r->fns) {
      rc |= pf_write_fns(w, r->fns) != 0;
      goto done;
   }
   /* A heap tree's self bytes are at the allocating functions: the
      table is of the allocation sites at the peak. */
   rc |= pf_el(w, "h2", NULL, r->n_series > 0 ? "Allocation sites at the peak"
                                              : "Top frames");
   for (c = r->root->child; c; c = c->next)
      gather(&t, c, path, 0);
   qsort(t.rows, t.n, sizeof *t.rows, cmp_row);
   rc |= xmlTextWriterStartElement(w, BAD_CAST "table") < 0;
   rc |= xmlTextWriterWriteAttribute(w, BAD_CAST "class", BAD_CAST "top") < 0;
   rc |= xmlTextWriterStartElement(w, BAD_CAST "tr") < 0;
   rc |= pf_el(w, "th", NULL, "name");
   snprintf(buf, sizeof buf, "self (%s)", r->unit);
   rc |= pf_el(w, "th", NULL, buf);
   rc |= pf_el(w, "th", NULL, "self %");
   snprintf(buf, sizeof buf, "total (%s)", r->unit);
   rc |= pf_el(w, "th", NULL, buf);
   rc |= pf_el(w, "th", NULL, "total %");
   rc |= xmlTextWriterEndElement(w) < 0;
   for (i = 0; i < t.n && i < TOP_ROWS; i++) {
      double all = r->root->total ? (double)r->root->total : 1;
      rc |= xmlTextWriterStartElement(w, BAD_CAST "tr") < 0;
      rc |= pf_el(w, "td", NULL, pf_clean(t.rows[i].name, buf, sizeof buf));
      pf_commas(t.rows[i].self, a, sizeof a);
      rc |= pf_el(w, "td", "n", a);
      snprintf(buf, sizeof buf, "%.2f", 100.0 * t.rows[i].self / all);
      rc |= pf_el(w, "td", "n", buf);
      pf_commas(t.rows[i].total, a, sizeof a);
      rc |= pf_el(w, "td", "n", a);
      snprintf(buf, sizeof buf, "%.2f", 100.0 * t.rows[i].total / all);
      rc |= pf_el(w, "td", "n", buf);
      rc |= xmlTextWriterEndElement(w) < 0;
   }
   rc |= xmlTextWriterEndElement(w) < 0;            /* table */
done:
   rc |= pf_page_end(w);
   free(t.rows);
   pf_index_free(&t.index);
   return rc ? -1 : 0;
}
