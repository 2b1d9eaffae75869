/* test_callgrind.c: the Callgrind format and folded stacks, byte for byte.

   Copyright (C) 2026 The heapsnap/callprof developers.
   SPDX-License-Identifier: GPL-2.0-or-later */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static const char *const events3[] = { "Ir", "Dr", "Dw" };
static const char *const descs[] = {
   "I1 cache: 32768 B, 64 B, 8-way associative",
   "Trigger: Program termination",
};

static PW_CgPos P(pw_addr instr, unsigned line)
{
   PW_CgPos p;
   p.instr = instr;
   p.line = line;
   return p;
}

static void test_compressed(void)
{
   static const pw_u64 summary[] = { 100, 5, 3 };
   static const pw_u64 c1[] = { 5, 1, 0 }, c2[] = { 3, 0, 0 },
      c0[] = { 0, 0, 0 }, c3[] = { 1, 0, 1 }, c4[] = { 2, 0, 0 },
      c5[] = { 1, 0, 0 }, c6[] = { 7, 0, 0 }, inc1[] = { 40, 4, 2 },
      inc2[] = { 9, 0, 0 };
   PW_CgHeader h;
   PW_Sink s;
   MemOut m;
   char buf[64];
   PW_Cg *w;
   const char *out;

   memset(&h, 0, sizeof h);
   h.creator = "callprof-0.1";
   h.pid = 4242;
   h.cmd = "./prog arg";
   h.part = 1;
   h.desc = descs;
   h.n_desc = 2;
   h.pos_instr = 1;
   h.pos_line = 1;
   h.events = events3;
   h.n_events = 3;
   h.summary = summary;
   h.compress_strings = 1;
   h.compress_pos = 1;

   mem_init(&m, &s, buf, sizeof buf);
   w = pw_cg_begin(&s, &h);
   CHECK(w != NULL);
   if (w == NULL)
      return;
   pw_cg_function(w, "/bin/prog", "prog.c", "main");
   pw_cg_cost(w, P(0x1000, 10), c1);
   pw_cg_cost(w, P(0x1004, 11), c2);              /* relative */
   pw_cg_cost(w, P(0x1004, 11), c0);              /* "*", "0" */
   pw_cg_cost(w, P(0x1200, 9), c3);               /* 0x1fc: absolute */
   pw_cg_call(w, "libc.so", "stdio.c", "printf", 2, P(0x5000, 50),
              P(0x1208, 12), inc1);
   pw_cg_cost(w, P(0x120c, 12), c4);              /* absolute after call */
   pw_cg_cost(w, P(0x1210, 13), c5);
   pw_cg_call(w, "libc.so", "stdio.c", "never", 0, P(0x6000, 1),
              P(0x1210, 13), inc1);               /* writes nothing */
   pw_cg_call(w, "/bin/prog", "prog.c", "main", 1, P(0x1000, 10),
              P(0x1212, 13), inc2);               /* recursion: same ob/fl */
   pw_cg_jump(w, 1, 3, 5, NULL, P(0x1300, 20), P(0x1214, 14));
   pw_cg_cost(w, P(0x1218, 14), c5);              /* absolute after jump */
   pw_cg_file(w, "inl.h");
   pw_cg_cost(w, P(0x1220, 100), c6);
   pw_cg_file(w, "inl.h");                        /* no change: nothing */
   pw_cg_file(w, "prog.c");
   pw_cg_function(w, "/bin/prog", "prog.c", "main");  /* no change */
   pw_cg_function(w, "/bin/prog", "prog.c", "helper");
   pw_cg_cost(w, P(0x1400, 30), c5);
   pw_cg_function(w, "libc.so", "stdio.c", "printf");
   pw_cg_cost(w, P(0x5000, 50), inc1);
   pw_cg_call(w, "/bin/prog", "prog.c", "main", 1, P(0x1000, 10),
              P(0x5004, 51), inc2);
   pw_cg_jump(w, 0, 7, 0, "other.c", P(0x5100, 60), P(0x5008, 52));
   CHECK_LONG(pw_cg_totals(w)[0], 5 + 3 + 1 + 2 + 1 + 1 + 7 + 1 + 40);
   CHECK_LONG(pw_cg_end(w), 0);
   out = mem_str(&m, &s);
   CHECK_STR(out,
             "# callgrind format\n"
             "version: 1\n"
             "creator: callprof-0.1\n"
             "pid: 4242\n"
             "cmd: ./prog arg\n"
             "\n"
             "part: 1\n"
             "\n"
             "desc: I1 cache: 32768 B, 64 B, 8-way associative\n"
             "desc: Trigger: Program termination\n"
             "\n"
             "positions: instr line\n"
             "events: Ir Dr Dw\n"
             "summary: 100 5 3\n"
             "\n"
             "\n"
             "ob=(1) /bin/prog\n"
             "fl=(1) prog.c\n"
             "fn=(1) main\n"
             "0x1000 10 5 1 0\n"
             "+4 +1 3\n"
             "* * 0\n"
             "0x1200 -2 1 0 1\n"
             "cob=(2) libc.so\n"
             "cfi=(2) stdio.c\n"
             "cfn=(2) printf\n"
             "calls=2 0x5000 50\n"
             "0x1208 12 40 4 2\n"
             "0x120c 12 2\n"
             "+4 +1 1\n"
             "cfn=(1)\n"
             "calls=1 0x1000 10\n"
             "0x1212 13 9\n"
             "jcnd=3/5 0x1300 20\n"
             "0x1214 14\n"
             "0x1218 14 1\n"
             "fi=(3) inl.h\n"
             "+8 +86 7 0 0\n"
             "fe=(1)\n"
             "\n"
             "fn=(3) helper\n"
             "0x1400 30 1\n"
             "\n"
             "ob=(2)\n"
             "fl=(2)\n"
             "fn=(2)\n"
             "0x5000 50 40 4 2\n"
             "cob=(1)\n"
             "cfi=(1)\n"
             "cfn=(1)\n"
             "calls=1 0x1000 10\n"
             "0x5004 51 9\n"
             "jfi=other.c\n"
             "jump=7 0x5100 60\n"
             "0x5008 52\n"
             "\n"
             "totals: 61 5 3\n");
   CHECK(!has_trailing_space(out));
   CHECK(strstr(out, "never") == NULL);
   CHECK(strstr(out, "calls=0") == NULL);
   mem_free(&m);
}

