/* test_profreader.c: the reader's rules, each on a small file written
   here, as KCachegrind, ms_print and flamegraph.pl read the same text.

   Copyright (C) 2026 The heapsnap/callprof developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   Prints one line per failed check, then "unit: N checks, N failed". */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "profreader.h"

/* TEXT read by a stream fed pieces of SIZE bytes. */
static PR_Callgrind *in_pieces(const char *text, size_t size, unsigned flags,
                               PR_Error *err)
{
   PR_CgStream *s = pr_cg_stream_new("t.out", flags, err);
   size_t len = strlen(text), at;
   for (at = 0; at < len; at += size)
      pr_cg_stream_feed(s, text + at, len - at < size ? len - at : size);
   return pr_cg_stream_end(s);
}

static int same_costs(const pr_u64 *a, const pr_u64 *b, int n)
{
   return memcmp(a, b, (size_t)n * sizeof *a) == 0;
}

static int same_str(const char *a, const char *b)
{
   return a == b || (a && b && strcmp(a, b) == 0);
}

static int same_fn(const PR_Fn *a, const PR_Fn *b, int ne)
{
   return strcmp(a->name, b->name) == 0 && strcmp(a->file, b->file) == 0 &&
          strcmp(a->obj, b->obj) == 0 && same_costs(a->self, b->self, ne);
}

/* Whether two readings of one file give the same model, every field. */
static int same_model(const PR_Callgrind *a, const PR_Callgrind *b)
{
   size_t i;
   int k, ne = a->n_events;
   if (a->n_events != b->n_events || a->n_pos != b->n_pos ||
       a->n_parts != b->n_parts || a->n_fns != b->n_fns ||
       a->n_lines != b->n_lines || a->n_calls != b->n_calls ||
       a->n_jumps != b->n_jumps || a->n_conflicts != b->n_conflicts ||
       a->has_summary != b->has_summary || a->has_totals != b->has_totals ||
       !same_str(a->cmd, b->cmd) || !same_str(a->creator, b->creator) ||
       !same_str(a->desc, b->desc) || !same_costs(a->sum, b->sum, ne) ||
       !same_costs(a->summary, b->summary, ne) ||
       !same_costs(a->totals, b->totals, ne))
      return 0;
   for (k = 0; k < ne; k++)
      if (strcmp(a->events[k], b->events[k]) != 0)
         return 0;
   for (k = 0; k < a->n_pos; k++)
      if (strcmp(a->pos_names[k], b->pos_names[k]) != 0)
         return 0;
   for (i = 0; i < a->n_fns; i++)
      if (!same_fn(a->fns[i], b->fns[i], ne))
         return 0;
   for (i = 0; i < a->n_lines; i++)
      if (!same_fn(a->lines[i].fn, b->lines[i].fn, ne) ||
          strcmp(a->lines[i].file, b->lines[i].file) != 0 ||
          memcmp(&a->lines[i].pos, &b->lines[i].pos, sizeof(PR_Pos)) ||
          !same_costs(a->lines[i].cost, b->lines[i].cost, ne))
         return 0;
   for (i = 0; i < a->n_calls; i++)
      if (!same_fn(a->calls[i].caller, b->calls[i].caller, ne) ||
          !same_fn(a->calls[i].callee, b->calls[i].callee, ne) ||
          !same_str(a->calls[i].file, b->calls[i].file) ||
          memcmp(&a->calls[i].pos, &b->calls[i].pos, sizeof(PR_Pos)) ||
          a->calls[i].calls != b->calls[i].calls ||
          !same_costs(a->calls[i].incl, b->calls[i].incl, ne))
         return 0;
   for (i = 0; i < a->n_jumps; i++)
      if (!same_fn(a->jumps[i].fn, b->jumps[i].fn, ne) ||
          strcmp(a->jumps[i].file, b->jumps[i].file) != 0 ||
          strcmp(a->jumps[i].to_file, b->jumps[i].to_file) != 0 ||
          memcmp(&a->jumps[i].pos, &b->jumps[i].pos, sizeof(PR_Pos)) ||
          memcmp(&a->jumps[i].to, &b->jumps[i].to, sizeof(PR_Pos)) ||
          a->jumps[i].cond != b->jumps[i].cond ||
          a->jumps[i].followed != b->jumps[i].followed ||
          a->jumps[i].executed != b->jumps[i].executed)
         return 0;
   for (i = 0; i < a->n_conflicts; i++)
      if (strcmp(a->conflicts[i], b->conflicts[i]) != 0)
         return 0;
   return 1;
}

