/* cp_main.c: callprof, a profiler that writes Callgrind's format.

   Copyright (C) 2026 The heapsnap/callprof developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   What it does.  callprof counts executed guest instructions (the event
   Ir) per instruction and the calls between functions, and at exit
   writes them per object, file, function and line (or per instruction
   with --dump-instr=yes), with call arcs, their call counts and
   inclusive costs, in Callgrind's format through profwriter's pw_cg_*
   emitters, so callgrind_annotate and KCachegrind read them unchanged.
   On the same program, its numbers are Callgrind's: the same total, the
   same self cost per function, the same calls per arc.

   Options are Callgrind's, with its names, defaults and meanings (see
   docs/callprof.md); --folded-out-file is ours.  Function patterns
   (--fn-skip, --dump-before, ...) are Callgrind's: '*' matches any
   string, '?' one character, against the whole function name; an
   option may be given many times.

   This file holds the options and the setup: which core events callprof
   follows and what it asks of the core's translation (as Callgrind: no
   chasing of branches, no unrolling, so blocks are Callgrind's).  The
   design is described in cp.h; cp_bb.c, cp_calls.c and cp_dump.c do the
   work. */

#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "pub_tool_tooliface.h"
#include "pub_tool_xarray.h"

#include "clo.h"
#include "cp.h"
#include "profwriter.h"

/*------------------------------------------------------------*/
/*--- Options                                              ---*/
/*------------------------------------------------------------*/

const HChar *CP_(clo_out_file)         = "callprof.out.%p";
static const HChar *out_option         = "--callprof-out-file"; /* as given */
Bool         CP_(clo_dump_instr)       = False;
Bool         CP_(clo_dump_line)        = True;
Bool         CP_(clo_compress_strings) = True;
Bool         CP_(clo_compress_pos)     = True;
Bool         CP_(clo_skip_plt)         = True;
Bool         CP_(clo_fold_plt)         = True;
Bool         CP_(clo_chain_guess)      = True;
Bool         CP_(clo_collect_jumps)    = False;
Bool         CP_(clo_collect_atstart)  = True;
Bool         CP_(clo_instr_atstart)    = True;
Bool         CP_(clo_separate_threads) = False;
Bool         CP_(clo_collect_bus)      = False;
Bool         CP_(clo_skip_direct_rec)  = False;
Bool         CP_(clo_combine_dumps)    = False;
Int          CP_(clo_collect_systime)  = CP_SYS_NO;
ULong        CP_(clo_dump_every_bb)    = 0;
UInt         CP_(clo_dump_every)       = 0;
const HChar *CP_(clo_folded_out_file)  = NULL;
static const HChar *clo_folded_event      = "Ir";
Int          CP_(folded_ev)            = 0;
static Bool glob(const HChar *p, const HChar *s);

/* --separate-callers=N, and --separate-callers<N>=<f> (the last
   matching pattern wins). */
static Long  clo_separate_callers      = 0;
static XArray *callers_patterns;
Bool CP_(separate_callers_on)          = False;
/* --separate-recs=N, and --separate-recs<N>=<f> (the last matching
   pattern wins). */
static Long  clo_separate_recs         = 2;
typedef struct { const HChar *pat; Long n; } RecPattern;
static XArray *rec_patterns;

/* N for function NAME: that of the last pattern of PATS it matches,
   else DFLT. */
static UInt separate_n(const XArray *pats, Long dflt, const HChar *name)
{
   Word i;
   Long n = dflt;
   if (pats)
      for (i = 0; i < VG_(sizeXA)(pats); i++) {
         const RecPattern *r = VG_(indexXA)(pats, i);
         if (glob(r->pat, name))
            n = r->n;
      }
   return (UInt)n;
}

UInt CP_(separate_recs_of)(const HChar *name)
{
   return separate_n(rec_patterns, clo_separate_recs, name);
}

UInt CP_(separate_callers_of)(const HChar *name)
{
   return separate_n(callers_patterns, clo_separate_callers, name);
}

/* The patterns of each kind, as given. */
static XArray *patterns[CP_N_PAT];