/* Part 1 of pid 1, "x", positions: line, nothing compressed. */
static void line_header(PW_CgHeader *h, const char *const *ev, unsigned n,
                        const pw_u64 *summary)
{
   memset(h, 0, sizeof *h);
   h->creator = "heapsnap-0.1";
   h->pid = 1;
   h->cmd = "x";
   h->part = 1;
   h->pos_line = 1;
   h->events = ev;
   h->n_events = n;
   h->summary = summary;
}

static void test_plain(void)
{
   /* no compression at all; positions: line only; a zero summary */
   static const pw_u64 zero[] = { 0, 0 }, c1[] = { 0, 4 }, c2[] = { 6, 0 };
   static const char *const ev[] = { "Ir", "Bc" };
   PW_CgHeader h;
   PW_Sink s;
   MemOut m;
   char buf[16];
   PW_Cg *w;
   const char *out;

   line_header(&h, ev, 2, zero);
   mem_init(&m, &s, buf, sizeof buf);
   w = pw_cg_begin(&s, &h);
   CHECK(w != NULL);
   if (w == NULL)
      return;
   pw_cg_function(w, "a.out", "m.c", "main");
   pw_cg_cost(w, P(0x10, 3), c1);
   pw_cg_cost(w, P(0x11, 4), c2);
   pw_cg_file(w, "x.h");
   pw_cg_cost(w, P(0x12, 4), zero);
   pw_cg_call(w, "a.out", "m.c", "f", 3, P(0, 20), P(0, 5), c2);
   pw_cg_function(w, "a.out", "m.c", "f");
   pw_cg_cost(w, P(0, 20), c2);
   pw_cg_jump(w, 1, 0, 2, "m.c", P(0, 22), P(0, 21));
   CHECK_LONG(pw_cg_end(w), 0);
   out = mem_str(&m, &s);
   CHECK_STR(out,
             "# callgrind format\n"
             "version: 1\n"
             "creator: heapsnap-0.1\n"
             "pid: 1\n"
             "cmd: x\n"
             "\n"
             "part: 1\n"
             "\n"
             "\n"
             "positions: line\n"
             "events: Ir Bc\n"
             "summary: 0\n"
             "\n"
             "\n"
             "ob=a.out\n"
             "fl=m.c\n"
             "fn=main\n"
             "3 0 4\n"
             "4 6\n"
             "fi=x.h\n"
             "4 0\n"                     /* the summary's one column */
             "cfi=m.c\n"
             "cfn=f\n"
             "calls=3 20\n"
             "5 6\n"
             "\n"
             "fl=m.c\n"
             "fn=f\n"
             "20 6\n"
             "jcnd=0/2 22\n"
             "21\n"
             "\n"
             "totals: 12 4\n");
   CHECK(!has_trailing_space(out));
   mem_free(&m);
}

