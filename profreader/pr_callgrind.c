/* pr_callgrind.c: a Callgrind-format file, read as KCachegrind reads it.

   Copyright (C) 2026 The heapsnap/callprof developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   The format (Valgrind's docs/xml/callgrind-format.xml) is a header,
   then lines that set names and lines of numbers:

     version: 1             creator: ...     pid: 123     cmd: ./prog
     part: 1                desc: ...        thread: 1
     positions: line        (or instr, or "instr line": the columns that
                             start each line of numbers)
     events: Ir Dr ...      (the cost columns that follow the positions)
     summary: / totals:     (what the writer says the costs add up to)
     ob= fl= fi= fe= fn=    object, function file, source file, function
     cob= cfi= cfl= cfn=    the object, file and function of the next call
     calls=COUNT TARGET     the next line is the call site and the call's
                            inclusive cost
     jump=COUNT TARGET      the next line is the jump's source position
     jcnd=FOLLOWED/EXECUTED TARGET
     jfi= jfn=              the file (function) of the next jump's target
     POSITIONS COSTS        self cost of the current function

   What KCachegrind's loader (libcore/cachegrindloader.cpp) makes of it,
   and so what this reader does:
   - A name is "(N) name" (defines id N), "(N)" (uses it) or a plain
     name.  Objects, files and functions have an id space each (cob= is
     an object, cfi=/cfl=/fi=/fe=/jfi= are files).  Ids are forgotten at
     each new part (part:, thread:, pid:, events: or positions: after
     costs were read).
   - A function is (name, file, object).  For fn= the file is the last
     fl= and the object the last ob=; for cfn= the last cfi=/cfl= and
     cob= if given since the last call, else the current source file
     (fi=/fe=, or fl=) and object.  A function id stands for the function
     it was defined as, wherever it is used.  We record a "conflict" when
     an id is redefined under another name in one part, or used where its
     object or file is not the one in force: Callgrind never writes
     either, and a reader then shows one function in place of two.
   - fl= sets the function file and the source file, fi=/fe= only the
     source file; fn= goes back to the function file.
   - Each position column is absolute (decimal or 0x hex), "+N"/"-N"
     (relative to that column of the previous position line) or "*".
     Every line of numbers is a position line, the call-site line after
     calls= and the source line after a jump too.  A jump's target is
     relative to the current position and does not move it.
   - Missing trailing costs are 0.  Cost lines at the same (function,
     file, position) add up; so do calls and jumps at the same site.

   The model keeps, per file: functions with their self costs, self cost
   per (function, file, position), call arcs per (caller, call-site file
   and position, callee) with call counts and inclusive costs, jumps per
   (function, source, target, kind) with their counts, the sum of all
   self costs per event, and the conflicts.

   One line handler, line(), reads every line, whether the file comes
   whole (pr_cg_parse) or in pieces (pr_cg_stream_feed: a line cut by
   the end of a piece waits for the rest).  With PR_CG_CALL_GRAPH the
   same lines are read the same way, but per-line costs and jumps are
   not kept and calls are merged per (caller, callee): memory then grows
   with the number of functions and arcs, not with the file. */

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pr_internal.h"

typedef enum { NEXT_SELF, NEXT_CALL, NEXT_JUMP } NextLine;

struct PR_CgIndex {
   PR_Pool pool;
   PR_Map  fns, lines, calls, jumps;
   size_t  cap_fns, cap_lines, cap_calls, cap_jumps, cap_conflicts;
};

/* The reader's state between lines: a stream (pr_cg_stream_new) is
   fed pieces of the file and hands each whole line to line(); a line
   that a piece cuts waits in CARRY for the rest. */
