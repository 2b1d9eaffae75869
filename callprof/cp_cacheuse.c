/* cp_cacheuse.c: setting up, clearing and finishing cache-use records.

   Copyright (C) 2026 The heapsnap/callprof developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   The cold half of --cacheuse=yes; cp_cacheuse.h explains the model and
   holds the accesses.  Plain C without any library, like the rest of
   the simulator, so that it also builds on the host. */

#include "cp_cacheuse.h"

/* Callgrind keeps the way index in the tag bits below the address part
   (the line offset and set index), so there must be room for it. */
const char *cs_use_check(const CS_Cache *c)
{
   if ((cs_word)c->assoc > (~c->wb_mask & 0xffffffffUL) + 1)
      return "associativity too high for cache use statistics "
             "(at most line size * sets)";
   return 0;
}

static void use_clear(CS_Cache *c, CS_Use *rec)
{
   cs_word i, n = (cs_word)c->sets * c->assoc;

   for (i = 0; i < n; i++) {
      c->tags[i] = i % c->assoc;
      rec[i].cost = 0;
      rec[i].mask = 0;
      rec[i].count = 0;
      rec[i].dep = 0;
   }
}

void cs_use_clear(CS_Sim *s, CS_UseSim *u)
{
   use_clear(&s->i1, u->rec[CS_USE_I1]);
   use_clear(&s->d1, u->rec[CS_USE_D1]);
   use_clear(&s->ll, u->rec[CS_USE_LL]);
}

void cs_use_init(CS_Sim *s, CS_UseSim *u, CS_Use *recs)
{
   u->rec[CS_USE_I1] = recs;
   recs += (cs_word)s->i1.sets * s->i1.assoc;
   u->rec[CS_USE_D1] = recs;
   recs += (cs_word)s->d1.sets * s->d1.assoc;
   u->rec[CS_USE_LL] = recs;
   u->collect = 1;
   cs_use_clear(s, u);
}

/* Charge and forget every line of cache C (records REC); L1 lines (L1)
   add their use to their LL line as they go. */
static void finish_cache(CS_UseSim *u, const CS_Cache *c, CS_Use *rec,
                         int l1)
{
   cs_word i, n = (cs_word)c->sets * c->assoc;

   for (i = 0; i < n; i++) {
      CS_Use *x = &rec[i];
      if (x->cost == 0)
         continue;
      if (l1)
         cs_use_charge_l1(u, c, x);
      else
         (void)cs_use_charge(u, c, x, 2);
      x->cost = 0;
      x->count = 0;
      x->mask = 0;
   }
}

void cs_use_finish(CS_Sim *s, CS_UseSim *u)
{
   if (!u->collect)
      return;
   finish_cache(u, &s->i1, u->rec[CS_USE_I1], 1);
   finish_cache(u, &s->d1, u->rec[CS_USE_D1], 1);
   finish_cache(u, &s->ll, u->rec[CS_USE_LL], 0);
}