static void test_summary_width(void)
{
   /* A source file's first cost line has the summary's columns, not
      more: the summary leaves off its trailing zeros (Bi, Bim), and
      callgrind_annotate --inclusive=yes warns on a function, here main
      in inl.h, with a column the summary has not. */
   static const pw_u64 summary[] = { 9, 2, 1, 0, 0 }, c[] = { 3, 0, 0, 0, 0 };
   static const char *const ev[] = { "Ir", "Bc", "Bcm", "Bi", "Bim" };
   PW_CgHeader h;
   PW_Sink s;
   MemOut m;
   char buf[64];
   PW_Cg *w;

   line_header(&h, ev, 5, summary);
   mem_init(&m, &s, buf, sizeof buf);
   w = pw_cg_begin(&s, &h);
   CHECK(w != NULL);
   if (w == NULL)
      return;
   pw_cg_function(w, "a.out", "m.c", "main");
   pw_cg_cost(w, P(0, 5), c);
   pw_cg_cost(w, P(0, 6), c);
   pw_cg_file(w, "inl.h");
   pw_cg_cost(w, P(0, 7), c);
   CHECK_LONG(pw_cg_end(w), 0);
   CHECK_STR(mem_str(&m, &s),
             "# callgrind format\nversion: 1\ncreator: heapsnap-0.1\n"
             "pid: 1\ncmd: x\n"
             "\npart: 1\n\n\npositions: line\nevents: Ir Bc Bcm Bi Bim\n"
             "summary: 9 2 1\n\n\n"
             "ob=a.out\nfl=m.c\nfn=main\n5 3 0 0\n6 3\n"
             "fi=inl.h\n7 3 0 0\n"
             "\ntotals: 9\n");
   mem_free(&m);
}

/* A one-event ("Ir") header with a summary of 1, names compressed. */
static void ir_header(PW_CgHeader *h, int part, int pos_instr, int pos_line,
                      int compress_pos)
{
   static const pw_u64 one[] = { 1 };
   static const char *const ev[] = { "Ir" };
   memset(h, 0, sizeof *h);
   h->creator = "c";
   h->cmd = "x";
   h->part = part;
   h->pos_instr = pos_instr;
   h->pos_line = pos_line;
   h->events = ev;
   h->n_events = 1;
   h->summary = one;
   h->compress_strings = 1;
   h->compress_pos = compress_pos;
}

static void test_instr_only(void)
{
   /* positions: instr; a compressed jump's source line has no costs */
   static const pw_u64 c[] = { 1 };
   PW_CgHeader h;
   PW_Sink s;
   MemOut m;
   char buf[256];
   PW_Cg *w;

   ir_header(&h, 2, 1, 0, 1);

   mem_init(&m, &s, buf, sizeof buf);
   w = pw_cg_begin(&s, &h);
   CHECK(w != NULL);
   if (w == NULL)
      return;
   pw_cg_function(w, "o", "f", "g");
   pw_cg_cost(w, P(0x100, 0), c);
   pw_cg_cost(w, P(0x102, 0), c);
   pw_cg_jump(w, 0, 1, 0, NULL, P(0x104, 0), P(0x103, 0));
   pw_cg_cost(w, P(0x104, 0), c);
   pw_cg_cost(w, P(0x100, 0), c);
   CHECK_LONG(pw_cg_end(w), 0);
   CHECK_STR(mem_str(&m, &s),
             "# callgrind format\nversion: 1\ncreator: c\npid: 0\ncmd: x\n"
             "\npart: 2\n\n\npositions: instr\nevents: Ir\nsummary: 1\n\n\n"
             "ob=(1) o\nfl=(1) f\nfn=(1) g\n"
             "0x100 1\n+2 1\njump=1 0x104\n0x103\n0x104 1\n-4 1\n"
             "\ntotals: 4\n");
   mem_free(&m);
}

