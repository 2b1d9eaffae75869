/* pw_callgrind.c: the Callgrind profile format.

   Copyright (C) 2026 The heapsnap/callprof developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   callprof (and heapsnap's call-tree output) write what Callgrind 3.19
   writes, read by callgrind_annotate, KCachegrind, speedscope and
   gprof2dot.  Those readers disagree on corners of the format, so this
   writer stays inside what they all accept:

     - one part per file, the header in Callgrind's order, "events:" its
       last line (callgrind_annotate);
     - name compression "(id) name" then "(id)", each id defined once, in
       three id spaces: objects (ob= cob=), files (fl= fi= fe= cfi= jfi=)
       and functions (fn= cfn= jfn=).  A function id stands for one
       function, (object, file, name), as Callgrind's fn_node: readers
       bind an id to the object and file in force where it is defined
       (KCachegrind keys functions by all three), so two functions of one
       name in two objects (strlen in ld.so and in libc) get two ids;
     - cob=/cfi= (jfi=) whenever the callee's (target's) object or file
       differs from the one in force, fi=/fe= included: a call made from
       inlined code of h.h to a function of m.c names m.c;
     - no calls=0 (callgrind_annotate takes the next line as self cost);
     - jcnd=FOLLOWED/EXECUTED with the slash (KCachegrind);
     - no trailing space anywhere (speedscope);
     - position compression ("+N", "-N", "*") only between cost lines:
       readers differ on whether a calls=/jump= line is the "previous"
       line, so the target of a call or jump is always absolute, and so is
       every position after it up to and including the next cost line.

   Each name is interned in a string table (open addressing, names copied)
   whether or not compression is on: the id is both what compression
   prints and how "did the object/file/function change?" is decided.
   The table is most of what writing a file costs in memory, at a
   tool's exit, when the run's own data is largest (python3 under
   callprof: 40,574 functions), so its slots are 24 bytes, it fills to
   three quarters, and the names are copied end to end into 64 KB
   chunks, without a heap block each. */

#include "pw_platform.h"

/* ------------------------------------------------------------------ */
/* String tables                                                       */
/* ------------------------------------------------------------------ */

typedef struct {
   char     *str;        /* NULL: empty slot; the key (see fn_key) */
   unsigned  shown;      /* how much of it is the name written */
   unsigned  hash;
   unsigned  id;         /* 1, 2, ... */
   unsigned  defined;    /* "(id) name" written */
} CgName;

/* The names' copies: chunks of CG_CHUNK bytes (a longer name gets one
   of its own), each starting with a pointer to the one before. */
#define CG_CHUNK 65536
typedef struct {
   CgName   *slots;
   unsigned  cap;        /* a power of two */
   unsigned  n;
   char     *chunk;      /* the newest chunk, NULL: none */
   size_t    used, size; /* of the newest chunk */
} CgTable;

/* LEN bytes for a name's copy, or NULL. */
static char *table_store(CgTable *t, size_t len)
{
   char *p;
   if (t->chunk == NULL || t->size - t->used < len) {
      size_t size = sizeof(char *) + (len > CG_CHUNK ? len : CG_CHUNK);
      char *c = PW_MALLOC("pw.cg.store.1", size);
      if (c == NULL)
         return NULL;
      PW_MEMCPY(c, &t->chunk, sizeof(char *));
      t->chunk = c;
      t->used = sizeof(char *);
      t->size = size;
   }
   p = t->chunk + t->used;
   t->used += len;
   return p;
}

static unsigned str_hash(const char *s)
{
   unsigned h = 2166136261u;            /* FNV-1a */
   while (*s != '\0') {
      h ^= (unsigned char)*s++;
      h *= 16777619u;
   }
   return h;
}

