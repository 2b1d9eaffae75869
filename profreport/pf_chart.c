/* pf_chart.c: a heap profile's memory over time.

   Copyright (C) 2026 The heapsnap/callprof developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   As massif-visualizer draws a Massif file: time along the bottom (in
   the file's unit: instructions, milliseconds or bytes allocated), bytes
   up the side, and three areas stacked at each snapshot, the heap
   (requested bytes), the extra (allocator overhead) and the stacks,
   joined by straight lines from snapshot to snapshot; a dashed line and
   a label at the peak.  Each snapshot has an invisible column with a
   tooltip (its number, time and the three figures), so the chart reads
   without script.

      <svg class="chart" ...>
        <polygon class="heap" points="..."/>  (then extra, then stacks)
        <line class="peak" .../> <text class="peak">peak: 292,064 B</text>
        <rect class="snap"><title>snapshot 12: ...</title></rect> ...
      </svg> */

#include <stdio.h>
#include <string.h>

#include "pf.h"

#define H      260
#define LEFT   80
#define RIGHT  20
#define TOP_M  20
#define BOT_M  30

/* The top of layer L (0 heap, 1 + extra, 2 + stacks) at point P. */
static pr_u64 level(const PF_Point *p, int l)
{
   return p->heap + (l >= 1 ? p->extra : 0) + (l >= 2 ? p->stacks : 0);
}

