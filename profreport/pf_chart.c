/* pf_chart.c: a heap profile's memory over time.

   Copyright (C) 2026 The heapsnap/callprof developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   As massif-visualizer draws a Massif file: time along the bottom (in
   the file's unit: instructions, milliseconds or bytes allocated), bytes
   up the side, and areas stacked at each snapshot, joined by straight
   lines from snapshot to snapshot: the top allocation sites, the rest
   of the heap, the extra (allocator overhead) and the stacks; a dashed
   line and a label at the peak; a legend.  Each snapshot has an
   invisible column with a tooltip (its number, time, the three totals
   and each top site's bytes), so the chart reads without script.

   The sites are the children of the root of the snapshots' trees (the
   functions that called malloc, new...), the MAX_SITES largest by their
   largest size in any detailed snapshot, as massif-visualizer picks its
   "allocators"; Massif's "in N places, all below massif's threshold"
   lines are the rest of the heap.  Only detailed snapshots have trees:
   between two of them a site's bytes are interpolated by time (and
   never above the snapshot's heap), which the tooltip says.

      <svg class="chart" ...>
        <polygon class="stacks" .../> <polygon class="extra" .../>
        <polygon class="heap" .../>  (the rest of the heap)
        <polygon class="site" ...><title>SITE</title></polygon> ...
        <line class="peak" .../> <text class="peak">peak: 292,064 B</text>
        <rect class="snap"><title>snapshot 12: ...</title></rect> ...
        <g class="legend"> ... </g>
      </svg> */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pf.h"

#define H      260
#define LEFT   80
#define RIGHT  20
#define TOP_M  20
#define BOT_M  30
#define LEGEND_ROW 16
#define MAX_SITES 8


/*------------------------------------------------------------*/
/*--- The figures                                          ---*/
/*------------------------------------------------------------*/

typedef struct { const char *name; pr_u64 most; } Site;
typedef struct { const Site *v; const char *name; } SiteKey;

static int same_site(const void *ctx, size_t i)
{
   const SiteKey *k = ctx;
   return strcmp(k->v[i].name, k->name) == 0;
}

static int cmp_site(const void *a, const void *b)
{
   const Site *x = a, *y = b;
   if (x->most != y->most)
      return x->most > y->most ? -1 : 1;
   return strcmp(x->name, y->name);
}

/* A tree's child of the root that is a site, not Massif's "in N
   places, all below massif's threshold". */
static const char *site_name(const PR_MsNode *n)
{
   const char *t = pr_ms_strip_addr(n->text);
   if (n->depth != 1 || (strncmp(t, "in ", 3) == 0 && strstr(t, "below")))
      return NULL;
   return t;
}

/* The sites and their largest sizes, in SITES (the caller frees). */
static size_t find_sites(const PR_Massif *m, Site **sites)
{
   PF_Index index = { NULL, 0, 0 };
   Site *v = NULL;
   size_t n = 0, cap = 0, i, k, j;
   for (i = 0; i < m->n_snaps; i++) {
      const PR_MsSnapshot *ss = &m->snaps[i];
      for (k = 0; k < ss->n_nodes; k++) {
         const char *name = site_name(&ss->nodes[k]);
         SiteKey key;
         pr_u64 bytes = 0;
         if (name == NULL)
            continue;
         /* One site can be several children (other code addresses). */
         for (j = 0; j < ss->n_nodes; j++) {
            const char *other = site_name(&ss->nodes[j]);
            if (other && strcmp(other, name) == 0)
               bytes += ss->nodes[j].bytes;
         }
         key.v = v;
         key.name = name;
         j = pf_index_find(&index, pf_hash(name, strlen(name), 0), same_site,
                           &key, n);
         if (j == n) {
            if (n == cap) {
               cap = cap ? 2 * cap : 64;
               v = pf_xrealloc(v, cap * sizeof *v);
            }
            v[n].name = name;
            v[n++].most = 0;
         }
         if (bytes > v[j].most)
            v[j].most = bytes;
      }
   }
   pf_index_free(&index);
   if (n)
      qsort(v, n, sizeof *v, cmp_site);
   *sites = v;
   return n;
}