static int table_grow(CgTable *t)
{
   unsigned cap = t->cap ? t->cap * 2 : 64, i;
   CgName *slots = PW_MALLOC("pw.cg.table_grow.1", cap * sizeof *slots);

   if (slots == NULL)
      return 0;
   PW_MEMSET(slots, 0, cap * sizeof *slots);
   for (i = 0; i < t->cap; i++) {
      CgName *e = &t->slots[i];
      unsigned j;
      if (e->str == NULL)
         continue;
      j = e->hash & (cap - 1);
      while (slots[j].str != NULL)
         j = (j + 1) & (cap - 1);
      slots[j] = *e;
   }
   PW_FREE(t->slots);
   t->slots = slots;
   t->cap = cap;
   return 1;
}

/* The entry for NAME, added with the next id if new; NULL if out of
   memory. */
static CgName *table_intern(CgTable *t, const char *name)
{
   unsigned h = str_hash(name), j;
   size_t len;
   CgName *e;

   if (t->cap != 0) {
      for (j = h & (t->cap - 1); t->slots[j].str != NULL;
           j = (j + 1) & (t->cap - 1)) {
         e = &t->slots[j];
         if (e->hash == h && PW_STRCMP(e->str, name) == 0)
            return e;
      }
   }
   if (4 * (t->n + 1) > 3 * t->cap && !table_grow(t))
      return NULL;
   j = h & (t->cap - 1);
   while (t->slots[j].str != NULL)
      j = (j + 1) & (t->cap - 1);
   e = &t->slots[j];
   len = PW_STRLEN(name) + 1;
   e->str = table_store(t, len);
   if (e->str == NULL)
      return NULL;
   PW_MEMCPY(e->str, name, len);
   for (e->shown = 0; name[e->shown] != '\0' && name[e->shown] != '\n';
        e->shown++)
      ;
   e->hash = h;
   e->id = ++t->n;
   e->defined = 0;
   return e;
}

/* The entry with id ID (a linear search: only for going back to a
   function's own file by pw_cg_file(w, NULL)), or NULL. */
static CgName *table_by_id(CgTable *t, unsigned id)
{
   unsigned i;
   for (i = 0; i < t->cap; i++)
      if (t->slots[i].str != NULL && t->slots[i].id == id)
         return &t->slots[i];
   return NULL;
}

static void table_free(CgTable *t)
{
   while (t->chunk != NULL) {
      char *prev;
      PW_MEMCPY(&prev, t->chunk, sizeof(char *));
      PW_FREE(t->chunk);
      t->chunk = prev;
   }
   PW_FREE(t->slots);
}

/* ------------------------------------------------------------------ */
/* Writer state                                                        */
/* ------------------------------------------------------------------ */

struct PW_Cg {
   PW_Sink  *s;
   unsigned  n_events;
   int       pos_instr, pos_line;
   int       compress_strings, compress_pos;
   pw_u64   *totals;
   CgTable   obs, files, fns;
   unsigned  cur_ob, cur_fl, cur_fi, cur_fn;   /* ids; 0 = none yet */
   unsigned  call_ob;    /* object a cob= line named since the last cost
                            line; 0 = none */
   PW_CgPos  last;       /* previous cost line; a 0 column is absolute */
   unsigned  full;       /* the summary's columns (put_costs_n) */
   unsigned char *file_full;  /* by file id: a cost line of the file
                                 written with them (put_costs_n) */
   unsigned  file_full_cap;
};

/* Intern NAME ("???" for NULL); its id, or 0 when out of memory (then
   the sink carries ENOMEM and nothing more is written). */
static CgName *cg_name(PW_Cg *w, CgTable *t, const char *name)
{
   CgName *e = table_intern(t, name != NULL ? name : "???");
   if (e == NULL && w->s->error == 0)
      w->s->error = PW_ENOMEM;
   return e;
}

/* The function (OB, FL, FN): its entry in the function table, keyed by
   "FN\nFL\nOB" (names hold no line breaks: the format has no room for
   them), of which FN is written. */