struct PR_CgStream {
   PR_Callgrind *p;
   const char   *name;
   size_t        lineno;
   PR_Error     *err;
   unsigned      flags;
   int           ok;
   char         *carry;           /* the start of a line cut by a piece */
   size_t        n_carry, cap_carry;
   PR_Map        ids[3];          /* id -> interned name or PR_Fn* */
   int           have_events, costs_seen;
   /* The state a line is read in. */
   const char   *ob, *fl, *fi, *cob, *cfi, *jfi;
   PR_Fn        *fn, *cfn;
   PR_Pos        pos;
   NextLine      next;
   pr_u64        calls, followed, executed;
   int           cond;
   PR_Pos        target;
   const char   *target_file;
   pr_u64       *costs;           /* the line being read, n_events */
};
typedef struct PR_CgStream Reader;

enum { ID_OB, ID_FL, ID_FN };

static void fail(Reader *r, const char *fmt, ...)
#ifdef __GNUC__
   __attribute__((format(printf, 2, 3)))
#endif
   ;
static void fail(Reader *r, const char *fmt, ...)
{
   char msg[400];
   va_list ap;
   va_start(ap, fmt);
   vsnprintf(msg, sizeof msg, fmt, ap);
   va_end(ap);
   pr_error(r->err, r->name, r->lineno, "%s", msg);
}

static void conflict(Reader *r, const char *fmt, ...)
#ifdef __GNUC__
   __attribute__((format(printf, 2, 3)))
#endif
   ;
static void conflict(Reader *r, const char *fmt, ...)
{
   PR_Callgrind *p = r->p;
   char msg[1024];
   int n = snprintf(msg, sizeof msg, "%s:%zu: ", r->name, r->lineno);
   va_list ap;
   if (n < 0 || (size_t)n >= sizeof msg)     /* a very long file name */
      n = (int)sizeof msg - 1;
   va_start(ap, fmt);
   vsnprintf(msg + n, sizeof msg - (size_t)n, fmt, ap);
   va_end(ap);
   pr_grow(&p->conflicts, &p->index->cap_conflicts, p->n_conflicts,
           sizeof *p->conflicts);
   p->conflicts[p->n_conflicts++] = pr_xstrndup(msg, strlen(msg));
}

static void new_part(Reader *r)
{
   int k;
   for (k = 0; k < 3; k++) {
      pr_map_free(&r->ids[k]);
      pr_map_init(&r->ids[k]);
   }
   r->ob = r->fl = r->fi = r->cob = r->cfi = r->jfi = NULL;
   r->fn = r->cfn = NULL;
   memset(&r->pos, 0, sizeof r->pos);
   r->next = NEXT_SELF;
   r->costs_seen = 0;
}

/* "(N) name", "(N)" or "name" at S (LEN): the id (or -1) and the name
   part (empty when only used). */
static int split_name(Reader *r, const char *s, size_t len, long *id,
                      const char **name, size_t *nlen)
{
   size_t i = 1;
   unsigned long v = 0;
   *id = -1;
   *name = s;
   *nlen = len;
   if (len < 2 || s[0] != '(' || s[1] < '0' || s[1] > '9')
      return 1;
   while (i < len && s[i] >= '0' && s[i] <= '9') {
      v = v * 10 + (unsigned long)(s[i] - '0');
      if (v > 100000000UL) {
         fail(r, "compressed id too large");
         return 0;
      }
      i++;
   }
   if (i >= len || s[i] != ')') {
      fail(r, "bad compressed name '%.*s'", (int)(len > 60 ? 60 : len), s);
      return 0;
   }
   i++;
   while (i < len && (s[i] == ' ' || s[i] == '\t'))
      i++;
   *id = (long)v;
   *name = s + i;
   *nlen = len - i;
   return 1;
}

/* An object or file name: interned; NULL on error. */
static const char *name_of(Reader *r, int space, const char *s, size_t len)
{
   long id;
   const char *nm;
   size_t nlen, v;
   if (!split_name(r, s, len, &id, &nm, &nlen))
      return NULL;
   if (id < 0)
      return pr_intern(&r->p->index->pool, s, len);
   if (nlen == 0) {
      if (!pr_map_get(&r->ids[space], &id, sizeof id, &v)) {
         fail(r, "compressed id (%ld) used before it is defined", id);
         return NULL;
      }
      return (const char *)v;
   }
   nm = pr_intern(&r->p->index->pool, nm, nlen);
   pr_map_put(&r->ids[space], &id, sizeof id, (size_t)nm);
   return nm;
}