/* What PR_CG_CALL_GRAPH keeps of the whole model W: the functions, the
   sums, each (caller, callee) pair's calls and inclusive cost. */
static int same_call_graph(const PR_Callgrind *w, const PR_Callgrind *g)
{
   size_t i, j;
   int ne = w->n_events;
   if (g->n_lines != 0 || g->n_jumps != 0 || w->n_fns != g->n_fns ||
       w->n_events != g->n_events || !same_costs(w->sum, g->sum, ne) ||
       w->n_conflicts != g->n_conflicts)
      return 0;
   for (i = 0; i < w->n_fns; i++)
      if (!same_fn(w->fns[i], g->fns[i], ne))
         return 0;
   for (j = 0; j < g->n_calls; j++) {
      const PR_Call *c = &g->calls[j];
      pr_u64 calls = 0, incl[8] = { 0 };
      int k;
      if (c->file != NULL || c->pos.v[0] != 0 || c->pos.v[1] != 0)
         return 0;
      for (i = 0; i < w->n_calls; i++)
         if (same_fn(w->calls[i].caller, c->caller, ne) &&
             same_fn(w->calls[i].callee, c->callee, ne)) {
            calls += w->calls[i].calls;
            for (k = 0; k < ne && k < 8; k++)
               incl[k] += w->calls[i].incl[k];
         }
      if (calls != c->calls || !same_costs(incl, c->incl, ne < 8 ? ne : 8))
         return 0;
   }
   return 1;
}

/* TEXT read whole; read in pieces of a few sizes, the same model, and
   read for its call graph alone, the same functions and arcs. */
static PR_Callgrind *cg(const char *text)
{
   static const size_t sizes[] = { 1, 2, 3, 7, 64 };
   PR_Error err = { 0, "" };
   PR_Callgrind *p = pr_cg_parse(text, strlen(text), "t.out", &err), *q;
   size_t i;
   if (p == NULL) {
      printf("unexpected error: %s\n", err.text);
      return NULL;
   }
   for (i = 0; i < sizeof sizes / sizeof *sizes; i++) {
      q = in_pieces(text, sizes[i], 0, &err);
      CHECK(q != NULL && same_model(p, q));
      pr_cg_free(q);
      q = in_pieces(text, sizes[i], PR_CG_CALL_GRAPH, &err);
      CHECK(q != NULL && same_call_graph(p, q));
      pr_cg_free(q);
   }
   return p;
}

/* The error of a file that must be refused ("" if it was not); the
   same error when it comes in pieces. */
static const char *cg_error(const char *text)
{
   static PR_Error err;
   PR_Error e2;
   PR_Callgrind *p;
   size_t size;
   memset(&err, 0, sizeof err);
   p = pr_cg_parse(text, strlen(text), "t.out", &err);
   for (size = 1; size <= 5; size += 4) {
      PR_Callgrind *q;
      memset(&e2, 0, sizeof e2);
      q = in_pieces(text, size, 0, &e2);
      CHECK((q == NULL) == (p == NULL));
      CHECK_STR(e2.text, err.text);
      pr_cg_free(q);
   }
   if (p != NULL) {
      pr_cg_free(p);
      return "";
   }
   return err.text;
}

static PR_Fn *fn(PR_Callgrind *p, const char *name, const char *obj)
{
   size_t i;
   for (i = 0; i < p->n_fns; i++)
      if (strcmp(p->fns[i]->name, name) == 0 &&
          strcmp(p->fns[i]->obj, obj) == 0)
         return p->fns[i];
   return NULL;
}

static PR_Call *call(PR_Callgrind *p, const char *caller, const char *callee)
{
   size_t i;
   for (i = 0; i < p->n_calls; i++)
      if (strcmp(p->calls[i].caller->name, caller) == 0 &&
          strcmp(p->calls[i].callee->name, callee) == 0)
         return &p->calls[i];
   return NULL;
}

#define HEAD "# callgrind format\nversion: 1\npositions: line\nevents: Ir\n"