static CgName *cg_fn(PW_Cg *w, const char *ob, const char *fl,
                     const char *fn)
{
   size_t lo, lf, ln;
   char small[512], *key;
   CgName *e;

   ob = ob != NULL ? ob : "???";
   fl = fl != NULL ? fl : "???";
   fn = fn != NULL ? fn : "???";
   lo = PW_STRLEN(ob), lf = PW_STRLEN(fl), ln = PW_STRLEN(fn);
   key = ln + lf + lo + 3 <= sizeof small ? small
         : PW_MALLOC("pw.cg.fn_key.1", ln + lf + lo + 3);
   if (key == NULL) {
      if (w->s->error == 0)
         w->s->error = PW_ENOMEM;
      return NULL;
   }
   PW_MEMCPY(key, fn, ln);
   key[ln] = '\n';
   PW_MEMCPY(key + ln + 1, fl, lf);
   key[ln + 1 + lf] = '\n';
   PW_MEMCPY(key + ln + lf + 2, ob, lo + 1);
   e = cg_name(w, &w->fns, key);
   if (key != small)
      PW_FREE(key);
   return e;
}

/* "KEY=(id) name" the first time, "KEY=(id)" after, "KEY=name" without
   compression. */
static void put_name(PW_Cg *w, const char *key, CgName *e)
{
   PW_Sink *s = w->s;
   pw_put(s, key);
   pw_putc(s, '=');
   if (w->compress_strings) {
      pw_putc(s, '(');
      pw_put_u64(s, e->id);
      pw_putc(s, ')');
      if (!e->defined) {
         pw_putc(s, ' ');
         pw_putn(s, e->str, e->shown);
         e->defined = 1;
      }
   } else {
      pw_putn(s, e->str, e->shown);
   }
   pw_putc(s, '\n');
}

/* " 0 12" -- costs, space-separated, trailing zeros left off as
   Callgrind leaves them (mappingcost_as_string: with cache simulation
   most lines end in zeros, and a file with them all written is half as
   big again), the first always written ("summary: 0"); at least WIDTH
   columns.  Written with a leading space (they follow a position or a
   key).

   callgrind_annotate, annotating a source file, sums the costs of the
   lines it prints, and warns ("Use of uninitialized value ... line
   1284") for each column of the summary that no printed line reaches,
   as it does on Callgrind's own cache-simulation files.  It prints
   every line of an annotated file that has a cost, so pw_cg_cost
   writes the first cost line (at a line > 0) of each source file with
   as many columns as the summary (PW_Cg.full): a few zeros per file, no
   warning.  Not more: with --inclusive=yes it subtracts from the
   summary, column by column, the costs of a function no call reaches
   (code inlined from another file, "fi="), and warns ("line 1024") for
   a column the function has and the summary has not; the summary
   leaves off its trailing zeros too (no LL write miss in a dump after
   a zeroing, no indirect branch). */
/* How many columns put_costs writes of C. */
static unsigned costs_width(const pw_u64 *c, unsigned n)
{
   unsigned i, shown = 1;

   for (i = 1; c != NULL && i < n; i++)
      if (c[i] != 0)
         shown = i + 1;
   return shown;
}

static void put_costs_n(PW_Sink *s, const pw_u64 *c, unsigned n,
                        unsigned width)
{
   unsigned i, shown = costs_width(c, n);

   if (width > shown && width <= n)
      shown = width;
   for (i = 0; i < shown; i++) {
      pw_putc(s, ' ');
      pw_put_u64(s, c != NULL ? c[i] : 0);
   }
}

static void put_costs(PW_Sink *s, const pw_u64 *c, unsigned n)
{
   put_costs_n(s, c, n, 1);
}

/* Whether a cost line at POS in the current source file is to have the
   summary's columns (above): the file's first at a line > 0.  Marks it. */
static int first_of_file(PW_Cg *w, PW_CgPos pos)
{
   unsigned id = w->cur_fi;
   if (!w->pos_line || pos.line == 0 || w->n_events < 2)
      return 0;
   if (id >= w->file_full_cap) {
      unsigned cap = w->file_full_cap ? w->file_full_cap : 64, old;
      unsigned char *p;
      while (cap <= id)
         cap *= 2;
      p = PW_REALLOC("pw.cg.file_full", w->file_full, cap);
      if (p == NULL)
         return 0;                /* only the warning is at stake */
      old = w->file_full_cap;
      PW_MEMSET(p + old, 0, cap - old);
      w->file_full = p;
      w->file_full_cap = cap;
   }
   if (w->file_full[id])
      return 0;
   w->file_full[id] = 1;
   return 1;
}

