/* pf_svg.c: the flame graph, an interactive SVG.

   Copyright (C) 2026 The heapsnap/callprof developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   The layout is flamegraph.pl's: the root ("all") at the bottom, each
   frame above its parent, as wide as its cost, children in name order;
   16 pixels a frame, a title above, a details line and the search
   result below.  Each frame is

      <g class="f"><title>NAME (1,234 Ir, 12.34%)
                          self: 120 Ir (1.21%)
                          FILE, OBJECT</title>    (a call graph's)
        <rect x=".." y=".." width=".." height="15" fill="rgb(..)"/>
        <text x=".." y="..">NAME, cut to the frame</text></g>

   so a reader without script still has every frame and its tooltip.
   The script (inline, no network) adds what flamegraph.pl's does:
   clicking a frame zooms into it (the frames below it stay, the others
   outside its range are hidden; "Reset Zoom" or a click on "all"
   zooms out), "Search" asks for a regular expression, marks the
   matching frames and says what share of the total they make, a frame
   inside another matching frame counted once; the zoom and the search
   are kept in the URL (#z=FRAME&s=REGEX), so a link shows the same
   view.  "Icicle" turns the graph upside down (the root at the top, as
   an icicle graph; #i=1 in the URL) and "Flame" back.  Everything written goes through libxml2's xmlTextWriter, which
   escapes it; names are first made valid UTF-8 without control
   characters, so that the document is always well-formed. */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pf.h"

#define FRAME_H   16
#define TOP       54
#define BOTTOM    36
#define FONT      12
#define FONT_W    (FONT * 0.59)      /* an average glyph, as flamegraph.pl */

const char *pf_clean(const char *name, char *buf, size_t size)
{
   const unsigned char *s = (const unsigned char *)name;
   size_t o = 0;
   while (*s && o + 5 < size) {
      unsigned n = 0, k;
      if (*s < 0x20 || *s == 0x7f) {
         buf[o++] = '?';
         s++;
         continue;
      }
      if (*s < 0x80)
         n = 1;
      else if ((*s & 0xe0) == 0xc0 && *s >= 0xc2)
         n = 2;
      else if ((*s & 0xf0) == 0xe0)
         n = 3;
      else if ((*s & 0xf8) == 0xf0 && *s <= 0xf4)
         n = 4;
      for (k = 1; k < n; k++)
         if ((s[k] & 0xc0) != 0x80)
            n = 0;
      if (n == 0) {
         buf[o++] = '?';
         s++;
         continue;
      }
      memcpy(buf + o, s, n);
      o += n;
      s += n;
   }
   buf[o] = '\0';
   return buf;
}

void pf_colour(const char *name, char *buf, size_t size)
{
   unsigned h = 2166136261u;
   const unsigned char *s = (const unsigned char *)name;
   while (*s) {
      h ^= *s++;
      h *= 16777619u;
   }
   /* flamegraph.pl's "hot" palette: red 205-255, green 0-230, blue 0-55. */
   snprintf(buf, size, "rgb(%u,%u,%u)", 205 + h % 51, (h >> 8) % 231,
            (h >> 16) % 56);
}

void pf_commas(pr_u64 v, char *buf, size_t size)
{
   char d[32];
   int n = snprintf(d, sizeof d, "%llu", v), i, o = 0;
   for (i = 0; i < n && (size_t)o + 2 < size; i++) {
      if (i > 0 && (n - i) % 3 == 0)
         buf[o++] = ',';
      buf[o++] = d[i];
   }
   buf[o] = '\0';
}

static int depth_of(const PF_Node *n)
{
   const PF_Node *c;
   int d = 0;
   for (c = n->child; c; c = c->next) {
      int k = depth_of(c);
      if (k > d)
         d = k;
   }
   return d + 1;
}

typedef struct {
   xmlTextWriterPtr w;
   const PF_Report *r;
   double scale, minwidth, height;
   unsigned next_id;
   int rc;
   /* A frame's texts, here rather than on the stack: frames recurse as
      deep as the deepest path (thousands of frames in folded stacks). */
   char name[4096], title[8600], shown[4096], where[4096];
} Out;

/* The text a frame of WIDTH pixels shows: NAME, cut with "..". */
static void fit(const char *name, double width, char *buf, size_t size)
{
   size_t fits = width > 6 ? (size_t)((width - 6) / FONT_W) : 0, n;
   buf[0] = '\0';
   if (fits < 3)
      return;
   n = strlen(name);
   if (n <= fits) {
      snprintf(buf, size, "%s", name);
      return;
   }
   /* Cut at a character boundary (UTF-8 continuation bytes skipped). */
   n = fits - 2;
   while (n > 0 && ((unsigned char)name[n] & 0xc0) == 0x80)
      n--;
   snprintf(buf, size, "%.*s..", (int)n, name);
}

