/* pw_massif.c: the Massif output format (ms_print, massif-visualizer).

   Copyright (C) 2026 The heapsnap/callprof developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   heapsnap writes the same files as Valgrind 3.19's Massif, which since
   3.13 has the core's xtree code (coregrind/m_xtree.c) write them.  The
   readers are strict (see the notes at each function), so this file
   reproduces that output line for line, including the grouping of
   allocation stacks into a tree and the wording of the below-threshold
   lines.  A whole file is

      desc: --threshold=1.0
      cmd: ./prog arg
      time_unit: i
      #-----------            \
      snapshot=0               |
      #-----------             |  pw_ms_snapshot, once per snapshot,
      time=0                   |  numbered 0, 1, 2, ...
      mem_heap_B=0             |
      mem_heap_extra_B=0       |
      mem_stacks_B=0           |
      heap_tree=empty         /
      ...
      heap_tree=detailed
      n2: 4000 (heap allocation functions) malloc/new/new[], --alloc-fns, etc.
       n1: 3000 0x4005BD: main (prog.c:10)
        n0: 3000 0x4004F1: f (prog.c:4)
       n0: 1000 in 3 places, all below massif's threshold (1.00%)

   with pw_ms_tree writing the tree after a detailed or peak snapshot. */

#include "pw_platform.h"

/* ------------------------------------------------------------------ */
/* Header and snapshot lines                                           */
/* ------------------------------------------------------------------ */

/* desc: ARGS          the tool's options, one line; "(none)" without
   cmd: CMD            the command line
   time_unit: U        i, ms or B (ms_print dies on anything else)
   Exactly one line each, in this order: ms_print expects them so and
   massif-visualizer rejects a file with anything else around them. */
void pw_ms_header(PW_Sink *s, const char *desc_args, const char *cmd,
                  const char *time_unit)
{
   pw_put(s, "desc: ");
   pw_put(s, desc_args != NULL && desc_args[0] != '\0' ? desc_args
                                                       : "(none)");
   pw_put(s, "\ncmd: ");
   pw_put(s, cmd != NULL ? cmd : "");
   pw_put(s, "\ntime_unit: ");
   pw_put(s, time_unit != NULL ? time_unit : "i");
   pw_putc(s, '\n');
}

/* #-----------
   snapshot=N
   #-----------
   time=T
   mem_heap_B=H
   mem_heap_extra_B=E
   mem_stacks_B=S
   heap_tree=KIND
   The separators must be exactly eleven dashes (massif-visualizer) and
   the six fields in this order (ms_print). */
void pw_ms_snapshot(PW_Sink *s, unsigned n, pw_u64 time,
                    pw_u64 heap_B, pw_u64 extra_B, pw_u64 stacks_B,
                    const char *kind)
{
   pw_put(s, "#-----------\nsnapshot=");
   pw_put_u64(s, n);
   pw_put(s, "\n#-----------\ntime=");
   pw_put_u64(s, time);
   pw_put(s, "\nmem_heap_B=");
   pw_put_u64(s, heap_B);
   pw_put(s, "\nmem_heap_extra_B=");
   pw_put_u64(s, extra_B);
   pw_put(s, "\nmem_stacks_B=");
   pw_put_u64(s, stacks_B);
   pw_put(s, "\nheap_tree=");
   pw_put(s, kind);
   pw_putc(s, '\n');
}

/* ------------------------------------------------------------------ */
/* The allocation tree                                                 */
/* ------------------------------------------------------------------ */

/* How the tree is built (the algorithm of m_xtree.c's ms_make_groups
   and ms_output_group):

   The stacks are sorted by their address arrays, element by element, a
   missing element smaller than any address (so a stack comes right
   before the longer stacks it is a prefix of).  Then at depth D, inside
   a run of stacks sharing ips[0..D-1], consecutive stacks with the same
   ips[D] form one group: one node of the tree, whose bytes are the sum
   of its stacks.  A stack with only D addresses ends at its parent: its
   bytes are in the parent's total but it is no child.

   A group below SIG_SZ bytes is not shown; all such groups of one parent
   are merged into one "insignificant" node (address 0, counting how many
   groups went in), and that node is sorted with the others: bytes
   descending, then address ascending.

   Each node is one line "nK: BYTES TEXT" indented by one space per
   level, K its number of children.  When the address has inlined frames
   (the describe callback says *more), each frame is a line of its own
   with exactly one child, one level deeper, the last frame carrying the
   node's real children. */