static PR_Fn *function(Reader *r, const char *name, const char *file,
                       const char *obj)
{
   PR_Callgrind *p = r->p;
   struct PR_CgIndex *x = p->index;
   const char *key[3] = { name, file, obj };
   size_t i;
   PR_Fn *f;
   if (pr_map_get(&x->fns, key, sizeof key, &i))
      return p->fns[i];
   f = pr_xcalloc(1, sizeof *f);
   f->name = name;
   f->file = file;
   f->obj = obj;
   f->self = pr_xcalloc((size_t)p->n_events, sizeof *f->self);
   pr_grow(&p->fns, &x->cap_fns, p->n_fns, sizeof *p->fns);
   pr_map_put(&x->fns, key, sizeof key, p->n_fns);
   p->fns[p->n_fns++] = f;
   return f;
}

/* A function name of fn=/cfn=/jfn= in FILE and OBJ. */
static PR_Fn *fn_of(Reader *r, const char *s, size_t len, const char *file,
                    const char *obj)
{
   long id;
   const char *nm;
   size_t nlen, v;
   PR_Fn *f;
   if (!split_name(r, s, len, &id, &nm, &nlen))
      return NULL;
   if (id < 0)
      return function(r, pr_intern(&r->p->index->pool, s, len), file, obj);
   if (nlen == 0) {
      if (!pr_map_get(&r->ids[ID_FN], &id, sizeof id, &v)) {
         fail(r, "compressed function id (%ld) used before it is defined",
              id);
         return NULL;
      }
      f = (PR_Fn *)v;
      if (f->obj != obj)
         conflict(r, "function id (%ld) is %s of %s, used in %s", id,
                  f->name, f->obj, obj);
      else if (f->file != file)
         conflict(r, "function id (%ld) is %s of file %s, used in %s", id,
                  f->name, f->file, file);
      return f;
   }
   nm = pr_intern(&r->p->index->pool, nm, nlen);
   f = function(r, nm, file, obj);
   if (pr_map_get(&r->ids[ID_FN], &id, sizeof id, &v) &&
       ((PR_Fn *)v)->name != nm)
      conflict(r, "function id (%ld) defined as %s and as %s", id,
               ((PR_Fn *)v)->name, nm);
   pr_map_put(&r->ids[ID_FN], &id, sizeof id, (size_t)f);
   return f;
}

/*------------------------------------------------------------------*/
/* Lines of numbers */

static int parse_pos(Reader *r, const char **s, const char *end, PR_Pos *pos)
{
   int i;
   for (i = 0; i < r->p->n_pos; i++) {
      const char *q = *s;
      pr_u64 v = 0;
      while (q < end && (*q == ' ' || *q == '\t'))
         q++;
      if (q >= end) {
         fail(r, "position missing");
         return 0;
      }
      if (*q == '*') {
         pos->v[i] = r->pos.v[i];
         q++;
      } else if (*q == '+' || *q == '-') {
         char sign = *q++;
         if (!pr_parse_u64(&q, end, &v)) {
            fail(r, "bad relative position");
            return 0;
         }
         pos->v[i] = sign == '+' ? r->pos.v[i] + v : r->pos.v[i] - v;
      } else if (!pr_parse_u64(&q, end, &pos->v[i])) {
         fail(r, "bad position");
         return 0;
      }
      if (q < end && *q != ' ' && *q != '\t') {
         fail(r, "bad position");
         return 0;
      }
      *s = q;
   }
   return 1;
}