/* A differential graph's frame: its colour by the change of its self
   cost from the base to the new profile (red more, blue less, white
   none, the largest change the deepest colour, as flamegraph.pl's
   differential graphs), and a tooltip line with both totals. */
static void diff_frame(Out *o, const PF_Node *n, char *colour, size_t size)
{
   pr_u64 base = o->r->diff == 1 ? n->other : n->total;
   pr_u64 now = o->r->diff == 1 ? n->total : n->other;
   double change = (double)now - (double)base;
   double own = o->r->diff == 1 ? (double)n->self - (double)n->other_self
                                : (double)n->other_self - (double)n->self;
   double k = o->r->max_change ? fabs(own) / (double)o->r->max_change : 0;
   unsigned fade = 40 + (unsigned)(210 * (1 - (k > 1 ? 1 : k)) + 0.5) % 256;
   char a[40], b[40], c[40], line[320];
   size_t used = strlen(o->title);
   if (fade > 250)
      fade = 250;
   if (own > 0)
      snprintf(colour, size, "rgb(255,%u,%u)", fade, fade);
   else if (own < 0)
      snprintf(colour, size, "rgb(%u,%u,255)", fade, fade);
   else
      snprintf(colour, size, "rgb(250,250,250)");
   pf_commas(base, a, sizeof a);
   pf_commas(now, b, sizeof b);
   pf_commas((pr_u64)fabs(change), c, sizeof c);
   snprintf(line, sizeof line, "\nBASE %s, NEW %s, change %s%s", a, b,
            change < 0 ? "-" : change > 0 ? "+" : "", c);
   if (base)
      snprintf(line + strlen(line), sizeof line - strlen(line), " (%+.2f%%)",
               100.0 * change / (double)base);
   snprintf(o->title + used, sizeof o->title - used, "%s", line);
}

static void frame(Out *o, PF_Node *n, pr_u64 offset, int depth)
{
   xmlTextWriterPtr w = o->w;
   double x = 10 + offset * o->scale, width = n->total * o->scale;
   double y = o->height - BOTTOM - (depth + 1) * FRAME_H;
   char *name = o->name, *title = o->title, *shown = o->shown;
   char cost[40], self[40], colour[32];
   double pct = o->r->root->total ? 100.0 * n->total / o->r->root->total
                                  : 0;
   PF_Node *c;
   pr_u64 at = offset;

   if (width < o->minwidth && depth > 0)
      return;
   n->id = o->next_id++;
   pf_clean(n->name, name, sizeof o->name);
   pf_commas(n->total, cost, sizeof cost);
   pf_commas(n->self, self, sizeof self);
   snprintf(title, sizeof o->title, "%s (%s %s, %.2f%%)\nself: %s %s "
            "(%.2f%%)", name, cost, o->r->unit, pct, self, o->r->unit,
            o->r->root->total ? 100.0 * n->self / o->r->root->total : 0);
   if (n->where) {
      size_t used = strlen(title);
      snprintf(title + used, sizeof o->title - used, "\n%s",
               pf_clean(n->where, o->where, sizeof o->where));
   }
   if (o->r->diff)
      diff_frame(o, n, colour, sizeof colour);
   else
      pf_colour(n->name, colour, sizeof colour);
   fit(name, width, shown, sizeof o->shown);
   o->rc |= xmlTextWriterStartElement(w, BAD_CAST "g") < 0;
   o->rc |= xmlTextWriterWriteAttribute(w, BAD_CAST "class", BAD_CAST "f") < 0;
   o->rc |= xmlTextWriterWriteElement(w, BAD_CAST "title", BAD_CAST title) < 0;
   o->rc |= xmlTextWriterStartElement(w, BAD_CAST "rect") < 0;
   o->rc |= xmlTextWriterWriteFormatAttribute(w, BAD_CAST "x", "%.2f", x) < 0;
   o->rc |= xmlTextWriterWriteFormatAttribute(w, BAD_CAST "y", "%.1f", y) < 0;
   o->rc |= xmlTextWriterWriteFormatAttribute(w, BAD_CAST "width", "%.2f",
                                              width) < 0;
   o->rc |= xmlTextWriterWriteFormatAttribute(w, BAD_CAST "height", "%d",
                                              FRAME_H - 1) < 0;
   o->rc |= xmlTextWriterWriteAttribute(w, BAD_CAST "fill", BAD_CAST colour) < 0;
   o->rc |= xmlTextWriterWriteAttribute(w, BAD_CAST "rx", BAD_CAST "2") < 0;
   o->rc |= xmlTextWriterEndElement(w) < 0;
   o->rc |= xmlTextWriterStartElement(w, BAD_CAST "text") < 0;
   o->rc |= xmlTextWriterWriteFormatAttribute(w, BAD_CAST "x", "%.2f",
                                              x + 3) < 0;
   o->rc |= xmlTextWriterWriteFormatAttribute(w, BAD_CAST "y", "%.1f",
                                              y + FRAME_H - 4) < 0;
   o->rc |= xmlTextWriterWriteString(w, BAD_CAST shown) < 0;
   o->rc |= xmlTextWriterEndElement(w) < 0;
   o->rc |= xmlTextWriterEndElement(w) < 0;         /* g */
   for (c = n->child; c; c = c->next) {
      frame(o, c, at, depth + 1);
      at += c->total;
   }
}