static void test_ids_per_function(void)
{
   /* One name in two objects, or two files, is two functions with two
      ids; a call or jump made from inlined code (fi=) names the callee's
      or target's file when it is not the one in force. */
   static const pw_u64 c[] = { 1 };
   PW_CgHeader h;
   PW_Sink s;
   MemOut m;
   char buf[256];
   PW_Cg *w;

   ir_header(&h, 1, 0, 1, 0);
   mem_init(&m, &s, buf, sizeof buf);
   w = pw_cg_begin(&s, &h);
   CHECK(w != NULL);
   if (w == NULL)
      return;
   pw_cg_function(w, "ld.so", "s.c", "strlen");
   pw_cg_cost(w, P(0, 1), c);
   pw_cg_function(w, "libc", "s.c", "strlen");
   pw_cg_cost(w, P(0, 1), c);
   pw_cg_function(w, "libc", "t.c", "strlen");
   pw_cg_cost(w, P(0, 1), c);
   pw_cg_function(w, "prog", "m.c", "main");
   pw_cg_file(w, "h.h");
   pw_cg_cost(w, P(0, 3), c);
   pw_cg_call(w, "prog", "m.c", "leaf", 2, P(0, 9), P(0, 3), c);
   pw_cg_call(w, "libc", "s.c", "strlen", 1, P(0, 1), P(0, 3), c);
   pw_cg_jump(w, 1, 1, 2, "m.c", P(0, 5), P(0, 3));
   pw_cg_jump(w, 1, 1, 2, "h.h", P(0, 4), P(0, 3));
   CHECK_LONG(pw_cg_end(w), 0);
   CHECK_STR(mem_str(&m, &s),
             "# callgrind format\nversion: 1\ncreator: c\npid: 0\ncmd: x\n"
             "\npart: 1\n\n\npositions: line\nevents: Ir\nsummary: 1\n\n\n"
             "ob=(1) ld.so\nfl=(1) s.c\nfn=(1) strlen\n1 1\n"
             "\nob=(2) libc\nfn=(2) strlen\n1 1\n"
             "\nfl=(2) t.c\nfn=(3) strlen\n1 1\n"
             "\nob=(3) prog\nfl=(3) m.c\nfn=(4) main\n"
             "fi=(4) h.h\n3 1\n"
             "cfi=(3)\ncfn=(5) leaf\ncalls=2 9\n3 1\n"
             "cob=(2)\ncfi=(1)\ncfn=(2)\ncalls=1 1\n3 1\n"
             "jfi=(3)\njcnd=1/2 5\n3\n"
             "jcnd=1/2 4\n3\n"
             "\ntotals: 4\n");
   mem_free(&m);
}