typedef struct {
   PW_MsStack *stacks;   /* the group is stacks[0 .. n-1]; NULL: merged */
   unsigned    n;        /* stacks, or merged groups when insignificant */
   pw_addr     ip;
   pw_u64      total;
} MsGroup;

typedef struct {
   PW_Sink      *s;
   pw_u64        sig_sz;
   double        threshold;
   PW_DescribeFn describe;
   void         *ctx;
} MsOut;

static int cmp_stack(const void *va, const void *vb)
{
   const PW_MsStack *a = va, *b = vb;
   unsigned i, n = a->n_ips < b->n_ips ? a->n_ips : b->n_ips;

   for (i = 0; i < n; i++) {
      if (a->ips[i] != b->ips[i])
         return a->ips[i] < b->ips[i] ? -1 : 1;
   }
   if (a->n_ips != b->n_ips)
      return a->n_ips < b->n_ips ? -1 : 1;
   return 0;
}

static int cmp_group(const void *va, const void *vb)
{
   const MsGroup *a = va, *b = vb;

   if (a->total != b->total)
      return a->total > b->total ? -1 : 1;
   if (a->ip != b->ip)
      return a->ip < b->ip ? -1 : 1;
   return 0;
}

/* Group the (sorted) STACKS[0..N) by their address at DEPTH.  Returns
   a PW_MALLOC'd array (NULL when there are no groups or no memory; then
   *ENOMEM_P is set in the latter case) and its length in *N_GROUPS. */
static MsGroup *make_groups(unsigned depth, PW_MsStack *stacks, unsigned n,
                            pw_u64 sig_sz, unsigned *n_groups, int *nomem)
{
   MsGroup *g;
   unsigned i, k, count = 0, n_insig = 0, first_insig = 0;
   pw_addr cur = 0;

   *n_groups = 0;
   for (i = 0; i < n; i++) {
      if (stacks[i].n_ips > depth
          && (count == 0 || stacks[i].ips[depth] != cur)) {
         count++;
         cur = stacks[i].ips[depth];
      }
   }
   if (count == 0)
      return NULL;
   g = PW_MALLOC("pw.ms.make_groups.1", count * sizeof *g);
   if (g == NULL) {
      *nomem = 1;
      return NULL;
   }

   i = 0;
   for (k = 0; k < count; k++) {
      while (stacks[i].n_ips <= depth)
         i++;
      g[k].stacks = &stacks[i];
      g[k].ip     = stacks[i].ips[depth];
      g[k].n      = 1;
      g[k].total  = stacks[i].bytes;
      for (i++; i < n && stacks[i].n_ips > depth
                && stacks[i].ips[depth] == g[k].ip; i++) {
         g[k].n++;
         g[k].total += stacks[i].bytes;
      }
   }

   /* Fold the insignificant groups into the first of them, compacting
      the array as we go. */
   for (k = 0; k < count; k++) {
      if (g[k].total < sig_sz) {
         if (n_insig == 0) {
            first_insig = k;
            g[k].stacks = NULL;
            g[k].ip = 0;
         } else {
            g[first_insig].total += g[k].total;
         }
         n_insig++;
      } else if (n_insig > 1) {
         g[k - n_insig + 1] = g[k];
      }
   }
   if (n_insig > 0) {
      g[first_insig].n = n_insig;
      count -= n_insig - 1;
   }

   PW_SORT(g, count, sizeof *g, cmp_group);
   *n_groups = count;
   return g;
}

static void put_indent(PW_Sink *s, unsigned indent)
{
   while (indent-- > 0)
      pw_putc(s, ' ');
}