/* One position column: "+N", "-N" or "*" relative to PREV when allowed
   (PREV > 0 and |diff| < 100, Callgrind's rule), else absolute. */
static void put_col(PW_Cg *w, pw_u64 cur, pw_u64 prev, int hex)
{
   PW_Sink *s = w->s;

   if (w->compress_pos && prev > 0) {
      if (cur == prev) {
         pw_putc(s, '*');
         return;
      }
      if (cur > prev && cur - prev < 100) {
         pw_putc(s, '+');
         pw_put_u64(s, cur - prev);
         return;
      }
      if (cur < prev && prev - cur < 100) {
         pw_putc(s, '-');
         pw_put_u64(s, prev - cur);
         return;
      }
   }
   if (hex)
      pw_put_hex(s, cur);
   else
      pw_put_u64(s, cur);
}

/* "INSTR LINE", the columns the header announced, single spaces,
   relative to the previous cost line; absolute when ABSOLUTE. */
static void put_pos(PW_Cg *w, PW_CgPos p, int absolute)
{
   PW_CgPos prev = w->last;

   if (absolute) {
      prev.instr = 0;
      prev.line = 0;
   }
   if (w->pos_instr)
      put_col(w, p.instr, prev.instr, 1);
   if (w->pos_line) {
      if (w->pos_instr)
         pw_putc(w->s, ' ');
      put_col(w, p.line, prev.line, 0);
   }
}

/* ------------------------------------------------------------------ */
/* Header and trailer                                                  */
/* ------------------------------------------------------------------ */

/* # callgrind format
   version: 1
   creator: CREATOR
   pid: PID
   cmd: CMD
   (blank)
   part: N
   thread: T            with --separate-threads=yes, as Callgrind
   (blank)
   desc: ...            one per DESC line
   (blank)
   positions: instr line
   events: Ir Dr ...
   summary: ...
   (blank)
   (blank)
   Callgrind 3.19's new_dumpfile, in its order; a continued part (a
   further dump into the same file) starts at its blank line before
   "part:", and its ids are defined anew (KCachegrind forgets them at
   each "part:").  callgrind_annotate wants
   "events:" as the last header line before the body, KCachegrind wants
   it before any cost ("summary:" included).  When the header asks for
   no position column, "line" is used (Callgrind's default). */
PW_Cg *pw_cg_begin(PW_Sink *s, const PW_CgHeader *h)
{
   PW_Cg *w = PW_MALLOC("pw.cg.begin.1", sizeof *w);
   unsigned i;

   if (w == NULL) {
      if (s->error == 0)
         s->error = PW_ENOMEM;
      return NULL;
   }
   PW_MEMSET(w, 0, sizeof *w);
   w->s = s;
   w->n_events = h->n_events;
   w->pos_instr = h->pos_instr != 0;
   w->pos_line = h->pos_line != 0 || h->pos_instr == 0;
   w->compress_strings = h->compress_strings != 0;
   w->compress_pos = h->compress_pos != 0;
   w->full = costs_width(h->summary, h->n_events);
   w->totals = PW_MALLOC("pw.cg.begin.2",
                         (h->n_events ? h->n_events : 1) * sizeof(pw_u64));
   if (w->totals == NULL) {
      PW_FREE(w);
      if (s->error == 0)
         s->error = PW_ENOMEM;
      return NULL;
   }
   PW_MEMSET(w->totals, 0, (h->n_events ? h->n_events : 1) * sizeof(pw_u64));

   if (!h->continued) {
      pw_put(s, "# callgrind format\nversion: 1\ncreator: ");
      pw_put(s, h->creator != NULL ? h->creator : "");
      pw_put(s, "\npid: ");
      pw_printf(s, "%d", h->pid);
      pw_put(s, "\ncmd: ");
      pw_put(s, h->cmd != NULL ? h->cmd : "");
      pw_putc(s, '\n');
   }
   pw_put(s, "\npart: ");
   pw_printf(s, "%d", h->part);
   if (h->thread > 0) {
      pw_put(s, "\nthread: ");
      pw_printf(s, "%d", h->thread);
   }
   pw_put(s, "\n\n");
   for (i = 0; i < h->n_desc; i++) {
      pw_put(s, "desc: ");
      pw_put(s, h->desc[i]);
      pw_putc(s, '\n');
   }
   pw_put(s, "\npositions:");
   if (w->pos_instr)
      pw_put(s, " instr");
   if (w->pos_line)
      pw_put(s, " line");
   pw_put(s, "\nevents:");
   for (i = 0; i < h->n_events; i++) {
      pw_putc(s, ' ');
      pw_put(s, h->events[i]);
   }
   pw_put(s, "\nsummary:");
   put_costs(s, h->summary, h->n_events);
   pw_put(s, "\n\n\n");
   return w;
}