static void add_pattern(Int kind, const HChar *pat)
{
   if (patterns[kind] == NULL)
      patterns[kind] = VG_(newXA)(VG_(malloc), "cp.main.patterns.1",
                                  VG_(free), sizeof(const HChar *));
   VG_(addToXA)(patterns[kind], &pat);
}

/* Callgrind's wildcards: '*' any string (also empty), '?' one
   character. */
static Bool glob(const HChar *p, const HChar *s)
{
   for (; *p; p++, s++) {
      if (*p == '*') {
         for (;;) {
            if (glob(p + 1, s))
               return True;
            if (*s == '\0')
               return False;
            s++;
         }
      }
      if (*s == '\0' || (*p != '?' && *p != *s))
         return False;
   }
   return *s == '\0';
}

Bool CP_(fn_matches)(Int kind, const HChar *name)
{
   Word i;
   if (patterns[kind] == NULL)
      return False;
   for (i = 0; i < VG_(sizeXA)(patterns[kind]); i++)
      if (glob(*(const HChar **)VG_(indexXA)(patterns[kind], i), name))
         return True;
   return False;
}

/* --separate-callers=N, --separate-callersN=FN (and -recs): the value,
   or the digits before '=' with a pattern (kept in PATS if not NULL). */
static Bool separate_option(const HChar *arg, const HChar *name, Long *n,
                            XArray **pats)
{
   SizeT len = VG_(strlen)(name);
   const HChar *p = arg + len, *v;
   if (VG_(strncmp)(arg, name, len) != 0)
      return False;
   if (*p == '=') {
      *n = clo_long(arg, p + 1, 0, 100);
   } else {
      HChar *end;
      Long k = VG_(strtoll10)(p, &end);
      if (end == p || *end != '=' || k < 0 || k > 100)
         clo_reject(arg, "expected =<n> or <n>=<function>");
      v = end + 1;
      if (*v == '\0')
         clo_reject(arg, "expected a function name after '='");
      if (pats) {
         RecPattern r = { v, k };
         if (*pats == NULL)
            *pats = VG_(newXA)(VG_(malloc), "cp.main.recs.1", VG_(free),
                               sizeof(RecPattern));
         VG_(addToXA)(*pats, &r);
      }
   }
   return True;
}