static int parse_costs(Reader *r, const char *s, const char *end)
{
   int k;
   for (k = 0; k < r->p->n_events; k++)
      r->costs[k] = 0;
   for (k = 0;; k++) {
      while (s < end && (*s == ' ' || *s == '\t'))
         s++;
      if (s >= end)
         return 1;
      if (k >= r->p->n_events) {
         fail(r, "more costs than events");
         return 0;
      }
      if (!pr_parse_u64(&s, end, &r->costs[k]) ||
          (s < end && *s != ' ' && *s != '\t')) {
         fail(r, "bad cost");
         return 0;
      }
   }
}

/* Index of KEY in MAP, adding a zeroed element of ARR if new. */
static size_t entry(PR_Map *map, const void *key, size_t klen, void *arr,
                    size_t *n, size_t *cap, size_t size, int *fresh)
{
   size_t i;
   if (pr_map_get(map, key, klen, &i)) {
      *fresh = 0;
      return i;
   }
   pr_grow(arr, cap, *n, size);
   memset(*(char **)arr + *n * size, 0, size);
   pr_map_put(map, key, klen, *n);
   *fresh = 1;
   return (*n)++;
}

static void add(pr_u64 *to, const pr_u64 *from, int n)
{
   int k;
   for (k = 0; k < n; k++)
      to[k] += from[k];
}

static int numbers_line(Reader *r, const char *s, size_t len)
{
   PR_Callgrind *p = r->p;
   struct PR_CgIndex *x = p->index;
   const char *end = s + len;
   PR_Pos pos;
   int fresh, ne = p->n_events;
   size_t i;

   if (!r->have_events) {
      fail(r, "costs before the events: line");
      return 0;
   }
   if (r->fn == NULL) {
      fail(r, "costs before any fn= line");
      return 0;
   }
   memset(&pos, 0, sizeof pos);
   if (!parse_pos(r, &s, end, &pos))
      return 0;
   r->pos = pos;
   r->costs_seen = 1;
   if (r->next == NEXT_JUMP && (r->flags & PR_CG_CALL_GRAPH)) {
      r->next = NEXT_SELF;
      r->jfi = NULL;
      return 1;
   }
   if (r->next == NEXT_JUMP) {
      struct { PR_Fn *fn; const char *file; PR_Pos pos; const char *tf;
               PR_Pos to; long cond; } key;
      memset(&key, 0, sizeof key);
      key.fn = r->fn;
      key.file = r->fi;
      key.pos = pos;
      key.tf = r->target_file;
      key.to = r->target;
      key.cond = r->cond;
      i = entry(&x->jumps, &key, sizeof key, &p->jumps, &p->n_jumps,
                &x->cap_jumps, sizeof *p->jumps, &fresh);
      if (fresh) {
         p->jumps[i].fn = r->fn;
         p->jumps[i].file = r->fi;
         p->jumps[i].pos = pos;
         p->jumps[i].to_file = r->target_file;
         p->jumps[i].to = r->target;
         p->jumps[i].cond = r->cond;
      }
      p->jumps[i].followed += r->followed;
      p->jumps[i].executed += r->executed;
      r->next = NEXT_SELF;
      r->jfi = NULL;
      return 1;       /* a jump line's costs, if any, are not costs */
   }
   if (!parse_costs(r, s, end))
      return 0;
   if (r->next == NEXT_CALL) {
      /* (caller, callee, site); a call graph's key ends at the callee. */
      struct CallKey { PR_Fn *caller, *callee; const char *file;
                       PR_Pos pos; } key;
      memset(&key, 0, sizeof key);
      key.caller = r->fn;
      key.callee = r->cfn;
      if (!(r->flags & PR_CG_CALL_GRAPH)) {
         key.file = r->fi;
         key.pos = pos;
      }
      i = entry(&x->calls, &key, r->flags & PR_CG_CALL_GRAPH ?
                offsetof(struct CallKey, file) : sizeof key,
                &p->calls, &p->n_calls, &x->cap_calls, sizeof *p->calls,
                &fresh);
      if (fresh) {
         p->calls[i].caller = r->fn;
         p->calls[i].file = key.file;
         p->calls[i].pos = key.pos;
         p->calls[i].callee = r->cfn;
         p->calls[i].incl = pr_xcalloc((size_t)ne, sizeof(pr_u64));
      }
      p->calls[i].calls += r->calls;
      add(p->calls[i].incl, r->costs, ne);
      r->next = NEXT_SELF;
      r->cob = r->cfi = NULL;
      return 1;
   } else if (r->flags & PR_CG_CALL_GRAPH) {
      add(r->fn->self, r->costs, ne);
      add(p->sum, r->costs, ne);
   } else {
      struct { PR_Fn *fn; const char *file; PR_Pos pos; } key;
      memset(&key, 0, sizeof key);
      key.fn = r->fn;
      key.file = r->fi;
      key.pos = pos;
      i = entry(&x->lines, &key, sizeof key, &p->lines, &p->n_lines,
                &x->cap_lines, sizeof *p->lines, &fresh);
      if (fresh) {
         p->lines[i].fn = r->fn;
         p->lines[i].file = r->fi;
         p->lines[i].pos = pos;
         p->lines[i].cost = pr_xcalloc((size_t)ne, sizeof(pr_u64));
      }
      add(p->lines[i].cost, r->costs, ne);
      add(r->fn->self, r->costs, ne);
      add(p->sum, r->costs, ne);
   }
   return 1;
}