/* (blank line after the last function, as Callgrind)
   totals: SUM      the sum of every cost line written, not the summary. */
int pw_cg_end(PW_Cg *w)
{
   PW_Sink *s = w->s;
   int err;

   if (w->cur_fn != 0)
      pw_putc(s, '\n');
   pw_put(s, "totals:");
   put_costs(s, w->totals, w->n_events);
   pw_putc(s, '\n');
   err = pw_flush(s);

   table_free(&w->obs);
   table_free(&w->files);
   table_free(&w->fns);
   PW_FREE(w->totals);
   PW_FREE(w->file_full);
   PW_FREE(w);
   return err;
}

const pw_u64 *pw_cg_totals(const PW_Cg *w)
{
   return w->totals;
}

/* ------------------------------------------------------------------ */
/* Body                                                                */
/* ------------------------------------------------------------------ */

/* (blank line between functions)
   ob=OBJECT       when the object changed
   fl=FILE         when the file changed, or an fi= is still in force
   fn=FUNCTION     whenever any of the three changed: a function is known
                   by (object, file, name), as Callgrind's fn_node is
   Positions restart absolute in a new function, as in Callgrind. */
void pw_cg_function(PW_Cg *w, const char *ob, const char *fl,
                    const char *fn)
{
   CgName *o = cg_name(w, &w->obs, ob);
   CgName *f = cg_name(w, &w->files, fl);
   CgName *n = cg_fn(w, ob, fl, fn);
   int changed = 0;

   if (o == NULL || f == NULL || n == NULL)
      return;
   if (o->id == w->cur_ob && f->id == w->cur_fl && n->id == w->cur_fn) {
      pw_cg_file(w, NULL);          /* same function: its own file again */
      return;
   }
   if (w->cur_fn != 0)
      pw_putc(w->s, '\n');
   if (o->id != w->cur_ob) {
      put_name(w, "ob", o);
      w->cur_ob = o->id;
      changed = 1;
   }
   if (f->id != w->cur_fl || f->id != w->cur_fi) {
      put_name(w, "fl", f);
      w->cur_fl = w->cur_fi = f->id;
      changed = 1;
   }
   if (changed || n->id != w->cur_fn) {
      put_name(w, "fn", n);
      w->cur_fn = n->id;
   }
   w->last.instr = 0;
   w->last.line = 0;
}

/* fi=FILE   cost lines from here on come from FILE (inlined code)
   fe=FILE   back in the function's own file
   Nothing when FI (NULL: the function's file) is already current. */
void pw_cg_file(PW_Cg *w, const char *fi)
{
   CgName *f;

   if (fi == NULL)
      f = table_by_id(&w->files, w->cur_fl);
   else
      f = cg_name(w, &w->files, fi);
   if (f == NULL || f->id == w->cur_fi)
      return;
   put_name(w, f->id == w->cur_fl ? "fe" : "fi", f);
   w->cur_fi = f->id;
}