/* The script: zoom, search, the URL; see the top of the file.  Frames
   are the <g class="f"> in document order (parents before children);
   each rect's first x and width are kept in its dataset. */
static const char script[] =
"(function () {\n"
"var svg = document.currentScript ? document.currentScript.closest('svg')\n"
"  : document.documentElement;\n"
"if (!svg) svg = document.querySelector('svg');\n"
"var frames = Array.prototype.slice.call(svg.querySelectorAll('g.f'));\n"
"var W = parseFloat(svg.getAttribute('width')) - 20, FW = 7.08;\n"
"var details = svg.querySelector('.details');\n"
"var matched = svg.querySelector('.matched');\n"
"var unzoom = svg.querySelector('.unzoom');\n"
"var zoomed = -1, query = '', icicle = false;\n"
"var H = parseFloat(svg.getAttribute('height')), TOP = 54, BOTTOM = 36, FH = 16;\n"
"var flip = svg.querySelector('.flip');\n"
"frames.forEach(function (g, i) {\n"
"  var r = g.querySelector('rect'), t = g.querySelector('text');\n"
"  g.dataset.x = r.getAttribute('x'); g.dataset.w = r.getAttribute('width');\n"
"  g.dataset.y = r.getAttribute('y');\n"
"  g.dataset.n = g.querySelector('title').textContent.split('\\n')[0]\n"
"    .replace(/ \\([^()]*\\)$/, '');\n"
"  g.addEventListener('click', function () { zoom(i); save(); });\n"
"  g.addEventListener('mouseover', function () {\n"
"    details.textContent = g.querySelector('title').textContent\n"
"      .split('\\n').join(' \u00b7 '); });\n"
"  g.addEventListener('mouseout', function () { details.textContent = ' '; });\n"
"});\n"
"/* The tree, from the rows: frames are in pre-order, the root lowest. */\n"
"var ys = [], parent = [], open = [];\n"
"frames.forEach(function (g, i) {\n"
"  var y = parseFloat(g.dataset.y);\n"
"  while (open.length && ys[open[open.length - 1]] <= y) open.pop();\n"
"  ys.push(y); parent.push(open.length ? open[open.length - 1] : -1); open.push(i);\n"
"});\n"
"function label(g, w) {\n"
"  var n = g.dataset.n, fits = Math.floor((w - 6) / FW);\n"
"  if (fits < 3) return '';\n"
"  return n.length <= fits ? n : n.substring(0, fits - 2) + '..';\n"
"}\n"
"function place(g, x, w) {\n"
"  var r = g.querySelector('rect'), t = g.querySelector('text');\n"
"  r.setAttribute('x', x.toFixed(2)); r.setAttribute('width', w.toFixed(2));\n"
"  t.setAttribute('x', (x + 3).toFixed(2)); t.textContent = label(g, w);\n"
"}\n"
"function zoom(i) {\n"
"  zoomed = i > 0 && i < frames.length ? i : -1;\n"
"  var z = zoomed < 0 ? null : frames[zoomed];\n"
"  var zx = z ? parseFloat(z.dataset.x) : 10, zw = z ? parseFloat(z.dataset.w) : W;\n"
"  var up = {}, end = zoomed, p;\n"
"  if (z) {\n"
"    for (p = parent[zoomed]; p >= 0; p = parent[p]) up[p] = true;\n"
"    for (end = zoomed + 1; end < frames.length && ys[end] < ys[zoomed]; end++) ;\n"
"  }\n"
"  frames.forEach(function (g, j) {\n"
"    var x = parseFloat(g.dataset.x), w = parseFloat(g.dataset.w);\n"
"    if (!z) { g.style.display = ''; g.style.opacity = ''; place(g, x, w); return; }\n"
"    if (!up[j] && (j < zoomed || j >= end)) { g.style.display = 'none'; return; }\n"
"    g.style.display = '';\n"
"    if (up[j]) { g.style.opacity = '0.5'; place(g, 10, W); return; }\n"
"    g.style.opacity = '';\n"
"    place(g, 10 + (x - zx) * W / zw, w * W / zw);\n"
"  });\n"
"  unzoom.style.opacity = z ? '1' : '0';\n"
"}\n"
"function search(re) {\n"
"  query = re || '';\n"
"  var rx = null;\n"
"  try { rx = query ? new RegExp(query) : null; } catch (e) { rx = null; }\n"
"  var spans = [];\n"
"  frames.forEach(function (g) {\n"
"    var r = g.querySelector('rect');\n"
"    if (!r.dataset.fill) r.dataset.fill = r.getAttribute('fill');\n"
"    if (rx && rx.test(g.dataset.n)) {\n"
"      r.setAttribute('fill', 'rgb(230,0,230)');\n"
"      spans.push([parseFloat(g.dataset.x), parseFloat(g.dataset.w)]);\n"
"    } else r.setAttribute('fill', r.dataset.fill);\n"
"  });\n"
"  spans.sort(function (a, b) { return a[0] - b[0]; });\n"
"  var sum = 0, end = -1;\n"
"  spans.forEach(function (s) {\n"
"    var a = Math.max(s[0], end), b = s[0] + s[1];\n"
"    if (b > a) { sum += b - a; }\n"
"    if (b > end) end = b;\n"
"  });\n"
"  matched.textContent = rx ? 'Matched: ' + (100 * sum / W).toFixed(2) + '%' : ' ';\n"
"}\n"
"function orient(ic) {\n"
"  icicle = !!ic;\n"
"  frames.forEach(function (g) {\n"
"    var y = parseFloat(g.dataset.y);\n"
"    if (icicle) y = TOP + (H - BOTTOM - FH - y);\n"
"    g.querySelector('rect').setAttribute('y', y.toFixed(1));\n"
"    g.querySelector('text').setAttribute('y', (y + FH - 4).toFixed(1));\n"
"  });\n"
"  flip.textContent = icicle ? 'Flame' : 'Icicle';\n"
"}\n"
"function save() {\n"
"  var h = [];\n"
"  if (icicle) h.push('i=1');\n"
"  if (zoomed > 0) h.push('z=' + zoomed);\n"
"  if (query) h.push('s=' + encodeURIComponent(query));\n"
"  try { history.replaceState(null, '', h.length ? '#' + h.join('&') : ' '); } catch (e) {}\n"
"}\n"
"unzoom.addEventListener('click', function () { zoom(-1); save(); });\n"
"flip.addEventListener('click', function () { orient(!icicle); save(); });\n"
"svg.querySelector('.search').addEventListener('click', function () {\n"
"  var q = prompt('Search (regular expression):', query);\n"
"  if (q !== null) { search(q); save(); }\n"
"});\n"
"(location.hash || '').replace(/^#/, '').split('&').forEach(function (kv) {\n"
"  var k = kv.split('=')[0], v = kv.substring(k.length + 1);\n"
"  if (k === 'i') orient(v === '1');\n"
"  if (k === 'z') zoom(parseInt(v, 10));\n"
"  if (k === 's') search(decodeURIComponent(v));\n"
"});\n"
"window.flamegraph = { zoom: zoom, search: search, orient: orient,\n"
"  frames: frames };\n"
"})();\n";

