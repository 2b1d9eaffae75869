/* cp_cachesim.c: cache geometries, and setting caches up.

   Copyright (C) 2026 The heapsnap/callprof developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   The cold half of the cache simulator; cp_cachesim.h explains the model
   and holds the accesses.  This file checks, adjusts, parses and
   describes geometries the way Callgrind 3.19 does (cachegrind/cg_arch.c
   for the first three, callgrind/sim.c for the description), and lays a
   cache out over tag storage its caller provides.  Like the header it
   uses no library at all, not even for formatting, so it compiles
   unchanged into the tool and on the host.

   Where Callgrind uses floating point (the associativity factor of the
   LL tweak) we compute the same value with integers: see cs_tweak_ll.
   Where Callgrind would divide by zero or let an int overflow (a zero or
   negative field, a number too long for a long), we reject the value
   with a reason instead; every geometry Callgrind accepts, we accept
   with the same numbers.

   How Callgrind puts these together at start-up, for the one who wires
   them into callprof: the caches are detected from the host (or take
   Valgrind's defaults for the architecture), the detected LL goes
   through cs_tweak_ll (warning "specified LL cache: ..." and
   "simulated LL cache: ..." when it changed), each detected cache must
   then pass cs_check unless the option for it was given, and the
   --I1/--D1/--LL values, already checked by cs_parse when the options
   were read, replace the detected ones. */

#include "cp_cachesim.h"

/* ------------------------------------------------------------------ */
/* Checking and adjusting                                              */
/* ------------------------------------------------------------------ */

static int is_power_of_2(cs_u64 x)
{
   return x != 0 && (x & (x - 1)) == 0;
}

static unsigned log2_of(cs_u64 x)
{
   unsigned n = 0;

   while (x > 1) {
      x >>= 1;
      n++;
   }
   return n;
}

/* Callgrind computes in ints; with positive ints these 64-bit products
   and quotients are the same numbers, without its overflows. */
const char *cs_check(const CS_Geometry *g)
{
   cs_u64 size, assoc, line;

   if (g->size <= 0 || g->assoc <= 0 || g->line_size <= 0)
      return "size, associativity and line size must be positive";
   size = (cs_u64)g->size;
   assoc = (cs_u64)g->assoc;
   line = (cs_u64)g->line_size;
   if (size % (line * assoc) != 0 || !is_power_of_2(size / line / assoc))
      return "cache set count is not a power of two";
   if (!is_power_of_2(line))
      return "cache line size is not a power of two";
   if (line < CS_MIN_LINE_SIZE)
      return "cache line size is too small (minimum 16)";
   if (size <= line)
      return "cache size <= line size";
   if (assoc > size / line)
      return "cache associativity > (size / line size)";
   return 0;
}

/* The largest power of two <= X, for X >= 1. */
static cs_u64 floor_power_of_2(cs_u64 x)
{
   cs_u64 p = 1;

   while (p <= x / 2)
      p *= 2;
   return p;
}

/* Callgrind: factor = (double)sets / new_sets, and the new associativity
   is (UInt)(0.5 + factor * assoc).  new_sets is a power of two and
   sets * assoc <= size / line < 2^31, so factor and factor * assoc are
   exact in a double and the sum 0.5 + factor * assoc is too; truncating
   it is floor(sets * assoc / new_sets + 1/2), which is
      (2 * sets * assoc + new_sets) / (2 * new_sets)
   in integers, a half rounding up in both.  The sizes are UInts there:
   the new size is kept to 32 bits as Callgrind's is. */
int cs_tweak_ll(CS_Geometry *g)
{
   cs_u64 size, assoc, line, sets, new_sets, new_assoc, new_size;

   if (g->size <= 0 || g->assoc <= 0 || g->line_size <= 0)
      return 0;
   size = (cs_u64)g->size;
   assoc = (cs_u64)g->assoc;
   line = (cs_u64)g->line_size;
   sets = size / (assoc * line);
   if (sets == 0)
      return 0;
   if (is_power_of_2(sets)) {
      new_sets = sets;
      new_assoc = assoc;
   } else {
      new_sets = floor_power_of_2(sets);
      new_assoc = (2 * sets * assoc + new_sets) / (2 * new_sets);
   }
   new_size = (line * new_assoc * new_sets) & 0xffffffffULL;
   if (new_size == size && new_assoc == assoc)
      return 0;
   g->size = (int)new_size;
   g->assoc = (int)new_assoc;
   return 1;
}

/* ------------------------------------------------------------------ */
/* Parsing --I1=, --D1=, --LL=                                         */
/* ------------------------------------------------------------------ */

/* One field as Valgrind's strtoll10 reads it: blanks, a sign, digits.
   Stores the value in *V (saturated past the int range) and returns
   where reading stopped, or 0 if there was no digit. */