void pf_chart_series(PF_Report *r, const PR_Massif *m)
{
   size_t n = m->n_snaps, i, k, j, best = 0, n_found;
   Site *found;
   r->series = pf_xcalloc(n, sizeof *r->series);
   r->detailed = pf_xcalloc(n, 1);
   r->peak = (size_t)-1;
   for (i = 0; i < n; i++) {
      const PR_MsSnapshot *ss = &m->snaps[i];
      r->series[i].time = ss->time;
      r->series[i].heap = ss->heap;
      r->series[i].extra = ss->extra;
      r->series[i].stacks = ss->stacks;
      r->detailed[i] = ss->kind != PR_TREE_EMPTY;
      if (ss->kind == PR_TREE_PEAK)
         r->peak = i;
      if (ss->heap + ss->extra + ss->stacks >
          m->snaps[best].heap + m->snaps[best].extra + m->snaps[best].stacks)
         best = i;
   }
   if (r->peak == (size_t)-1)
      r->peak = best;
   r->n_series = n;
   r->time_unit = strdup(m->time_unit ? m->time_unit : "");

   n_found = find_sites(m, &found);
   r->n_sites = n_found < MAX_SITES ? n_found : MAX_SITES;
   r->sites = pf_xcalloc(r->n_sites, sizeof *r->sites);
   for (k = 0; k < r->n_sites; k++)
      r->sites[k] = strdup(found[k].name);
   free(found);
   r->site_bytes = pf_xcalloc(n * r->n_sites, sizeof *r->site_bytes);
   /* Detailed snapshots: their trees' figures. */
   for (i = 0; i < n; i++) {
      const PR_MsSnapshot *ss = &m->snaps[i];
      for (j = 0; j < ss->n_nodes && r->detailed[i]; j++) {
         const char *name = site_name(&ss->nodes[j]);
         for (k = 0; name && k < r->n_sites; k++)
            if (strcmp(r->sites[k], name) == 0)
               r->site_bytes[i * r->n_sites + k] += ss->nodes[j].bytes;
      }
   }
   /* The others: between the nearest detailed ones, by time; never
      more than the heap. */
   for (i = 0; i < n && r->n_sites; i++) {
      size_t p = i, q = i;
      pr_u64 sum = 0;
      if (r->detailed[i])
         continue;
      while (p > 0 && !r->detailed[p])
         p--;
      while (q + 1 < n && !r->detailed[q])
         q++;
      for (k = 0; k < r->n_sites; k++) {
         double a = r->detailed[p] ? (double)r->site_bytes[p * r->n_sites + k] : -1;
         double b = r->detailed[q] ? (double)r->site_bytes[q * r->n_sites + k] : -1;
         double t0 = (double)r->series[p].time, t1 = (double)r->series[q].time;
         double v;
         if (a < 0 && b < 0)
            v = 0;
         else if (a < 0)
            v = b;
         else if (b < 0 || t1 <= t0)
            v = a;
         else
            v = a + (b - a) * ((double)r->series[i].time - t0) / (t1 - t0);
         r->site_bytes[i * r->n_sites + k] = (pr_u64)(v + 0.5);
         sum += r->site_bytes[i * r->n_sites + k];
      }
      if (sum > r->series[i].heap)
         for (k = 0; k < r->n_sites; k++)
            r->site_bytes[i * r->n_sites + k] = (pr_u64)(
               (double)r->site_bytes[i * r->n_sites + k] *
               (double)r->series[i].heap / (double)sum);
   }
}

void pf_chart_free(PF_Report *r)
{
   size_t k;
   for (k = 0; k < r->n_sites; k++)
      free(r->sites[k]);
   free(r->sites);
   free(r->site_bytes);
   free(r->detailed);
   free(r->series);
   free(r->time_unit);
}