/* Ids, their scopes and what a function is. */
static void test_names(void)
{
   PR_Callgrind *p = cg(HEAD
      "ob=(1) /bin/prog\n"
      "fl=(1) m.c\n"
      "fn=(1) main\n"
      "3 10\n"
      "cob=(2) /lib/libc.so\n"
      "cfi=(2) s.c\n"
      "cfn=(2) strlen\n"
      "calls=2 0\n"
      "4 30\n"
      "ob=(2)\n"
      "fl=(2)\n"
      "fn=(2)\n"
      "7 30\n"
      "ob=(1)\n"
      "fl=(1)\n"
      "fn=(3) strlen\n"          /* another strlen: the program's own */
      "9 5\n");
   PR_Fn *m, *s1, *s2;
   if (p == NULL)
      return;
   m = fn(p, "main", "/bin/prog");
   s1 = fn(p, "strlen", "/lib/libc.so");
   s2 = fn(p, "strlen", "/bin/prog");
   CHECK(m != NULL && s1 != NULL && s2 != NULL);
   CHECK_LONG(p->n_fns, 3);
   if (m && s1 && s2) {
      CHECK_LONG(m->self[0], 10);
      CHECK_LONG(s1->self[0], 30);
      CHECK_LONG(s2->self[0], 5);
      CHECK_STR(s1->file, "s.c");
      CHECK_STR(s2->file, "m.c");
   }
   CHECK_LONG(p->sum[0], 45);
   CHECK_LONG(p->n_conflicts, 0);
   CHECK(call(p, "main", "strlen") != NULL &&
         call(p, "main", "strlen")->callee == s1);
   pr_cg_free(p);
}

/* A call's site: the current source file (fi=), the line after calls=,
   which also moves the position; cfn= without cfi= is in the current
   source file; cob=/cfi= hold for one call only. */
static void test_calls(void)
{
   PR_Callgrind *p = cg(HEAD
      "ob=(1) prog\n"
      "fl=(1) m.c\n"
      "fn=(1) main\n"
      "10 1\n"
      "fi=(2) h.h\n"
      "+28 2\n"                  /* h.h:38 */
      "cfn=(2) leaf\n"           /* leaf in h.h (no cfi=) */
      "calls=3 +2\n"
      "* 40\n"                   /* call site h.h:38 */
      "+1 4\n"                   /* h.h:39 self */
      "fe=(1)\n"
      "cob=(2) libc\n"
      "cfi=(3) x.c\n"
      "cfn=(3) exit\n"
      "calls=1 0\n"
      "-29 7\n"                  /* m.c:10 */
      "cfi=(2)\n"
      "cfn=(2)\n"                /* leaf again, cob= no longer holds */
      "calls=1 0\n"
      "12 9\n");
   PR_Call *c;
   size_t i;
   int found = 0;
   if (p == NULL)
      return;
   c = call(p, "main", "exit");
   CHECK(c != NULL);
   if (c) {
      CHECK_STR(c->file, "m.c");
      CHECK_LONG(c->pos.v[0], 10);
      CHECK_STR(c->callee->obj, "libc");
      CHECK_STR(c->callee->file, "x.c");
      CHECK_LONG(c->incl[0], 7);
   }
   for (i = 0; i < p->n_calls; i++) {
      c = &p->calls[i];
      if (strcmp(c->callee->name, "leaf") != 0)
         continue;
      CHECK_STR(c->callee->obj, "prog");
      CHECK_STR(c->callee->file, "h.h");
      if (strcmp(c->file, "h.h") == 0 && c->pos.v[0] == 38) {
         CHECK_LONG(c->calls, 3);
         CHECK_LONG(c->incl[0], 40);
         found++;
      } else if (strcmp(c->file, "m.c") == 0 && c->pos.v[0] == 12) {
         CHECK_LONG(c->calls, 1);
         found++;
      }
   }
   CHECK_LONG(found, 2);
   /* Self cost: 1 + 2 + 4; call lines are not self cost. */
   CHECK_LONG(fn(p, "main", "prog")->self[0], 7);
   for (i = 0; i < p->n_lines; i++)
      if (strcmp(p->lines[i].file, "h.h") == 0 && p->lines[i].pos.v[0] == 39)
         CHECK_LONG(p->lines[i].cost[0], 4);
   CHECK_LONG(p->n_conflicts, 0);
   pr_cg_free(p);
}

/* Jumps: jcnd= counts are followed/executed; the target is relative to
   the current position and does not move it; jfi= names the target's
   file for one jump. */