static Bool cp_process_cmd_line_option(const HChar *arg)
{
   const HChar *v;

   if (clo_match(arg, "--callprof-out-file", &v) ||
       clo_match(arg, "--callgrind-out-file", &v)) {
      const HChar *err = pw_template_check(v);
      if (err)
         clo_reject(arg, err);
      CP_(clo_out_file) = v;
      out_option = VG_(strncmp)(arg, "--callgrind", 11) == 0 ?
                   "--callgrind-out-file" : "--callprof-out-file";
   }
   else if (clo_match(arg, "--dump-instr", &v))
      CP_(clo_dump_instr) = clo_bool(arg, v);
   else if (clo_match(arg, "--dump-line", &v))
      CP_(clo_dump_line) = clo_bool(arg, v);
   else if (clo_match(arg, "--compress-strings", &v))
      CP_(clo_compress_strings) = clo_bool(arg, v);
   else if (clo_match(arg, "--compress-pos", &v))
      CP_(clo_compress_pos) = clo_bool(arg, v);
   else if (clo_match(arg, "--skip-plt", &v))
      CP_(clo_skip_plt) = clo_bool(arg, v);
   else if (clo_match(arg, "--fold-plt", &v))
      CP_(clo_fold_plt) = clo_bool(arg, v);
   else if (clo_match(arg, "--chain-guess", &v))
      CP_(clo_chain_guess) = clo_bool(arg, v);
   else if (clo_match(arg, "--collect-jumps", &v))
      CP_(clo_collect_jumps) = clo_bool(arg, v);
   else if (clo_match(arg, "--collect-atstart", &v))
      CP_(clo_collect_atstart) = clo_bool(arg, v);
   else if (clo_match(arg, "--instr-atstart", &v))
      CP_(clo_instr_atstart) = clo_bool(arg, v);
   else if (clo_match(arg, "--separate-threads", &v))
      CP_(clo_separate_threads) = clo_bool(arg, v);
   else if (clo_match(arg, "--collect-bus", &v))
      CP_(clo_collect_bus) = clo_bool(arg, v);
   else if (clo_match(arg, "--skip-direct-rec", &v))
      CP_(clo_skip_direct_rec) = clo_bool(arg, v);
   else if (clo_match(arg, "--combine-dumps", &v))
      CP_(clo_combine_dumps) = clo_bool(arg, v);
   else if (clo_match(arg, "--collect-systime", &v)) {
      if (VG_STREQ(v, "no"))
         CP_(clo_collect_systime) = CP_SYS_NO;
      else if (VG_STREQ(v, "yes") || VG_STREQ(v, "msec"))
         CP_(clo_collect_systime) = CP_SYS_MSEC;
      else if (VG_STREQ(v, "usec"))
         CP_(clo_collect_systime) = CP_SYS_USEC;
      else if (VG_STREQ(v, "nsec"))
         CP_(clo_collect_systime) = CP_SYS_NSEC;
      else
         clo_reject(arg, "expected no, yes, msec, usec or nsec");
   }
   else if (clo_match(arg, "--dump-every-bb", &v))
      CP_(clo_dump_every_bb) = clo_long(arg, v, 0, 0x7fffffffffffffffLL);
   else if (clo_match(arg, "--dump-every", &v))
      CP_(clo_dump_every) = (UInt)clo_long(arg, v, 0, 1000000);
   else if (clo_match(arg, "--fn-skip", &v) ||
            clo_match(arg, "--dump-before", &v) ||
            clo_match(arg, "--dump-after", &v) ||
            clo_match(arg, "--zero-before", &v) ||
            clo_match(arg, "--toggle-collect", &v)) {
      Int kind = arg[2] == 'f' ? CP_PAT_SKIP :
                 arg[2] == 'z' ? CP_PAT_ZERO_BEFORE :
                 arg[2] == 't' ? CP_PAT_TOGGLE :
                 arg[7] == 'b' ? CP_PAT_DUMP_BEFORE : CP_PAT_DUMP_AFTER;
      if (*v == '\0')
         clo_reject(arg, "expected a function name (wildcards * and ?)");
      add_pattern(kind, v);
      /* As Callgrind: collection starts off, unless a later
         --collect-atstart says otherwise. */
      if (kind == CP_PAT_TOGGLE)
         CP_(clo_collect_atstart) = False;
   }
   else if (separate_option(arg, "--separate-callers", &clo_separate_callers,
                            &callers_patterns))
      ;
   else if (separate_option(arg, "--separate-recs", &clo_separate_recs,
                            &rec_patterns))
      ;
   else if (CP_(sim_option)(arg))
      ;
   else if (clo_match(arg, "--folded-event", &v)) {
      /* Whether the profile will have the event is known only after the
         last option (folded_event_index); a name of no event at all is
         refused here. */
      const HChar *err = CP_(folded_event_check)(v);
      if (err)
         clo_reject(arg, err);
      clo_folded_event = v;
   }
   else if (clo_match(arg, "--folded-out-file", &v)) {
      const HChar *err = pw_template_check(v);
      if (err)
         clo_reject(arg, err);
      CP_(clo_folded_out_file) = v;
   }
   else
      return clo_unknown(arg);
   return True;
}