/*------------------------------------------------------------------*/
/* Header lines */

static const char *trim(const char *s, size_t *len)
{
   while (*len > 0 && (*s == ' ' || *s == '\t')) {
      s++;
      (*len)--;
   }
   while (*len > 0 && (s[*len - 1] == ' ' || s[*len - 1] == '\t'))
      (*len)--;
   return s;
}

/* A new part begins where KCachegrind's does: at part:, thread:, pid:,
   events: or positions: once the current part has costs. */
static void maybe_new_part(Reader *r)
{
   if (r->costs_seen) {
      new_part(r);
      r->p->n_parts++;
   }
}

static int set_events(Reader *r, const char *s, size_t len)
{
   PR_Callgrind *p = r->p;
   char *words[256];
   int n = 0, k;
   s = trim(s, &len);
   while (len > 0) {
      size_t w = 0;
      while (w < len && s[w] != ' ' && s[w] != '\t')
         w++;
      if (n == 256) {
         fail(r, "too many events");
         goto bad;
      }
      words[n++] = pr_xstrndup(s, w);
      s += w;
      len -= w;
      s = trim(s, &len);
   }
   if (n == 0) {
      fail(r, "events: line without events");
      return 0;
   }
   if (r->have_events) {
      int same = n == p->n_events;
      for (k = 0; same && k < n; k++)
         same = strcmp(words[k], p->events[k]) == 0;
      if (!same)
         fail(r, "events: differ from the first part's");
      for (k = 0; k < n; k++)
         free(words[k]);
      return same;
   }
   p->n_events = n;
   p->events = pr_xcalloc((size_t)n, sizeof *p->events);
   for (k = 0; k < n; k++)
      p->events[k] = words[k];
   p->sum = pr_xcalloc((size_t)n, sizeof *p->sum);
   p->summary = pr_xcalloc((size_t)n, sizeof *p->summary);
   p->totals = pr_xcalloc((size_t)n, sizeof *p->totals);
   r->costs = pr_xcalloc((size_t)n, sizeof *r->costs);
   r->have_events = 1;
   return 1;
bad:
   for (k = 0; k < n; k++)
      free(words[k]);
   return 0;
}

static int set_positions(Reader *r, const char *s, size_t len)
{
   PR_Callgrind *p = r->p;
   int n = 0;
   s = trim(s, &len);
   while (len > 0) {
      size_t w = 0;
      while (w < len && s[w] != ' ' && s[w] != '\t')
         w++;
      if (n == PR_MAX_POS || !((w == 4 && memcmp(s, "line", 4) == 0) ||
                               (w == 5 && memcmp(s, "instr", 5) == 0))) {
         fail(r, "bad positions: line");
         return 0;
      }
      free(p->pos_names[n]);
      p->pos_names[n++] = pr_xstrndup(s, w);
      s += w;
      len -= w;
      s = trim(s, &len);
   }
   if (n == 0) {
      fail(r, "bad positions: line");
      return 0;
   }
   p->n_pos = n;
   return 1;
}