int pf_svg_text(xmlTextWriterPtr w, const char *cls, double x, double y,
                const char *anchor, const char *s)
{
   int rc = xmlTextWriterStartElement(w, BAD_CAST "text") < 0;
   if (cls)
      rc |= xmlTextWriterWriteAttribute(w, BAD_CAST "class", BAD_CAST cls) < 0;
   rc |= xmlTextWriterWriteFormatAttribute(w, BAD_CAST "x", "%.1f", x) < 0;
   rc |= xmlTextWriterWriteFormatAttribute(w, BAD_CAST "y", "%.1f", y) < 0;
   if (anchor)
      rc |= xmlTextWriterWriteAttribute(w, BAD_CAST "text-anchor",
                                        BAD_CAST anchor) < 0;
   rc |= xmlTextWriterWriteString(w, BAD_CAST s) < 0;
   rc |= xmlTextWriterEndElement(w) < 0;
   return rc;
}

static void text_el(Out *o, const char *cls, double x, double y,
                    const char *anchor, const char *s)
{
   o->rc |= pf_svg_text(o->w, cls, x, y, anchor, s);
}

int pf_write_svg(xmlTextWriterPtr w, const PF_Report *r, double width,
                 double minwidth, int standalone)
{
   static Out o;
   char title[4200];
   int depth = depth_of(r->root);

   memset(&o, 0, sizeof o);
   o.w = w;
   o.r = r;
   o.scale = r->root->total ? (width - 20) / (double)r->root->total : 0;
   o.minwidth = minwidth;
   o.height = TOP + depth * FRAME_H + BOTTOM;
   if (standalone)
      o.rc |= xmlTextWriterStartDocument(w, NULL, "UTF-8", NULL) < 0;
   o.rc |= xmlTextWriterStartElement(w, BAD_CAST "svg") < 0;
   o.rc |= xmlTextWriterWriteAttribute(w, BAD_CAST "xmlns",
                                       BAD_CAST "http://www.w3.org/2000/svg") < 0;
   o.rc |= xmlTextWriterWriteAttribute(w, BAD_CAST "version", BAD_CAST "1.1") < 0;
   o.rc |= xmlTextWriterWriteFormatAttribute(w, BAD_CAST "width", "%.0f",
                                             width) < 0;
   o.rc |= xmlTextWriterWriteFormatAttribute(w, BAD_CAST "height", "%.0f",
                                             o.height) < 0;
   o.rc |= xmlTextWriterWriteFormatAttribute(w, BAD_CAST "viewBox",
                                             "0 0 %.0f %.0f", width,
                                             o.height) < 0;
   o.rc |= xmlTextWriterStartElement(w, BAD_CAST "style") < 0;
   o.rc |= xmlTextWriterWriteString(w, BAD_CAST
      "svg { font-family: Verdana, sans-serif; font-size: 12px; }\n"
      "g.f text { pointer-events: none; fill: #000; }\n"
      "g.f:hover rect { stroke: #000; stroke-width: 0.5; cursor: pointer; }\n"
      ".title { font-size: 17px; }\n"
      ".unzoom, .search, .flip { cursor: pointer; }\n"
      ".unzoom { opacity: 0; }\n") < 0;
   o.rc |= xmlTextWriterEndElement(w) < 0;
   o.rc |= xmlTextWriterStartElement(w, BAD_CAST "rect") < 0;
   o.rc |= xmlTextWriterWriteAttribute(w, BAD_CAST "width", BAD_CAST "100%") < 0;
   o.rc |= xmlTextWriterWriteAttribute(w, BAD_CAST "height", BAD_CAST "100%") < 0;
   o.rc |= xmlTextWriterWriteAttribute(w, BAD_CAST "fill", BAD_CAST "#f8f8f0") < 0;
   o.rc |= xmlTextWriterEndElement(w) < 0;
   pf_clean(r->title, title, sizeof title);
   text_el(&o, "title", width / 2, 24, "middle", title);
   if (r->estimated)
      text_el(&o, "note", width / 2, 42, "middle",
              "widths estimated from the call graph (no exact call paths "
              "in the file)");
   text_el(&o, "unzoom", 10, 24, NULL, "Reset Zoom");
   text_el(&o, "search", width - 10, 24, "end", "Search");
   text_el(&o, "flip", width - 70, 24, "end", "Icicle");
   text_el(&o, "details", 10, o.height - 12, NULL, " ");
   text_el(&o, "matched", width - 10, o.height - 12, "end", " ");
   if (r->root->total > 0)
      frame(&o, r->root, 0, 0);
   o.rc |= xmlTextWriterStartElement(w, BAD_CAST "script") < 0;
   o.rc |= xmlTextWriterWriteString(w, BAD_CAST "//") < 0;
   o.rc |= xmlTextWriterStartCDATA(w) < 0;
   o.rc |= xmlTextWriterWriteString(w, BAD_CAST "\n") < 0;
   o.rc |= xmlTextWriterWriteRaw(w, BAD_CAST script) < 0;
   o.rc |= xmlTextWriterWriteRaw(w, BAD_CAST "//") < 0;
   o.rc |= xmlTextWriterEndCDATA(w) < 0;
   o.rc |= xmlTextWriterEndElement(w) < 0;          /* script */
   o.rc |= xmlTextWriterEndElement(w) < 0;          /* svg */
   if (standalone)
      o.rc |= xmlTextWriterEndDocument(w) < 0;
   return o.rc ? -1 : 0;
}