static void cp_print_usage(void)
{
   VG_(printf)(
"\n   dump creation options:\n"
"    --callprof-out-file=<file>  output file name [callprof.out.%%p]\n"
"                                (%%p pid, %%n sequence, %%q{VAR} env var);\n"
"                                --callgrind-out-file is accepted too;\n"
"                                dumps before the end add .1, .2, ...\n"
"    --dump-line=no|yes          costs per source line [yes]\n"
"    --dump-instr=no|yes         costs per instruction [no]\n"
"    --compress-strings=no|yes   name compression with (id) [yes]\n"
"    --compress-pos=no|yes       relative positions [yes]\n"
"    --combine-dumps=no|yes      all dumps into one file, a part each [no]\n"
"    --folded-out-file=<file>    also write folded stacks (flame graphs),\n"
"                                self Ir per call path [none]\n"
"    --folded-event=<event>      the event of the folded stacks, one of\n"
"                                the profile's events (Dr, D1mr, Bcm ...) [Ir]\n"
"\n   activity options:\n"
"    --dump-every-bb=<count>     dump every <count> basic blocks [0=never]\n"
"    --dump-every=<seconds>      dump every <seconds> of run time [0=never]\n"
"    --dump-before=<func>        dump when entering function\n"
"    --zero-before=<func>        zero all costs when entering function\n"
"    --dump-after=<func>         dump when leaving function\n"
"\n   data collection options:\n"
"    --instr-atstart=no|yes      instrument from the start [yes]\n"
"    --collect-atstart=no|yes    collect at process/thread start [yes]\n"
"    --toggle-collect=<func>     toggle collection on enter/leave function;\n"
"                                collection then starts off (unless a later\n"
"                                --collect-atstart=yes)\n"
"    --collect-jumps=no|yes      collect jumps (jump=, jcnd=) [no]\n"
"    --collect-bus=no|yes        collect global bus events (Ge) [no]\n"
"    --collect-systime=no|yes|msec|usec|nsec  collect system call time [no]\n"
"        no         no system call information\n"
"        msec|yes   sysCount, sysTime (elapsed, milliseconds)\n"
"        usec       sysCount, sysTime (elapsed, microseconds)\n"
"        nsec       sysCount, sysTime, sysCpuTime (nanoseconds)\n"
"\n   cost entity separation options:\n"
"    --separate-threads=no|yes   one file per thread (-01, -02 ...) [no]\n"
"    --separate-callers=<n>      callers kept apart (fn'caller ...) [0]\n"
"    --separate-callers<n>=<f>   the same for function <f>\n"
"    --separate-recs=<n>         recursion levels kept apart (fn'2 ...) [2]\n"
"    --separate-recs<n>=<f>      the same for function <f>\n"
"    --skip-direct-rec=no|yes    a function calling itself directly stays\n"
"                                at its recursion level [no]\n"
"    --skip-plt=no|yes           count PLT code in its caller [yes]\n"
"    --fn-skip=<func>            count function in its caller\n"
"    (<func>: a function name; * and ? are wildcards)\n"
"\n   cache simulation options:\n"
"    --cache-sim=no|yes          simulate I1, D1 and LL caches [no]\n"
"                                (--simulate-cache is accepted too)\n"
"    --I1=<size>,<assoc>,<line_size>  set I1 cache manually\n"
"    --D1=<size>,<assoc>,<line_size>  set D1 cache manually\n"
"    --LL=<size>,<assoc>,<line_size>  set LL cache manually\n"
"    --simulate-wb=no|yes        count dirty LL misses (write-backs):\n"
"                                ILdmr DLdmr DLdmw [no]\n"
"    --simulate-hwpref=no|yes    simulate a hardware prefetcher in front\n"
"                                of LL [no]\n"
"    --cacheuse=no|yes           charge each line's use to the instruction\n"
"                                that loaded it: AcCost1 SpLoss1 AcCost2\n"
"                                SpLoss2; sets --dump-instr=yes [no]\n"
"    --branch-sim=no|yes         simulate branch prediction:\n"
"                                Bc Bcm Bi Bim [no]\n");
}

static void cp_print_debug_usage(void)
{
   VG_(printf)(
"    --fold-plt=no|yes           make a call through a PLT stub and the\n"
"                                stub's jump one transition (the same\n"
"                                profile, faster) [yes]\n"
"    --chain-guess=no|yes        chain an indirect exit to the target it\n"
"                                had when translated (the same profile,\n"
"                                faster) [yes]\n");
}

/*------------------------------------------------------------*/
/*--- Setup                                                ---*/
/*------------------------------------------------------------*/

/* Callgrind's blocks: a superblock ends at the first branch (no
   chasing) and loops are not unrolled, so blocks start where
   Callgrind's do, and its decisions at block boundaries are ours.  The
   stack pointer is up to date at memory accesses, as in Callgrind. */