/*------------------------------------------------------------*/
/*--- The chart                                            ---*/
/*------------------------------------------------------------*/

/* The top of layer L at snapshot I: layers 0..n_sites-1 the sites, then
   the rest of the heap (its top is the heap), extra, stacks. */
static pr_u64 level(const PF_Report *r, size_t i, size_t l)
{
   const PF_Point *p = &r->series[i];
   pr_u64 v = 0;
   size_t k;
   if (l < r->n_sites) {
      for (k = 0; k <= l; k++)
         v += r->site_bytes[i * r->n_sites + k];
      return v;
   }
   l -= r->n_sites;
   return p->heap + (l >= 1 ? p->extra : 0) + (l >= 2 ? p->stacks : 0);
}

int pf_write_chart(xmlTextWriterPtr w, const PF_Report *r, double width)
{
   static const char *const cls[3] = { "heap", "extra", "stacks" };
   static const char *const fill[3] = { "rgb(230,160,150)", "rgb(240,200,120)",
                                        "rgb(140,175,215)" };
   static const char *const label[3] = { "the rest of the heap",
      "extra (allocator overhead)", "stacks" };
   const PF_Point *s = r->series;
   size_t n = r->n_series, i, l, n_layers = r->n_sites + 3, k;
   size_t legend_rows = (n_layers + 1) / 2;
   pr_u64 tmax = 1, ymax = 1;
   double pw = width - LEFT - RIGHT, ph = H - TOP_M - BOT_M;
   double height = H + 8 + (double)legend_rows * LEGEND_ROW;
   char buf[4000], a[40], b[40], c[40], d[40], name[1000];
   int rc = 0;

#define X(t) (LEFT + pw * (double)(t) / (double)tmax)
#define Y(v) (TOP_M + ph - ph * (double)(v) / (double)ymax)
   for (i = 0; i < n; i++) {
      if (s[i].time > tmax)
         tmax = s[i].time;
      if (level(r, i, n_layers - 1) > ymax)
         ymax = level(r, i, n_layers - 1);
   }
   rc |= xmlTextWriterStartElement(w, BAD_CAST "svg") < 0;
   rc |= xmlTextWriterWriteAttribute(w, BAD_CAST "xmlns",
                                     BAD_CAST "http://www.w3.org/2000/svg") < 0;
   rc |= xmlTextWriterWriteAttribute(w, BAD_CAST "class", BAD_CAST "chart") < 0;
   rc |= xmlTextWriterWriteFormatAttribute(w, BAD_CAST "width", "%.0f", width) < 0;
   rc |= xmlTextWriterWriteFormatAttribute(w, BAD_CAST "height", "%.0f", height) < 0;
   rc |= xmlTextWriterWriteFormatAttribute(w, BAD_CAST "viewBox", "0 0 %.0f %.0f",
                                           width, height) < 0;
   /* The areas, the highest first so that the lower ones paint over
      it. */
   for (l = n_layers; l-- > 0;) {
      char pts[64];
      const char *layer_cls = l < r->n_sites ? "site" : cls[l - r->n_sites];
      rc |= xmlTextWriterStartElement(w, BAD_CAST "polygon") < 0;
      rc |= xmlTextWriterWriteAttribute(w, BAD_CAST "class", BAD_CAST layer_cls) < 0;
      if (l < r->n_sites)
         pf_colour(r->sites[l], buf, sizeof buf);
      rc |= xmlTextWriterWriteAttribute(w, BAD_CAST "fill", BAD_CAST (
                                        l < r->n_sites ? buf : fill[l - r->n_sites])) < 0;
      rc |= xmlTextWriterStartAttribute(w, BAD_CAST "points") < 0;
      snprintf(pts, sizeof pts, "%.1f,%.1f", X(0), Y(0));
      rc |= xmlTextWriterWriteString(w, BAD_CAST pts) < 0;
      for (i = 0; i < n; i++) {
         snprintf(pts, sizeof pts, " %.1f,%.1f", X(s[i].time),
                  Y(level(r, i, l)));
         rc |= xmlTextWriterWriteString(w, BAD_CAST pts) < 0;
      }
      snprintf(pts, sizeof pts, " %.1f,%.1f", X(n ? s[n - 1].time : 0), Y(0));
      rc |= xmlTextWriterWriteString(w, BAD_CAST pts) < 0;
      rc |= xmlTextWriterEndAttribute(w) < 0;
      rc |= xmlTextWriterWriteElement(w, BAD_CAST "title", BAD_CAST (
         l < r->n_sites ? pf_clean(r->sites[l], name, sizeof name)
                        : label[l - r->n_sites])) < 0;
      rc |= xmlTextWriterEndElement(w) < 0;
   }
   /* Axes, with the largest time and size. */
   rc |= xmlTextWriterStartElement(w, BAD_CAST "path") < 0;
   rc |= xmlTextWriterWriteFormatAttribute(w, BAD_CAST "d",
                                           "M%d,%d V%.1f H%.1f", LEFT, TOP_M,
                                           TOP_M + ph, LEFT + pw) < 0;
   rc |= xmlTextWriterWriteAttribute(w, BAD_CAST "stroke", BAD_CAST "#444") < 0;
   rc |= xmlTextWriterWriteAttribute(w, BAD_CAST "fill", BAD_CAST "none") < 0;
   rc |= xmlTextWriterEndElement(w) < 0;
   pf_commas(ymax, a, sizeof a);
   snprintf(buf, sizeof buf, "%s B", a);
   rc |= pf_svg_text(w, NULL, LEFT - 4, TOP_M + 4, "end", buf);
   pf_commas(tmax, a, sizeof a);
   snprintf(buf, sizeof buf, "%s %s", a, r->time_unit ? r->time_unit : "");
   rc |= pf_svg_text(w, NULL, LEFT + pw, H - 8, "end", buf);
   /* The peak. */
   if (n > 0 && r->peak < n) {
      const PF_Point *p = &s[r->peak];
      pr_u64 top = level(r, r->peak, n_layers - 1);
      rc |= xmlTextWriterStartElement(w, BAD_CAST "line") < 0;
      rc |= xmlTextWriterWriteAttribute(w, BAD_CAST "class", BAD_CAST "peak") < 0;
      rc |= xmlTextWriterWriteFormatAttribute(w, BAD_CAST "x1", "%.1f", X(p->time)) < 0;
      rc |= xmlTextWriterWriteFormatAttribute(w, BAD_CAST "x2", "%.1f", X(p->time)) < 0;
      rc |= xmlTextWriterWriteFormatAttribute(w, BAD_CAST "y1", "%d", TOP_M) < 0;
      rc |= xmlTextWriterWriteFormatAttribute(w, BAD_CAST "y2", "%.1f", TOP_M + ph) < 0;
      rc |= xmlTextWriterWriteAttribute(w, BAD_CAST "stroke", BAD_CAST "#000") < 0;
      rc |= xmlTextWriterWriteAttribute(w, BAD_CAST "stroke-dasharray", BAD_CAST "4 3") < 0;
      rc |= xmlTextWriterEndElement(w) < 0;
      pf_commas(top, a, sizeof a);
      snprintf(buf, sizeof buf, "peak: %s B", a);
      rc |= pf_svg_text(w, "peak", X(p->time) + 4, TOP_M + 12, NULL, buf);
   }
   /* A tooltip per snapshot: an invisible column around it. */
   for (i = 0; i < n; i++) {
      double x0 = i > 0 ? (X(s[i - 1].time) + X(s[i].time)) / 2 : LEFT;
      double x1 = i + 1 < n ? (X(s[i].time) + X(s[i + 1].time)) / 2 : LEFT + pw;
      pf_commas(s[i].time, a, sizeof a);
      pf_commas(s[i].heap, b, sizeof b);
      pf_commas(s[i].extra, c, sizeof c);
      pf_commas(s[i].stacks, d, sizeof d);
      snprintf(buf, sizeof buf, "snapshot %zu%s: time %s %s, heap %s B, "
               "extra %s B, stacks %s B", i, i == r->peak ? " (peak)" : "",
               a, r->time_unit ? r->time_unit : "", b, c, d);
      for (k = 0; k < r->n_sites; k++) {
         size_t used = strlen(buf);
         pf_commas(r->site_bytes[i * r->n_sites + k], a, sizeof a);
         snprintf(buf + used, sizeof buf - used, "\n%s%s B: %.120s",
                  r->detailed[i] ? "" : "~", a,
                  pf_clean(r->sites[k], name, sizeof name));
      }
      if (r->n_sites && !r->detailed[i]) {
         size_t used = strlen(buf);
         snprintf(buf + used, sizeof buf - used, "\n(~: between the "
                  "snapshots with a tree)");
      }
      rc |= xmlTextWriterStartElement(w, BAD_CAST "rect") < 0;
      rc |= xmlTextWriterWriteAttribute(w, BAD_CAST "class", BAD_CAST "snap") < 0;
      rc |= xmlTextWriterWriteFormatAttribute(w, BAD_CAST "x", "%.1f", x0) < 0;
      rc |= xmlTextWriterWriteFormatAttribute(w, BAD_CAST "y", "%d", TOP_M) < 0;
      rc |= xmlTextWriterWriteFormatAttribute(w, BAD_CAST "width", "%.1f",
                                              x1 > x0 ? x1 - x0 : 0.5) < 0;
      rc |= xmlTextWriterWriteFormatAttribute(w, BAD_CAST "height", "%.1f", ph) < 0;
      rc |= xmlTextWriterWriteAttribute(w, BAD_CAST "fill", BAD_CAST "transparent") < 0;
      rc |= xmlTextWriterWriteElement(w, BAD_CAST "title", BAD_CAST buf) < 0;
      rc |= xmlTextWriterEndElement(w) < 0;
   }
   /* The legend, two columns under the axis. */
   rc |= xmlTextWriterStartElement(w, BAD_CAST "g") < 0;
   rc |= xmlTextWriterWriteAttribute(w, BAD_CAST "class", BAD_CAST "legend") < 0;
   for (l = 0; l < n_layers; l++) {
      double x = LEFT + (double)(l % 2) * pw / 2;
      double y = H + 4 + (double)(l / 2) * LEGEND_ROW;
      if (l < r->n_sites)
         pf_colour(r->sites[l], buf, sizeof buf);
      rc |= xmlTextWriterStartElement(w, BAD_CAST "rect") < 0;
      rc |= xmlTextWriterWriteFormatAttribute(w, BAD_CAST "x", "%.1f", x) < 0;
      rc |= xmlTextWriterWriteFormatAttribute(w, BAD_CAST "y", "%.1f", y - 10) < 0;
      rc |= xmlTextWriterWriteAttribute(w, BAD_CAST "width", BAD_CAST "10") < 0;
      rc |= xmlTextWriterWriteAttribute(w, BAD_CAST "height", BAD_CAST "10") < 0;
      rc |= xmlTextWriterWriteAttribute(w, BAD_CAST "fill", BAD_CAST (
                                        l < r->n_sites ? buf : fill[l - r->n_sites])) < 0;
      rc |= xmlTextWriterEndElement(w) < 0;
      if (l < r->n_sites) {
         pf_clean(r->sites[l], name, sizeof name);
         if (strlen(name) > 80)            /* whole in the area's tooltip */
            strcpy(name + 77, "...");
      }
      rc |= pf_svg_text(w, "legend", x + 14, y, NULL,
                        l < r->n_sites ? name : label[l - r->n_sites]);
   }
   rc |= xmlTextWriterEndElement(w) < 0;             /* g */
   rc |= xmlTextWriterEndElement(w) < 0;             /* svg */
#undef X
#undef Y
   return rc ? -1 : 0;
}