static void test_cob_again(void)
{
   /* A call into the current object right after a call into another one,
      with no cost line between: cob= names the current object again
      (gprof2dot keeps a cob= until the next cost line). */
   static const pw_u64 c[] = { 1 };
   PW_CgHeader h;
   PW_Sink s;
   MemOut m;
   char buf[256];
   PW_Cg *w;

   ir_header(&h, 1, 0, 1, 0);

   mem_init(&m, &s, buf, sizeof buf);
   w = pw_cg_begin(&s, &h);
   CHECK(w != NULL);
   if (w == NULL)
      return;
   pw_cg_function(w, "prog", "p.c", "main");
   pw_cg_cost(w, P(0, 3), c);
   pw_cg_call(w, "libc", "io.c", "printf", 1, P(0, 9), P(0, 4), c);
   pw_cg_call(w, "prog", "p.c", "work", 2, P(0, 20), P(0, 5), c);
   pw_cg_call(w, "prog", "p.c", "work", 1, P(0, 20), P(0, 6), c);
   pw_cg_cost(w, P(0, 7), c);
   pw_cg_call(w, "prog", "p.c", "work", 1, P(0, 20), P(0, 8), c);
   CHECK_LONG(pw_cg_end(w), 0);
   CHECK_STR(mem_str(&m, &s),
             "# callgrind format\nversion: 1\ncreator: c\npid: 0\ncmd: x\n"
             "\npart: 1\n\n\npositions: line\nevents: Ir\nsummary: 1\n\n\n"
             "ob=(1) prog\nfl=(1) p.c\nfn=(1) main\n3 1\n"
             "cob=(2) libc\ncfi=(2) io.c\ncfn=(2) printf\ncalls=1 9\n4 1\n"
             "cob=(1)\ncfn=(3) work\ncalls=2 20\n5 1\n"
             "cfn=(3)\ncalls=1 20\n6 1\n"
             "7 1\n"
             "cfn=(3)\ncalls=1 20\n8 1\n"
             "\ntotals: 2\n");
   mem_free(&m);
}

static void test_many_names(void)
{
   /* The name table grows several times and its copies fill several
      chunks (one name longer than a chunk): every id stays the one its
      name got first, in the order of first use. */
   static const pw_u64 c[] = { 1 };
   enum { N = 3000, LONG = 70000 };
   PW_CgHeader h;
   PW_Sink s;
   MemOut m;
   char buf[256], name[32], want[64];
   char *longname = malloc(LONG + 1);
   const char *out;
   PW_Cg *w;
   int i;

   CHECK(longname != NULL);
   if (longname == NULL)
      return;
   memset(longname, 'x', LONG);
   longname[LONG] = '\0';
   ir_header(&h, 1, 0, 1, 0);
   mem_init(&m, &s, buf, sizeof buf);
   w = pw_cg_begin(&s, &h);
   CHECK(w != NULL);
   if (w == NULL) {
      free(longname);
      return;
   }
   for (i = 0; i < N; i++) {
      snprintf(name, sizeof name, "f%d", i);
      pw_cg_function(w, "prog", "p.c", name);
      pw_cg_cost(w, P(0, 1), c);
      if (i == N / 2) {
         pw_cg_function(w, "prog", "p.c", longname);
         pw_cg_cost(w, P(0, 1), c);
      }
   }
   pw_cg_call(w, "prog", "p.c", "f0", 1, P(0, 2), P(0, 3), c);
   pw_cg_call(w, "prog", "p.c", longname, 1, P(0, 2), P(0, 4), c);
   CHECK_LONG(pw_cg_end(w), 0);
   out = mem_str(&m, &s);
   snprintf(want, sizeof want, "\nfn=(%d) f%d\n", N + 1, N - 1);
   CHECK(strstr(out, want) != NULL);
   snprintf(want, sizeof want, "\nfn=(%d) xxx", N / 2 + 2);
   CHECK(strstr(out, want) != NULL);
   CHECK(strstr(out, "\ncfn=(1)\ncalls=1 2\n3 1\n") != NULL);
   snprintf(want, sizeof want, "\ncfn=(%d)\ncalls=1 2\n4 1\n", N / 2 + 2);
   CHECK(strstr(out, want) != NULL);
   mem_free(&m);
   free(longname);
}

void test_callgrind(void)
{
   test_many_names();
   test_compressed();
   test_plain();
   test_summary_width();
   test_instr_only();
   test_cob_again();
   test_ids_per_function();
}

void test_folded(void)
{
   static const char *const frames[] = { "main", "a;b", "c\nd\re", "op new" };
   static const char *const one[] = { "main" };
   PW_Sink s;
   MemOut m;
   char buf[8];

   mem_init(&m, &s, buf, sizeof buf);
   pw_folded(&s, frames, 4, 4096);
   pw_folded(&s, one, 1, 0);
   pw_folded(&s, frames, 0, 5);                   /* nothing */
   CHECK_STR(mem_str(&m, &s), "main;a:b;c d e;op new 4096\nmain 0\n");
   mem_free(&m);
}