static void set_translation(void)
{
   VG_(clo_vex_control).iropt_unroll_thresh = 0;
   VG_(clo_vex_control).guest_chase = False;
}


/* --folded-event's index among the events (known only now). */
static Int folded_event_index(void)
{
   HChar allowed[256];
   Int k, n = 0;
   for (k = 0; k < CP_(n_ev); k++)
      if (VG_STREQ(CP_(ev_name)[k], clo_folded_event))
         return k;
   n += VG_(snprintf)(allowed, sizeof allowed, "expected one of the "
                      "profile's events:");
   for (k = 0; k < CP_(n_ev) && n < (Int)sizeof allowed; k++)
      n += VG_(snprintf)(allowed + n, sizeof allowed - n, " %s",
                         CP_(ev_name)[k]);
   VG_(fmsg)("--folded-event=%s: %s\n", clo_folded_event, allowed);
   VG_(exit)(1);
}

static void cp_post_clo_init(void)
{
   /* Files that cannot be written: said now, not after the run. */
   pw_vg_check_output(out_option, CP_(clo_out_file), "callprof",
                      PW_MODE_CALLGRIND);
   if (CP_(clo_folded_out_file))
      pw_vg_check_output("--folded-out-file", CP_(clo_folded_out_file),
                         "callprof", PW_MODE_CALLGRIND);
   set_translation();
   /* --dump-every-bb dumps when the core's scheduler runs, which
      chained exits change (include/ir_chain.h): its dumps are
      Callgrind's without them. */
   if (CP_(clo_dump_every_bb) > 0)
      CP_(clo_chain_guess) = False;
   CP_(sim_post_clo_init)();    /* settles which simulation options hold */
   CP_(events_init)();
   CP_(folded_ev) = folded_event_index();
   CP_(separate_callers_on) = clo_separate_callers > 0 ||
                              callers_patterns != NULL;
   CP_(instrumenting) = CP_(clo_instr_atstart);
   CP_(calls_init)();
   CP_(thread_start)(1);
}

/* The width of N printed with thousands separators. */
static Int width_of(ULong n)
{
   Int w = 1;
   while (n >= 10)
      n /= 10, w++;
   return w + (w - 1) / 3;
}

static Int max_i(Int a, Int b)
{
   return a > b ? a : b;
}

/* Callgrind's end-of-run summary (callgrind/main.c, finish; sim.c,
   cachesim_printstat), the figures and layout it prints, from the totals
   of the files written:

      Events    : Ir Dr Dw I1mr ...
      Collected : 145570 29400 13363 ...      (trailing zeros left off)

      I   refs:      145,570
      I1  misses:      1,243                  (--cache-sim=yes: the
      ...                                      instruction, data and LL
      LL miss rate:      1.4% (   1.1%  ...    blocks)

      Branches:       29,752  (29,455 cond +    297 ind)   (--branch-sim)
      Mispredicts:     3,424  ( 3,265 cond +    159 ind)
      Mispred rate:     11.5% (  11.1%     +   53.5%   )  */
