/* cp_events.c: the events callprof counts, and where their counters are.

   Copyright (C) 2026 The heapsnap/callprof developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   This file owns two layouts that the rest of callprof only asks about.

   The events of a run: Ir always, and the events the options add, in
   Callgrind's order (the table below).  They are the columns of the
   output file, and every cost vector of callprof (an arc's inclusive
   cost, a system call's cost, a cost line being written) holds exactly
   CP_(n_ev) of them, in that order: a run counting Ir alone keeps one
   number per arc, not one per event callprof knows.

   The counters of a block.  Generated code adds to one array of ULongs
   per block and context (cp.h, CP_Block.count and CP_Foreign.count):

      [0, n_runs)                 executions of each run (Ir: a run's
                                  instructions each ran that often)
      [n_runs, n_runs + n_exits)  --collect-jumps: times each side exit
                                  was taken
      [sim_off, ...)              the simulations' counters of each
                                  instruction in turn, from its
                                  CP_SimInstr.off (CP_(block_slots)):

           at .fe, if its fetch can miss (CP_(sim_fetch_needed): most
           instructions are in the line their predecessor ended in and
           call no fetch helper), its fetch's L1 and LL misses (and
           dirty LL misses with --simulate-wb); its fetches are the Ir
           above;
           at .rd if it reads, .wr if it writes, class_width counters:
           the accesses, L1 misses, LL misses (and dirty LL misses with
           --simulate-wb: class_width 4, else 3);
           at .br, --branch-sim, if it ends in a branch: Bc Bcm Bi Bim;
           at .us, --cacheuse with --cache-sim, if it can load a line
           (a fetch that can miss, a read or a write): AcCost1 SpLoss1
           AcCost2 SpLoss2.

   Nothing is kept for an event that is not counted, nor for an access
   class an instruction does not have (Callgrind's way: most
   instructions neither read nor write memory), nor for misses that
   cannot happen: without any simulation a block has its run (and exit)
   counters only.
   CP_(instr_cost) turns one instruction's counters into the output
   columns; cp_dump.c writes those and never looks inside a block's
   array itself. */

#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"

#include "cp.h"

/*------------------------------------------------------------*/
/*--- The events                                           ---*/
/*------------------------------------------------------------*/

Int          CP_(n_ev), CP_(ev_ge) = -1, CP_(ev_sys) = -1;
Int          CP_(ev_bc) = -1, CP_(ev_use) = -1;
const HChar *CP_(ev_name)[CP_MAX_EV];
CP_InstrSlots CP_(islots);

/* Every event callprof can count, in Callgrind's order, with the
   options that add it. */
typedef enum { EvAlways, EvCache, EvWb, EvBranch, EvUse, EvBus, EvSys,
               EvSysNsec } EvGroup;
static const struct { const HChar *name; EvGroup group; } all_events[] = {
   { "Ir", EvAlways },
   { "Dr", EvCache }, { "Dw", EvCache }, { "I1mr", EvCache },
   { "D1mr", EvCache }, { "D1mw", EvCache }, { "ILmr", EvCache },
   { "DLmr", EvCache }, { "DLmw", EvCache },
   { "ILdmr", EvWb }, { "DLdmr", EvWb }, { "DLdmw", EvWb },
   { "Bc", EvBranch }, { "Bcm", EvBranch }, { "Bi", EvBranch },
   { "Bim", EvBranch },
   { "AcCost1", EvUse }, { "SpLoss1", EvUse }, { "AcCost2", EvUse },
   { "SpLoss2", EvUse },
   { "Ge", EvBus },
   { "sysCount", EvSys }, { "sysTime", EvSys }, { "sysCpuTime", EvSysNsec },
};
#define N_ALL_EVENTS (sizeof all_events / sizeof all_events[0])
/* Every option at once gives every event. */
typedef char all_events_fit[N_ALL_EVENTS <= CP_MAX_EV ? 1 : -1];

/* "expected an event: Ir, or with the options that add them Dr Dw ..." */
static const HChar *known_events_text(void)
{
   static HChar text[256];
   Int n = VG_(snprintf)(text, sizeof text, "expected an event: %s, or with "
                         "the options that add them", all_events[0].name);
   UInt k;
   for (k = 1; k < N_ALL_EVENTS && n < (Int)sizeof text; k++)
      if (all_events[k].group != EvUse)
         n += VG_(snprintf)(text + n, sizeof text - n, " %s",
                            all_events[k].name);
   return text;
}

const HChar *CP_(folded_event_check)(const HChar *name)
{
   UInt k;
   for (k = 0; k < N_ALL_EVENTS; k++)
      if (VG_STREQ(name, all_events[k].name))
         break;
   if (k == N_ALL_EVENTS)
      return known_events_text();
   /* Charged when lines are evicted, to no call path (cp_cacheuse.h). */
   if (all_events[k].group == EvUse)
      return "cache use is charged to single instructions, not to call "
             "paths";
   return NULL;
}