static const char *read_int(const char *p, long long *v)
{
   long long n = 0;
   int neg = 0, digits = 0;

   while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\v' ||
          *p == '\f' || *p == '\r')
      p++;
   if (*p == '-' || *p == '+')
      neg = *p++ == '-';
   for (; *p >= '0' && *p <= '9'; p++, digits++)
      if (n <= 0x7fffffffLL)
         n = n * 10 + (*p - '0');
   if (digits == 0)
      return 0;
   *v = neg ? -n : n;
   return p;
}

const char *cs_parse(const char *text, CS_Geometry *g)
{
   static const char bad[] = "expected SIZE,ASSOC,LINE_SIZE (three integers)";
   long long v[3];
   const char *p = text;
   CS_Geometry r;
   const char *why;
   int i;

   for (i = 0; i < 3; i++) {
      p = read_int(p, &v[i]);
      if (p == 0 || *p != (i < 2 ? ',' : '\0'))
         return bad;
      p++;
   }
   for (i = 0; i < 3; i++)
      if (v[i] > 0x7fffffffLL || v[i] < -0x7fffffffLL - 1)
         return "one of the cache parameters was too large and overflowed";
   r.size = (int)v[0];
   r.assoc = (int)v[1];
   r.line_size = (int)v[2];
   why = cs_check(&r);
   if (why != 0)
      return why;
   *g = r;
   return 0;
}

/* ------------------------------------------------------------------ */
/* Description                                                         */
/* ------------------------------------------------------------------ */

/* Append the decimal form of V (Callgrind prints these ints with %d;
   a checked geometry has only positive ones) and return the new end. */
static char *put_int(char *p, int v)
{
   char digits[12];
   unsigned n = 0;
   unsigned long u;

   if (v < 0) {
      *p++ = '-';
      u = 0UL - (unsigned long)v;
   } else {
      u = (unsigned long)v;
   }
   do {
      digits[n++] = (char)('0' + u % 10);
      u /= 10;
   } while (u != 0);
   while (n > 0)
      *p++ = digits[--n];
   return p;
}

static char *put_str(char *p, const char *s)
{
   while (*s != '\0')
      *p++ = *s++;
   return p;
}

/* Callgrind's desc_line: "%d B, %d B, %d-way associative" (size, line,
   assoc) or "%d B, %d B, direct-mapped"; its ", sectored" suffix is
   never written (sectored caches are not simulated). */
int cs_desc(const CS_Geometry *g, char *buf)
{
   char *p = buf;

   p = put_int(p, g->size);
   p = put_str(p, " B, ");
   p = put_int(p, g->line_size);
   p = put_str(p, " B, ");
   if (g->assoc == 1) {
      p = put_str(p, "direct-mapped");
   } else {
      p = put_int(p, g->assoc);
      p = put_str(p, "-way associative");
   }
   *p = '\0';
   return (int)(p - buf);
}

/* ------------------------------------------------------------------ */
/* Caches                                                              */
/* ------------------------------------------------------------------ */

cs_word cs_tag_words(const CS_Geometry *g)
{
   return (cs_word)g->size / (cs_word)g->line_size;
}

/* The write-back mask is Callgrind's ~((1u << shift) - 1): computed in
   32 bits, so the bits above 31 of a 64-bit address are dropped (see
   the header). */
void cs_cache_init(CS_Cache *c, const CS_Geometry *g, cs_word *tags)
{
   unsigned shift;

   c->tags = tags;
   c->assoc = (unsigned)g->assoc;
   c->sets = (unsigned)(g->size / g->line_size / g->assoc);
   c->line_bits = log2_of((cs_u64)g->line_size);
   c->set_mask = (cs_word)c->sets - 1;
   shift = c->line_bits + log2_of(c->sets);
   c->wb_mask = (cs_word)(unsigned)~((1u << shift) - 1u);
   cs_cache_clear(c);
}

void cs_cache_clear(CS_Cache *c)
{
   cs_word i, n = (cs_word)c->sets * c->assoc;

   for (i = 0; i < n; i++)
      c->tags[i] = 0;
}

static void pf_clear(CS_Prefetch *pf)
{
   unsigned i;

   for (i = 0; i < CS_PF_STREAMS; i++) {
      pf->last[i] = 0;
      pf->run[i] = 0;
   }
}

void cs_sim_init(CS_Sim *s, const CS_Geometry *i1, const CS_Geometry *d1,
                 const CS_Geometry *ll, cs_word *tags)
{
   cs_cache_init(&s->i1, i1, tags);
   tags += cs_tag_words(i1);
   cs_cache_init(&s->d1, d1, tags);
   tags += cs_tag_words(d1);
   cs_cache_init(&s->ll, ll, tags);
   pf_clear(&s->pf);
   s->pf.up = s->pf.down = 0;
}

/* The prefetch counts (statistics, not state) are kept. */
void cs_sim_clear(CS_Sim *s)
{
   cs_cache_clear(&s->i1);
   cs_cache_clear(&s->d1);
   cs_cache_clear(&s->ll);
   pf_clear(&s->pf);
}