static void print_summary(void)
{
   const ULong *t = CP_(collected);
   HChar line[1024];
   Int k, n = 0, skipped = 0, l1, l2 = 0, l3 = 0;
   ULong ir = t[0];

   if (VG_(clo_verbosity) == 0)
      return;
   n = VG_(snprintf)(line, sizeof line, "Events    :");
   for (k = 0; k < CP_(n_ev); k++)
      n += VG_(snprintf)(line + n, sizeof line - n, " %s", CP_(ev_name)[k]);
   VG_(umsg)("%s\n", line);
   n = VG_(snprintf)(line, sizeof line, "Collected : %llu", t[0]);
   for (k = 1; k < CP_(n_ev); k++) {
      if (t[k] == 0) {
         skipped++;
         continue;
      }
      for (; skipped > 0; skipped--)
         n += VG_(snprintf)(line + n, sizeof line - n, " 0");
      n += VG_(snprintf)(line + n, sizeof line - n, " %llu", t[k]);
   }
   VG_(umsg)("%s\n", line);
   VG_(umsg)("\n");

   l1 = width_of(ir);
   if (CP_(clo_cache_sim)) {
      l2 = width_of(t[CP_EV_DR]);
      l3 = width_of(t[CP_EV_DW]);
   }
   if (CP_(clo_branch_sim)) {
      l2 = max_i(l2, width_of(t[CP_(ev_bc)]));
      l3 = max_i(l3, width_of(t[CP_(ev_bc) + 2]));
   }
   VG_(umsg)("I   refs:      %'*llu\n", l1, ir);

   if (CP_(clo_cache_sim)) {
      ULong dr = t[CP_EV_DR], dw = t[CP_EV_DW];
      ULong d = dr + dw, d1 = t[CP_EV_D1MR] + t[CP_EV_D1MW],
            dl = t[CP_EV_DLMR] + t[CP_EV_DLMW];
      ULong llr = t[CP_EV_D1MR] + t[CP_EV_I1MR], llw = t[CP_EV_D1MW];
      ULong llmr = t[CP_EV_DLMR] + t[CP_EV_ILMR], llmw = t[CP_EV_DLMW];
      /* As Callgrind, a zero divisor counts as one. */
      ULong ir1 = ir ? ir : 1, d_1 = d ? d : 1, dr1 = dr ? dr : 1,
            dw1 = dw ? dw : 1;
      VG_(umsg)("I1  misses:    %'*llu\n", l1, t[CP_EV_I1MR]);
      VG_(umsg)("LLi misses:    %'*llu\n", l1, t[CP_EV_ILMR]);
      VG_(umsg)("I1  miss rate: %*.2f%%\n", l1, t[CP_EV_I1MR] * 100.0 / ir1);
      VG_(umsg)("LLi miss rate: %*.2f%%\n", l1, t[CP_EV_ILMR] * 100.0 / ir1);
      VG_(umsg)("\n");
      VG_(umsg)("D   refs:      %'*llu  (%'*llu rd + %'*llu wr)\n",
                l1, d, l2, dr, l3, dw);
      VG_(umsg)("D1  misses:    %'*llu  (%'*llu rd + %'*llu wr)\n",
                l1, d1, l2, t[CP_EV_D1MR], l3, t[CP_EV_D1MW]);
      VG_(umsg)("LLd misses:    %'*llu  (%'*llu rd + %'*llu wr)\n",
                l1, dl, l2, t[CP_EV_DLMR], l3, t[CP_EV_DLMW]);
      VG_(umsg)("D1  miss rate: %*.1f%% (%*.1f%%   + %*.1f%%  )\n",
                l1, d1 * 100.0 / d_1, l2, t[CP_EV_D1MR] * 100.0 / dr1,
                l3, t[CP_EV_D1MW] * 100.0 / dw1);
      VG_(umsg)("LLd miss rate: %*.1f%% (%*.1f%%   + %*.1f%%  )\n",
                l1, dl * 100.0 / d_1, l2, t[CP_EV_DLMR] * 100.0 / dr1,
                l3, t[CP_EV_DLMW] * 100.0 / dw1);
      VG_(umsg)("\n");
      VG_(umsg)("LL refs:       %'*llu  (%'*llu rd + %'*llu wr)\n",
                l1, llr + llw, l2, llr, l3, llw);
      VG_(umsg)("LL misses:     %'*llu  (%'*llu rd + %'*llu wr)\n",
                l1, llmr + llmw, l2, llmr, l3, llmw);
      VG_(umsg)("LL miss rate:  %*.1f%% (%*.1f%%   + %*.1f%%  )\n",
                l1, (llmr + llmw) * 100.0 / (ir1 + d_1),
                l2, llmr * 100.0 / (ir1 + dr1), l3, llmw * 100.0 / dw1);
   }
   if (CP_(clo_branch_sim)) {
      Int b = CP_(ev_bc);
      ULong bc = t[b], bi = t[b + 2], bcm = t[b + 1], bim = t[b + 3];
      /* As above, a zero divisor counts as one (for the rates only). */
      ULong bc1 = bc ? bc : 1, bi1 = bi ? bi : 1, all1 = bc + bi ? bc + bi : 1;
      VG_(umsg)("\n");
      VG_(umsg)("Branches:      %'*llu  (%'*llu cond + %'*llu ind)\n",
                l1, bc + bi, l2, bc, l3, bi);
      VG_(umsg)("Mispredicts:   %'*llu  (%'*llu cond + %'*llu ind)\n",
                l1, bcm + bim, l2, bcm, l3, bim);
      VG_(umsg)("Mispred rate:  %*.1f%% (%*.1f%%     + %*.1f%%   )\n",
                l1, (bcm + bim) * 100.0 / all1, l2, bcm * 100.0 / bc1,
                l3, bim * 100.0 / bi1);
   }
}