/* summary:/totals: values into TO; costs after the events. */
static int set_sum(Reader *r, const char *s, size_t len, pr_u64 *to, int *has)
{
   if (!r->have_events) {
      fail(r, "summary before the events: line");
      return 0;
   }
   /* Valgrind's xtree files can say "totals: (null)": no figures, which
      readers take as none. */
   while (len > 0 && (*s == ' ' || *s == '\t')) {
      s++;
      len--;
   }
   if (len > 0 && *s == '(')
      return 1;
   if (!parse_costs(r, s, s + len))
      return 0;
   add(to, r->costs, r->p->n_events);
   *has = 1;
   return 1;
}

static void keep_first(char **to, const char *s, size_t len)
{
   s = trim(s, &len);
   if (*to == NULL)
      *to = pr_xstrndup(s, len);
}

/* One line; 0 on an error (set in r->err). */
static int line(Reader *r, const char *s, size_t len)
{
   const char *v;
   size_t vl;
   if (len == 0 || s[0] == '#')
      return 1;
   if ((s[0] >= '0' && s[0] <= '9') || s[0] == '+' || s[0] == '-' ||
       s[0] == '*')
      return numbers_line(r, s, len);
   if (r->next != NEXT_SELF) {
      fail(r, "a calls= or jump line must be followed by a position line");
      return 0;
   }

#define VALUE(prefix) (pr_starts(s, len, prefix) && \
   (v = s + strlen(prefix), vl = len - strlen(prefix), 1))
   if (VALUE("fl=")) {
      r->fl = r->fi = name_of(r, ID_FL, v, vl);
      return r->fl != NULL;
   }
   if (VALUE("fi=") || VALUE("fe=")) {
      r->fi = name_of(r, ID_FL, v, vl);
      return r->fi != NULL;
   }
   if (VALUE("fn=")) {
      const char *fl;
      const char *ob;
      if (!r->have_events) {
         /* A function's self costs are as many as the events. */
         fail(r, "fn= before the events: line");
         return 0;
      }
      fl = r->fl ? r->fl : pr_intern(&r->p->index->pool, "", 0);
      ob = r->ob ? r->ob : pr_intern(&r->p->index->pool, "", 0);
      r->fi = r->fl = fl;
      r->ob = ob;
      r->fn = fn_of(r, v, vl, fl, ob);
      r->cob = r->cfi = NULL;
      return r->fn != NULL;
   }
   if (VALUE("ob=")) {
      r->ob = name_of(r, ID_OB, v, vl);
      return r->ob != NULL;
   }
   if (VALUE("cob=")) {
      r->cob = name_of(r, ID_OB, v, vl);
      return r->cob != NULL;
   }
   if (VALUE("cfi=") || VALUE("cfl=")) {
      r->cfi = name_of(r, ID_FL, v, vl);
      return r->cfi != NULL;
   }
   if (VALUE("cfn=")) {
      const char *file = r->cfi ? r->cfi : r->fi;
      const char *obj = r->cob ? r->cob : r->ob;
      if (r->fn == NULL) {
         fail(r, "cfn= before any fn= line");
         return 0;
      }
      r->cfn = fn_of(r, v, vl, file, obj);
      return r->cfn != NULL;
   }
   if (VALUE("calls=")) {
      const char *end = v + vl;
      if (!pr_parse_u64(&v, end, &r->calls)) {
         fail(r, "bad calls= line");
         return 0;
      }
      if (r->cfn == NULL) {
         fail(r, "calls= without a cfn= line");
         return 0;
      }
      r->next = NEXT_CALL;
      return 1;
   }
   if (VALUE("jump=") || VALUE("jcnd=")) {
      const char *end = v + vl;
      int cond = s[1] == 'c';
      if (r->fn == NULL) {
         fail(r, "jump before any fn= line");
         return 0;
      }
      if (!pr_parse_u64(&v, end, &r->followed)) {
         fail(r, "bad jump count");
         return 0;
      }
      r->executed = r->followed;
      if (cond && (v >= end || *v != '/' ||
                   (v++, !pr_parse_u64(&v, end, &r->executed)))) {
         fail(r, "bad jcnd= counts");
         return 0;
      }
      memset(&r->target, 0, sizeof r->target);
      if (!parse_pos(r, &v, end, &r->target))
         return 0;
      r->cond = cond;
      r->target_file = r->jfi ? r->jfi : r->fi;
      r->next = NEXT_JUMP;
      return 1;
   }
   if (VALUE("jfi=")) {
      r->jfi = name_of(r, ID_FL, v, vl);
      return r->jfi != NULL;
   }
   if (VALUE("jfn=")) {
      const char *file = r->jfi ? r->jfi : r->fi;
      if (r->fn == NULL) {
         fail(r, "jfn= before any fn= line");
         return 0;
      }
      return fn_of(r, v, vl, file, r->ob) != NULL;
   }
   if (VALUE("events:")) {
      maybe_new_part(r);
      return set_events(r, v, vl);
   }
   if (VALUE("positions:")) {
      maybe_new_part(r);
      return set_positions(r, v, vl);
   }
   if (VALUE("part:") || VALUE("thread:") || VALUE("pid:")) {
      maybe_new_part(r);
      return 1;
   }
   if (VALUE("summary:"))
      return set_sum(r, v, vl, r->p->summary, &r->p->has_summary);
   if (VALUE("totals:"))
      return set_sum(r, v, vl, r->p->totals, &r->p->has_totals);
   if (VALUE("cmd:")) {
      keep_first(&r->p->cmd, v, vl);
      return 1;
   }
   if (VALUE("creator:")) {
      keep_first(&r->p->creator, v, vl);
      return 1;
   }
   if (VALUE("desc:")) {
      PR_Callgrind *p = r->p;
      size_t old = p->desc ? strlen(p->desc) : 0;
      v = trim(v, &vl);
      p->desc = realloc(p->desc, old + vl + 2);
      if (p->desc == NULL)
         abort();
      if (old)
         p->desc[old++] = '\n';
      memcpy(p->desc + old, v, vl);
      p->desc[old + vl] = '\0';
      return 1;
   }
   if (VALUE("version:") || VALUE("timeframe") || VALUE("arch:") ||
       VALUE("event:") || VALUE("rcalls="))
      return 1;