int pf_write_chart(xmlTextWriterPtr w, const PF_Report *r, double width)
{
   static const char *const cls[3] = { "heap", "extra", "stacks" };
   static const char *const fill[3] = { "rgb(220,90,60)", "rgb(240,180,80)",
                                        "rgb(120,160,210)" };
   const PF_Point *s = r->series;
   size_t n = r->n_series, i;
   pr_u64 tmax = 1, ymax = 1;
   double pw = width - LEFT - RIGHT, ph = H - TOP_M - BOT_M;
   char buf[400], a[40], b[40], c[40], d[40];
   int rc = 0, l;

#define X(t) (LEFT + pw * (double)(t) / (double)tmax)
#define Y(v) (TOP_M + ph - ph * (double)(v) / (double)ymax)
   for (i = 0; i < n; i++) {
      if (s[i].time > tmax)
         tmax = s[i].time;
      if (level(&s[i], 2) > ymax)
         ymax = level(&s[i], 2);
   }
   rc |= xmlTextWriterStartElement(w, BAD_CAST "svg") < 0;
   rc |= xmlTextWriterWriteAttribute(w, BAD_CAST "xmlns",
                                     BAD_CAST "http://www.w3.org/2000/svg") < 0;
   rc |= xmlTextWriterWriteAttribute(w, BAD_CAST "class", BAD_CAST "chart") < 0;
   rc |= xmlTextWriterWriteFormatAttribute(w, BAD_CAST "width", "%.0f", width) < 0;
   rc |= xmlTextWriterWriteFormatAttribute(w, BAD_CAST "height", "%d", H) < 0;
   rc |= xmlTextWriterWriteFormatAttribute(w, BAD_CAST "viewBox", "0 0 %.0f %d",
                                           width, H) < 0;
   /* The areas, the highest first so that the lower ones paint over
      it: stacks (all three), extra (heap + extra), heap. */
   for (l = 2; l >= 0; l--) {
      char pts[64];
      rc |= xmlTextWriterStartElement(w, BAD_CAST "polygon") < 0;
      rc |= xmlTextWriterWriteAttribute(w, BAD_CAST "class", BAD_CAST cls[l]) < 0;
      rc |= xmlTextWriterWriteAttribute(w, BAD_CAST "fill", BAD_CAST fill[l]) < 0;
      rc |= xmlTextWriterStartAttribute(w, BAD_CAST "points") < 0;
      snprintf(pts, sizeof pts, "%.1f,%.1f", X(0), Y(0));
      rc |= xmlTextWriterWriteString(w, BAD_CAST pts) < 0;
      for (i = 0; i < n; i++) {
         snprintf(pts, sizeof pts, " %.1f,%.1f", X(s[i].time),
                  Y(level(&s[i], l)));
         rc |= xmlTextWriterWriteString(w, BAD_CAST pts) < 0;
      }
      snprintf(pts, sizeof pts, " %.1f,%.1f", X(n ? s[n - 1].time : 0), Y(0));
      rc |= xmlTextWriterWriteString(w, BAD_CAST pts) < 0;
      rc |= xmlTextWriterEndAttribute(w) < 0;
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
   rc |= xmlTextWriterStartElement(w, BAD_CAST "text") < 0;
   rc |= xmlTextWriterWriteFormatAttribute(w, BAD_CAST "x", "%d", LEFT - 4) < 0;
   rc |= xmlTextWriterWriteFormatAttribute(w, BAD_CAST "y", "%d", TOP_M + 4) < 0;
   rc |= xmlTextWriterWriteAttribute(w, BAD_CAST "text-anchor", BAD_CAST "end") < 0;
   rc |= xmlTextWriterWriteString(w, BAD_CAST buf) < 0;
   rc |= xmlTextWriterEndElement(w) < 0;
   pf_commas(tmax, a, sizeof a);
   snprintf(buf, sizeof buf, "%s %s", a, r->time_unit ? r->time_unit : "");
   rc |= xmlTextWriterStartElement(w, BAD_CAST "text") < 0;
   rc |= xmlTextWriterWriteFormatAttribute(w, BAD_CAST "x", "%.1f", LEFT + pw) < 0;
   rc |= xmlTextWriterWriteFormatAttribute(w, BAD_CAST "y", "%d", H - 8) < 0;
   rc |= xmlTextWriterWriteAttribute(w, BAD_CAST "text-anchor", BAD_CAST "end") < 0;
   rc |= xmlTextWriterWriteString(w, BAD_CAST buf) < 0;
   rc |= xmlTextWriterEndElement(w) < 0;
   /* The peak. */
   if (n > 0 && r->peak < n) {
      const PF_Point *p = &s[r->peak];
      rc |= xmlTextWriterStartElement(w, BAD_CAST "line") < 0;
      rc |= xmlTextWriterWriteAttribute(w, BAD_CAST "class", BAD_CAST "peak") < 0;
      rc |= xmlTextWriterWriteFormatAttribute(w, BAD_CAST "x1", "%.1f", X(p->time)) < 0;
      rc |= xmlTextWriterWriteFormatAttribute(w, BAD_CAST "x2", "%.1f", X(p->time)) < 0;
      rc |= xmlTextWriterWriteFormatAttribute(w, BAD_CAST "y1", "%d", TOP_M) < 0;
      rc |= xmlTextWriterWriteFormatAttribute(w, BAD_CAST "y2", "%.1f", TOP_M + ph) < 0;
      rc |= xmlTextWriterWriteAttribute(w, BAD_CAST "stroke", BAD_CAST "#000") < 0;
      rc |= xmlTextWriterWriteAttribute(w, BAD_CAST "stroke-dasharray", BAD_CAST "4 3") < 0;
      rc |= xmlTextWriterEndElement(w) < 0;
      pf_commas(level(p, 2), a, sizeof a);
      snprintf(buf, sizeof buf, "peak: %s B", a);
      rc |= xmlTextWriterStartElement(w, BAD_CAST "text") < 0;
      rc |= xmlTextWriterWriteAttribute(w, BAD_CAST "class", BAD_CAST "peak") < 0;
      rc |= xmlTextWriterWriteFormatAttribute(w, BAD_CAST "x", "%.1f", X(p->time) + 4) < 0;
      rc |= xmlTextWriterWriteFormatAttribute(w, BAD_CAST "y", "%d", TOP_M + 12) < 0;
      rc |= xmlTextWriterWriteString(w, BAD_CAST buf) < 0;
      rc |= xmlTextWriterEndElement(w) < 0;
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
   rc |= xmlTextWriterEndElement(w) < 0;             /* svg */
#undef X
#undef Y
   return rc ? -1 : 0;
}