static void cp_fini(Int exitcode)
{
   CP_(sim_finish)();
   CP_(calls_fini)();
   if (VG_(clo_stats))
      CP_(bb_stats)();
   CP_(dump)(NULL, False);
   print_summary();
}

static void cp_start_client_code(ThreadId tid, ULong blocks_done)
{
   CP_(thread_start)(tid);
   CP_(bb_dump_check)(blocks_done);
   CP_(time_dump_check)();
   CP_(resume)(tid);
}

static void cp_stop_client_code(ThreadId tid, ULong blocks_done)
{
   CP_(clock_fold)(tid);
   CP_(thread_stop)(tid);
}

/* Memory unmapped: what was read of the code there is forgotten. */
static void cp_unmapped(Addr a, SizeT len)
{
   CP_(plt_unmapped)(a, len);
   CP_(own_ranges_unmapped)(a, len);
}

static void cp_thread_created(ThreadId parent, ThreadId child)
{
   CP_(thread_created)(child);
}

static void cp_pre_syscall(ThreadId tid, UInt sysno, UWord *args, UInt n)
{
   CP_(pre_syscall)(tid, sysno);
}

static void cp_post_syscall(ThreadId tid, UInt sysno, UWord *args, UInt n,
                            SysRes res)
{
   CP_(post_syscall)(tid, sysno);
}

static void cp_pre_clo_init(void)
{
   VG_(details_name)            ("callprof");
   VG_(details_version)         (PACKAGE_VERSION);
   VG_(details_description)     ("call profiles in Callgrind's format");
   VG_(details_copyright_author)(
      "Copyright (C) 2026, and GNU GPL'd, by the heapsnap/callprof developers");
   VG_(details_bug_reports_to)  ("the heapsnap/callprof issue tracker");
   /* The core sizes each sector of its translation cache from this: a
      sector holds 42,588 translations and this many bytes each.  With
      --cache-sim=yes ours average 345 to 355 bytes (python3), so at 300
      the code filled a sector at half its translations, and the next
      sector's tables cost 2.6 MB of peak memory (Callgrind says 500). */
   VG_(details_avg_translation_sizeB)(400);

   VG_(clo_vex_control).iropt_register_updates_default
      = VG_(clo_px_file_backed) = VexRegUpdSpAtMemAccess;
   set_translation();

   VG_(basic_tool_funcs)(cp_post_clo_init, CP_(instrument), cp_fini);
   VG_(needs_command_line_options)(cp_process_cmd_line_option,
                                   cp_print_usage, cp_print_debug_usage);
   VG_(needs_syscall_wrapper)(cp_pre_syscall, cp_post_syscall);
   VG_(needs_client_requests)(CP_(client_request));
   VG_(needs_final_IR_tidy_pass)(CP_(final_tidy));
   VG_(track_pre_thread_ll_create)(cp_thread_created);
   VG_(track_start_client_code)(cp_start_client_code);
   VG_(track_stop_client_code)(cp_stop_client_code);
   VG_(track_pre_deliver_signal)(CP_(pre_signal));
   VG_(track_post_deliver_signal)(CP_(post_signal));
   VG_(track_die_mem_munmap)(cp_unmapped);

   CP_(bb_init)();
}

VG_DETERMINE_INTERFACE_VERSION(cp_pre_clo_init)