/* POSITION COSTS      e.g. "0x4005bd 12 3 1" or, compressed, "+3 * 3 1" */
void pw_cg_cost(PW_Cg *w, PW_CgPos pos, const pw_u64 *costs)
{
   unsigned i;

   if (w->s->error != 0)
      return;
   put_pos(w, pos, 0);
   put_costs_n(w->s, costs, w->n_events,
               first_of_file(w, pos) ? w->full : 1);
   pw_putc(w->s, '\n');
   w->last = pos;
   w->call_ob = 0;
   for (i = 0; costs != NULL && i < w->n_events; i++)
      w->totals[i] += costs[i];
}

/* [cob=OBJECT]          when the callee's object is not the current one
   [cfi=FILE]            when the callee's file is not the one in force
                         (fi=/fe= included)
   cfn=FUNCTION
   calls=COUNT TARGET    TARGET always absolute
   SOURCE INCLUSIVE      SOURCE absolute; the inclusive costs of the call
   Inclusive costs are not self costs: not added to the totals.  Nothing
   at all for COUNT 0. */
void pw_cg_call(PW_Cg *w, const char *cob, const char *cfi,
                const char *cfn, pw_u64 count, PW_CgPos to, PW_CgPos from,
                const pw_u64 *inclusive)
{
   PW_Sink *s = w->s;
   CgName *o, *f, *n;

   if (count == 0 || s->error != 0)
      return;
   if ((o = cg_name(w, &w->obs, cob)) == NULL ||
       (f = cg_name(w, &w->files, cfi)) == NULL ||
       (n = cg_fn(w, cob, cfi, cfn)) == NULL)
      return;

   /* gprof2dot keeps a cob= until the next cost line: a call back into
      the current object right after a call into another one names it
      again. */
   if (o->id != w->cur_ob || (w->call_ob != 0 && w->call_ob != o->id)) {
      put_name(w, "cob", o);
      w->call_ob = o->id;
   }
   if (f->id != w->cur_fi)
      put_name(w, "cfi", f);
   put_name(w, "cfn", n);
   pw_put(s, "calls=");
   pw_put_u64(s, count);
   pw_putc(s, ' ');
   put_pos(w, to, 1);
   pw_putc(s, '\n');
   put_pos(w, from, 1);
   put_costs(s, inclusive, w->n_events);
   pw_putc(s, '\n');
   w->last.instr = 0;             /* the next cost line is absolute */
   w->last.line = 0;
}

/* [jfi=FILE]                       when the target's file is not the one
                                    in force (fi=/fe= included); a name
                                    not defined yet is written whole
   jcnd=FOLLOWED/EXECUTED TARGET    or jump=FOLLOWED TARGET, absolute
   SOURCE                           absolute, nothing after it
   The target is in the current function: Callgrind writes jfn= only for
   a jump between two contexts, which its own call tracking never makes
   of a jump (a jump that leaves frames is a return). */
void pw_cg_jump(PW_Cg *w, int conditional, pw_u64 followed,
                pw_u64 executed, const char *jfi, PW_CgPos to, PW_CgPos from)
{
   PW_Sink *s = w->s;
   CgName *f = NULL;

   if (s->error != 0)
      return;
   if (jfi != NULL && (f = cg_name(w, &w->files, jfi)) == NULL)
      return;

   if (f != NULL && f->id != w->cur_fi) {
      /* speedscope skips jfi= lines, so an id first defined here would
         be unknown to it where it is used next: a name not yet defined
         is written whole (every reader takes a plain name anywhere). */
      if (w->compress_strings && !f->defined) {
         pw_put(s, "jfi=");
         pw_putn(s, f->str, f->shown);
         pw_putc(s, '\n');
      } else
         put_name(w, "jfi", f);
   }
   if (conditional) {
      pw_put(s, "jcnd=");
      pw_put_u64(s, followed);
      pw_putc(s, '/');
      pw_put_u64(s, executed);
   } else {
      pw_put(s, "jump=");
      pw_put_u64(s, followed);
   }
   pw_putc(s, ' ');
   put_pos(w, to, 1);
   pw_putc(s, '\n');
   put_pos(w, from, 1);
   pw_putc(s, '\n');
   w->last.instr = 0;
   w->last.line = 0;
}