static void test_jumps(void)
{
   PR_Callgrind *p = cg("positions: instr line\nevents: Ir\n"
      "fl=(1) a.c\n"
      "fn=(1) f\n"
      "0x100 5 1\n"
      "jcnd=3/7 +0x10 +2\n"      /* target 0x110 line 7 */
      "+4 * \n"                  /* from 0x104 line 5 */
      "jfi=(2) b.c\n"
      "jump=2 +0x20 +10\n"       /* from 0x104: target 0x124 line 15 */
      "* *\n"
      "+4 +1 6\n");              /* 0x108 line 6: self 6 */
   size_t i;
   if (p == NULL)
      return;
   CHECK_LONG(p->n_jumps, 2);
   for (i = 0; i < p->n_jumps; i++) {
      PR_Jump *j = &p->jumps[i];
      CHECK_LONG(j->pos.v[0], 0x104);
      CHECK_LONG(j->pos.v[1], 5);
      if (j->cond) {
         CHECK_LONG(j->followed, 3);
         CHECK_LONG(j->executed, 7);
         CHECK_LONG(j->to.v[0], 0x110);
         CHECK_LONG(j->to.v[1], 7);
         CHECK_STR(j->to_file, "a.c");
      } else {
         CHECK_LONG(j->followed, 2);
         CHECK_LONG(j->to.v[0], 0x124);
         CHECK_LONG(j->to.v[1], 15);
         CHECK_STR(j->to_file, "b.c");
      }
   }
   CHECK_LONG(p->n_lines, 2);
   CHECK_LONG(p->sum[0], 7);
   for (i = 0; i < p->n_lines; i++)
      if (p->lines[i].cost[0] == 6) {
         CHECK_LONG(p->lines[i].pos.v[0], 0x108);
         CHECK_LONG(p->lines[i].pos.v[1], 6);
      }
   pr_cg_free(p);
}

/* Lines at the same place add up; missing costs are 0; ids end with
   their part; an id used where its object is not in force is a
   conflict; so is an id redefined under another name. */
static void test_parts_and_conflicts(void)
{
   PR_Callgrind *p = cg("positions: line\nevents: Ir Dr\n"
      "ob=(1) a\nfl=(1) f.c\nfn=(1) g\n"
      "5 1 2\n5 3\n"
      "part: 2\n"
      "events: Ir Dr\n"
      "ob=(1) b\nfl=(1) f.c\nfn=(1) g\n"   /* ids start again: b's g */
      "5 4 4\n");
   size_t i;
   if (p == NULL)
      return;
   CHECK_LONG(p->n_fns, 2);
   CHECK_LONG(p->n_parts, 2);
   CHECK_LONG(fn(p, "g", "a")->self[0], 4);
   CHECK_LONG(fn(p, "g", "a")->self[1], 2);
   CHECK_LONG(fn(p, "g", "b")->self[0], 4);
   for (i = 0; i < p->n_lines; i++)
      if (p->lines[i].fn == fn(p, "g", "a"))
         CHECK_LONG(p->lines[i].cost[0], 4);
   CHECK_LONG(p->n_conflicts, 0);
   pr_cg_free(p);

   p = cg(HEAD "ob=(1) a\nfl=(1) f.c\nfn=(1) g\n1 1\n"
          "ob=(2) b\nfn=(1)\n2 2\n"            /* a's g used in b */
          "fn=(1) h\n3 3\n");                  /* (1) redefined */
   if (p == NULL)
      return;
   CHECK_LONG(p->n_conflicts, 2);
   pr_cg_free(p);

   /* A file name longer than a conflict's message is cut, not overrun. */
   {
      static const char text[] = HEAD "ob=(1) a\nfl=(1) f.c\nfn=(1) g\n1 1\n"
                                 "ob=(2) b\nfn=(1)\n2 2\n";
      char name[3000];
      PR_Error err = { 0, "" };
      memset(name, 'x', sizeof name - 1);
      name[sizeof name - 1] = '\0';
      p = pr_cg_parse(text, strlen(text), name, &err);
      CHECK(p != NULL);
      if (p != NULL) {
         CHECK_LONG(p->n_conflicts, 1);
         CHECK(strncmp(p->conflicts[0], "xxxx", 4) == 0);
      }
      pr_cg_free(p);
   }
}