#undef VALUE
   fail(r, "unknown line '%.*s'", (int)(len > 60 ? 60 : len), s);
   return 0;
}

/*------------------------------------------------------------------*/
/* Pieces of a file */

PR_CgStream *pr_cg_stream_new(const char *name, unsigned flags,
                              PR_Error *err)
{
   Reader *r = pr_xcalloc(1, sizeof *r);
   int k;
   r->p = pr_xcalloc(1, sizeof *r->p);
   r->p->index = pr_xcalloc(1, sizeof *r->p->index);
   r->p->n_pos = 1;
   r->p->pos_names[0] = pr_xstrndup("line", 4);
   r->p->n_parts = 1;
   r->name = name;
   r->err = err;
   r->flags = flags;
   r->ok = 1;
   for (k = 0; k < 3; k++)
      pr_map_init(&r->ids[k]);
   return r;
}

/* A whole line, without its "\n" ("\r\n" ends one too). */
static void whole_line(Reader *r, const char *s, size_t len)
{
   r->lineno++;
   if (len > 0 && s[len - 1] == '\r')
      len--;
   r->ok = line(r, s, len);
}

static void keep(Reader *r, const char *s, size_t len)
{
   pr_grow(&r->carry, &r->cap_carry, r->n_carry + len, 1);
   memcpy(r->carry + r->n_carry, s, len);
   r->n_carry += len;
}