/* "nK: BYTES " */
static void put_node_start(PW_Sink *s, unsigned indent, unsigned k,
                           pw_u64 bytes)
{
   put_indent(s, indent);
   pw_putc(s, 'n');
   pw_put_u64(s, k);
   pw_put(s, ": ");
   pw_put_u64(s, bytes);
   pw_putc(s, ' ');
}

/* " n0: BYTES in N places, all below massif's threshold (T.TT%)"
   " n0: BYTES in 1 place, below massif's threshold (T.TT%)"
   massif-visualizer recognises the plural form only, but this is what
   Massif writes, and ms_print takes either. */
static void output_group(MsOut *o, unsigned depth, unsigned indent,
                         MsGroup *grp, int *nomem)
{
   PW_Sink *s = o->s;
   MsGroup *sub;
   unsigned n_sub, i, k;
   int more;

   if (grp->stacks == NULL) {
      put_node_start(s, indent + 1, 0, grp->total);
      pw_printf(s, "in %u place%s below massif's threshold (%.2f%%)\n",
                grp->n, grp->n == 1 ? "," : "s, all", o->threshold);
      return;
   }

   sub = make_groups(depth + 1, grp->stacks, grp->n, o->sig_sz, &n_sub,
                     nomem);

   for (k = 0; ; k++) {
      const char *text;
      more = 0;
      text = o->describe(o->ctx, grp->ip, k, &more);
      put_node_start(s, indent + 1, more ? 1 : n_sub, grp->total);
      pw_put(s, text != NULL ? text : "???");
      pw_putc(s, '\n');
      if (!more)
         break;
      indent++;
   }

   for (i = 0; i < n_sub; i++)
      output_group(o, depth + 1, indent + 1, &sub[i], nomem);
   PW_FREE(sub);
}

/* The root line "nK: HEAP_B ROOT_LABEL", then the groups at depth 0.
   SIG_SZ is computed once, as Massif does: THRESHOLD percent of
   heap+extra+stacks; with nothing on the heap every group is judged
   insignificant (SIG_SZ 1) unless the threshold is 0. */
void pw_ms_tree(PW_Sink *s, PW_MsStack *stacks, unsigned n_stacks,
                pw_u64 heap_B, pw_u64 extra_B, pw_u64 stacks_B,
                double threshold, const char *root_label,
                PW_DescribeFn describe, void *ctx)
{
   unsigned i;
   for (i = 1; i < n_stacks && cmp_stack(&stacks[i - 1], &stacks[i]) <= 0; i++)
      ;
   if (i < n_stacks)
      PW_SORT(stacks, n_stacks, sizeof *stacks, cmp_stack);
   pw_ms_tree_sorted(s, stacks, n_stacks, heap_B, extra_B, stacks_B,
                     threshold, root_label, describe, ctx);
}

void pw_ms_tree_sorted(PW_Sink *s, PW_MsStack *stacks, unsigned n_stacks,
                       pw_u64 heap_B, pw_u64 extra_B, pw_u64 stacks_B,
                       double threshold, const char *root_label,
                       PW_DescribeFn describe, void *ctx)
{
   MsOut o;
   MsGroup *groups;
   unsigned n_groups, i;
   int nomem = 0;

   o.s = s;
   o.threshold = threshold;
   o.describe = describe;
   o.ctx = ctx;
   if (heap_B == 0 && threshold != 0)
      o.sig_sz = 1;
   else
      o.sig_sz = (pw_u64)((heap_B + extra_B + stacks_B) * threshold / 100);

   groups = make_groups(0, stacks, n_stacks, o.sig_sz, &n_groups, &nomem);

   put_node_start(s, 0, n_groups, heap_B);
   pw_put(s, root_label);
   pw_putc(s, '\n');
   for (i = 0; i < n_groups; i++)
      output_group(&o, 0, 0, &groups[i], &nomem);
   PW_FREE(groups);

   /* A tree with a missing subtree would be wrong, not just short. */
   if (nomem && s->error == 0)
      s->error = PW_ENOMEM;
}