/* Bad files are refused with the file and line, never a crash. */
static void test_bad(void)
{
   static const char *bad[] = {
      "",
      "fn=main\n1 1\n",                        /* costs before events: */
      HEAD "1 1\n",                            /* costs before fn= */
      HEAD "fn=(1)\n",                         /* id never defined */
      HEAD "fn=(1 main\n",
      HEAD "fn=main\ncfn=f\ncalls=1 0\n",      /* file ends after calls= */
      HEAD "fn=main\ncalls=1 0\n1 1\n",        /* calls= without cfn= */
      HEAD "fn=main\n1 1 1\n",                 /* more costs than events */
      HEAD "fn=main\n1 x\n",
      HEAD "fn=main\n99999999999999999999999 1\n",
      HEAD "fn=main\njcnd=1 0\n1\n",
      HEAD "fn=main\nbogus=1\n",
      "positions: line bogus\nevents: Ir\n",
      /* Found by fuzz/fuzz_callgrind: a function made before the events
         had no room for their costs; jfn= before fn= was refused
         without saying why. */
      "fn=main\nevents: Ir Dr\n1 1 2\n",
      "events: Ir\njfn=f\n",
   };
   size_t i;
   for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
      const char *e = cg_error(bad[i]);
      CHECK(strncmp(e, "t.out", 5) == 0);
   }
   CHECK(strstr(cg_error(HEAD "fn=main\n1 1\nbogus=1\n"), "t.out:7:") != NULL);
   CHECK_STR(cg_error("fn=main\nevents: Ir Dr\n1 1 2\n"),
             "t.out:1: fn= before the events: line");
   CHECK_STR(cg_error("events: Ir\njfn=f\n"), "t.out:2: jfn= before any fn= line");
   /* Every prefix of a good file: an error or a model, no crash. */
   {
      const char *good = HEAD "ob=(1) a\nfl=(1) f.c\nfn=(1) g\n5 1\n"
                         "cfn=(2) h\ncalls=1 +3\n+1 7\njcnd=1/2 -1\n* \n";
      size_t n, len = strlen(good);
      for (n = 0; n <= len; n++) {
         char *copy = malloc(n ? n : 1);
         PR_Error err = { 0, "" };
         PR_Callgrind *p;
         memcpy(copy, good, n);
         p = pr_cg_parse(copy, n, "cut", &err);
         CHECK(p != NULL || err.set);
         pr_cg_free(p);
         free(copy);
      }
   }
}

/* "\r\n" ends a line as "\n" does, even when a piece ends between the
   two (cg() reads it a byte at a time too); so does the file's end. */
static void test_line_ends(void)
{
   PR_Callgrind *a = cg(HEAD "fn=main\n1 5\ncfn=f\ncalls=2 9\n1 3\n"
                        "fn=f\n9 3\n");
   PR_Callgrind *b = cg("# callgrind format\r\nversion: 1\r\n"
                        "positions: line\r\nevents: Ir\r\nfn=main\r\n"
                        "1 5\r\ncfn=f\r\ncalls=2 9\r\n1 3\r\nfn=f\r\n9 3");
   CHECK(a != NULL && b != NULL && same_model(a, b));
   if (b) {
      CHECK_LONG(b->n_calls, 1);
      CHECK_LONG(b->sum[0], 8);
   }
   pr_cg_free(a);
   pr_cg_free(b);
}

/*------------------------------------------------------------------*/

static const char massif_file[] =
   "desc: --heap-admin=8\n"
   "cmd: ./prog\n"
   "time_unit: i\n"
   "#-----------\nsnapshot=0\n#-----------\n"
   "time=0\nmem_heap_B=0\nmem_heap_extra_B=0\nmem_stacks_B=0\n"
   "heap_tree=empty\n"
   "#-----------\nsnapshot=1\n#-----------\n"
   "time=100\nmem_heap_B=1000\nmem_heap_extra_B=16\nmem_stacks_B=0\n"
   "heap_tree=peak\n"
   "n2: 1000 (heap allocation functions) malloc/new/new[], --alloc-fns, etc.\n"
   " n1: 600 0x4005F2: make (prog.c:12)\n"
   "  n0: 600 0x400610: main (prog.c:30)\n"
   " n0: 400 in 3 places, all below massif's threshold (1.00%)\n";