/* Lines are read where they lie in the piece; only the line that the
   piece's end cuts is copied, to wait for the rest. */
int pr_cg_stream_feed(PR_CgStream *r, const char *data, size_t len)
{
   const char *end = data + len, *nl;
   if (!r->ok || len == 0)
      return r->ok;
   if (r->n_carry > 0) {
      nl = memchr(data, '\n', len);
      if (nl == NULL) {
         keep(r, data, len);
         return 1;
      }
      keep(r, data, (size_t)(nl - data));
      whole_line(r, r->carry, r->n_carry);
      r->n_carry = 0;
      data = nl + 1;
   }
   while (r->ok && data < end &&
          (nl = memchr(data, '\n', (size_t)(end - data))) != NULL) {
      whole_line(r, data, (size_t)(nl - data));
      data = nl + 1;
   }
   if (r->ok && data < end)
      keep(r, data, (size_t)(end - data));
   return r->ok;
}

PR_Callgrind *pr_cg_stream_end(PR_CgStream *r)
{
   PR_Callgrind *p = r->p;
   int k;
   if (r->ok && r->n_carry > 0)          /* a last line without "\n" */
      whole_line(r, r->carry, r->n_carry);
   if (r->ok && r->next != NEXT_SELF) {
      fail(r, "the file ends after a calls= or jump line");
      r->ok = 0;
   }
   if (r->ok && !r->have_events) {
      pr_error(r->err, r->name, 0,
               "no events: line (not a Callgrind-format file?)");
      r->ok = 0;
   }
   for (k = 0; k < 3; k++)
      pr_map_free(&r->ids[k]);
   free(r->costs);
   free(r->carry);
   if (!r->ok) {
      pr_cg_free(p);
      p = NULL;
   }
   free(r);
   return p;
}

PR_Callgrind *pr_cg_parse(const char *data, size_t len, const char *name,
                          PR_Error *err)
{
   PR_CgStream *r = pr_cg_stream_new(name, 0, err);
   pr_cg_stream_feed(r, data, len);
   return pr_cg_stream_end(r);
}

void pr_cg_free(PR_Callgrind *p)
{
   size_t i;
   int k;
   if (p == NULL)
      return;
   for (i = 0; i < p->n_fns; i++) {
      free(p->fns[i]->self);
      free(p->fns[i]);
   }
   for (i = 0; i < p->n_lines; i++)
      free(p->lines[i].cost);
   for (i = 0; i < p->n_calls; i++)
      free(p->calls[i].incl);
   for (i = 0; i < p->n_conflicts; i++)
      free(p->conflicts[i]);
   for (k = 0; k < p->n_events; k++)
      free(p->events[k]);
   for (k = 0; k < PR_MAX_POS; k++)
      free(p->pos_names[k]);
   free(p->fns);
   free(p->lines);
   free(p->calls);
   free(p->jumps);
   free(p->conflicts);
   free(p->events);
   free(p->sum);
   free(p->summary);
   free(p->totals);
   free(p->cmd);
   free(p->creator);
   free(p->desc);
   if (p->index) {
      pr_pool_free(&p->index->pool);
      pr_map_free(&p->index->fns);
      pr_map_free(&p->index->lines);
      pr_map_free(&p->index->calls);
      pr_map_free(&p->index->jumps);
      free(p->index);
   }
   free(p);
}

int pr_cg_event(const PR_Callgrind *p, const char *event)
{
   int k;
   for (k = 0; k < p->n_events; k++)
      if (strcmp(p->events[k], event) == 0)
         return k;
   return -1;
}

const char *pr_fn_label(const PR_Fn *f, char *buf, size_t size)
{
   snprintf(buf, size, "%s:%s [%s]", *f->file ? f->file : "???",
            *f->name ? f->name : "???", *f->obj ? f->obj : "???");
   return buf;
}