static Bool group_on(EvGroup g)
{
   switch (g) {
   case EvAlways:  return True;
   case EvCache:   return CP_(clo_cache_sim);
   case EvWb:      return CP_(clo_cache_sim) && CP_(clo_simulate_wb);
   case EvBranch:  return CP_(clo_branch_sim);
   /* As in Callgrind, even when --cache-sim=no came after (all 0). */
   case EvUse:     return CP_(clo_cacheuse);
   case EvBus:     return CP_(clo_collect_bus);
   case EvSys:     return CP_(clo_collect_systime) != CP_SYS_NO;
   case EvSysNsec: return CP_(clo_collect_systime) == CP_SYS_NSEC;
   }
   return False;
}

void CP_(events_init)(void)
{
   CP_InstrSlots *s = &CP_(islots);
   UInt k;

   for (k = 0; k < N_ALL_EVENTS; k++) {
      EvGroup g = all_events[k].group;
      if (!group_on(g))
         continue;
      if (g == EvBranch && CP_(ev_bc) < 0)
         CP_(ev_bc) = CP_(n_ev);
      else if (g == EvUse && CP_(ev_use) < 0)
         CP_(ev_use) = CP_(n_ev);
      else if (g == EvBus)
         CP_(ev_ge) = CP_(n_ev);
      else if (g == EvSys && CP_(ev_sys) < 0)
         CP_(ev_sys) = CP_(n_ev);
      CP_(ev_name)[CP_(n_ev)++] = all_events[k].name;
   }

   /* The simulations' counters of one instruction (see the top). */
   s->class_width = !CP_(clo_cache_sim) ? 0 : CP_(clo_simulate_wb) ? 4 : 3;
   s->branches = CP_(clo_branch_sim) ? 4 : 0;
   s->use = CP_(clo_cache_sim) && CP_(clo_cacheuse) ? 4 : 0;
   s->any = s->class_width + s->branches + s->use > 0;
}

/*------------------------------------------------------------*/
/*--- A block's counters                                   ---*/
/*------------------------------------------------------------*/

/* The offset of a class of N counters at N_AT if WANTED (N_AT moves
   past them), else CP_SIM_NONE. */
static UChar place(Bool wanted, UInt n, UInt *n_at)
{
   UInt at = *n_at;
   if (!wanted || n == 0)
      return CP_SIM_NONE;
   *n_at += n;
   return (UChar)at;
}

UInt CP_(block_slots)(CP_Block *b)
{
   const CP_InstrSlots *s = &CP_(islots);
   UInt k, at;
   b->sim_off = b->n_runs + (b->exits ? b->n_exits : 0);
   at = b->sim_off;
   if (b->sim)
      for (k = 0; k < b->n_instrs; k++) {
         CP_SimInstr *ii = &b->sim[k];
         Bool fetch = s->class_width && CP_(sim_fetch_needed)(b, k);
         Bool rd = ii->rd, wr = ii->wr, br = ii->br;
         UInt n = 0;
         tl_assert(at <= 0xffff);
         ii->off = (UShort)at;
         ii->fe = place(fetch, s->class_width - 1, &n);
         ii->rd = place(rd, s->class_width, &n);
         ii->wr = place(wr, s->class_width, &n);
         ii->br = place(br, s->branches, &n);
         ii->us = place(fetch || rd || wr, s->use, &n);
         at += n;
      }
   return at;
}

void CP_(instr_cost)(const CP_Block *b, UInt i, const ULong *count,
                     ULong *ev)
{
   const CP_InstrSlots *s = &CP_(islots);
   const CP_SimInstr *ii;
   const ULong *c;
   Int k;

   for (k = 0; k < CP_(n_ev); k++)
      ev[k] = 0;
   ev[0] = count[b->run_of[i]];
   if (b->bus && CP_(ev_ge) >= 0)
      ev[CP_(ev_ge)] = ev[0] * b->bus[i];
   if (b->sim == NULL)
      return;
   ii = &b->sim[i];
   c = count + ii->off;
   if (ii->fe != CP_SIM_NONE) {            /* the fetch's misses */
      ev[CP_EV_I1MR] = c[ii->fe];
      ev[CP_EV_ILMR] = c[ii->fe + 1];
      if (s->class_width == 4)
         ev[CP_EV_ILDMR] = c[ii->fe + 2];
   }
   for (k = 1; k <= 2; k++) {              /* read, write */
      UChar at = k == 1 ? ii->rd : ii->wr;
      if (at == CP_SIM_NONE)
         continue;
      ev[CP_EV_DR + k - 1] = c[at];
      ev[CP_EV_I1MR + k] = c[at + 1];
      ev[CP_EV_ILMR + k] = c[at + 2];
      if (s->class_width == 4)
         ev[CP_EV_ILDMR + k] = c[at + 3];
   }
   if (CP_(ev_bc) >= 0 && ii->br != CP_SIM_NONE)
      for (k = 0; k < 4; k++)
         ev[CP_(ev_bc) + k] = c[ii->br + k];
   if (CP_(ev_use) >= 0 && ii->us != CP_SIM_NONE)
      for (k = 0; k < 4; k++)
         ev[CP_(ev_use) + k] = c[ii->us + k];
}