static void test_ms_reader(void)
{
   PR_Error err = { 0, "" };
   PR_Massif *m = pr_ms_parse(massif_file, strlen(massif_file), "m.out", &err);
   char *bad;
   CHECK(m != NULL);
   if (m == NULL) {
      printf("%s\n", err.text);
      return;
   }
   CHECK_LONG(m->n_snaps, 2);
   CHECK_STR(m->time_unit, "i");
   CHECK_STR(m->cmd, "./prog");
   CHECK_LONG(m->snaps[1].time, 100);
   CHECK_LONG(m->snaps[1].extra, 16);
   CHECK(m->snaps[1].kind == PR_TREE_PEAK);
   CHECK_LONG(m->snaps[1].n_nodes, 4);
   CHECK_LONG(m->snaps[1].nodes[2].depth, 2);
   CHECK_LONG(m->snaps[1].nodes[3].depth, 1);
   CHECK_LONG(m->snaps[1].nodes[3].bytes, 400);
   CHECK_STR(pr_ms_strip_addr(m->snaps[1].nodes[2].text), "main (prog.c:30)");
   CHECK_STR(pr_ms_strip_addr(m->snaps[1].nodes[3].text),
             "in 3 places, all below massif's threshold (1.00%)");
   pr_ms_free(m);

   /* A child count that the lines do not bear out. */
   bad = strdup(massif_file);
   memcpy(strstr(bad, " n1: 600"), " n2: 600", 8);
   memset(&err, 0, sizeof err);
   m = pr_ms_parse(bad, strlen(bad), "m.out", &err);
   CHECK(m == NULL && strstr(err.text, "m.out:") != NULL);
   pr_ms_free(m);
   free(bad);
   /* Found by fuzz/fuzz_massif: a snapshot whose kind and tree disagree
      (a second heap_tree=, or peak with no tree before the next
      snapshot) was taken. */
   {
      static const char *two = "time_unit: i\nsnapshot=0\nheap_tree=detailed\n"
                               "n0: 5 x\nheap_tree=empty\n";
      static const char *bare = "time_unit: i\nsnapshot=0\nheap_tree=peak\n"
                                "snapshot=1\nheap_tree=empty\n";
      memset(&err, 0, sizeof err);
      m = pr_ms_parse(two, strlen(two), "m.out", &err);
      CHECK(m == NULL);
      CHECK_STR(err.text, "m.out:5: a second heap_tree= in one snapshot");
      pr_ms_free(m);
      memset(&err, 0, sizeof err);
      m = pr_ms_parse(bare, strlen(bare), "m.out", &err);
      CHECK(m == NULL);
      CHECK_STR(err.text, "m.out:4: heap_tree=detailed or peak without its tree");
      pr_ms_free(m);
   }
   /* Every prefix: a model or an error. */
   {
      size_t n, len = strlen(massif_file);
      for (n = 0; n <= len; n++) {
         PR_Error e = { 0, "" };
         PR_Massif *x = pr_ms_parse(massif_file, n, "cut", &e);
         CHECK(x != NULL || e.set);
         pr_ms_free(x);
      }
   }
}

static void test_folded_and_detect(void)
{
   static const char text[] = "main;f 10\nmain;g h 5\nmain;f 2\n";
   PR_Error err = { 0, "" };
   PR_Folded *f = pr_fold_parse(text, strlen(text), "f", &err);
   CHECK(f != NULL);
   if (f) {
      CHECK_LONG(f->n_stacks, 2);
      CHECK_STR(f->stacks[0].stack, "main;f");
      CHECK_LONG(f->stacks[0].count, 12);
      CHECK_STR(f->stacks[1].stack, "main;g h");
   }
   pr_fold_free(f);
   f = pr_fold_parse("main;f\n", 7, "f", &err);
   CHECK(f == NULL && strncmp(err.text, "f:1:", 4) == 0);

   CHECK(pr_detect(massif_file, strlen(massif_file)) == PR_MASSIF);
   CHECK(pr_detect(HEAD, strlen(HEAD)) == PR_CALLGRIND);
   CHECK(pr_detect(text, strlen(text)) == PR_FOLDED);
   CHECK(pr_detect("hello\n", 6) == PR_UNKNOWN);
}

int main(void)
{
   test_names();
   test_calls();
   test_jumps();
   test_parts_and_conflicts();
   test_bad();
   test_line_ends();
   test_ms_reader();
   test_folded_and_detect();
   printf("unit: %u checks, %u failed\n", check_count, check_failed);
   return check_failed ? 1 : 0;
}
