/* malloc_heavy: a benchmark workload that allocates a lot.
 *
 *     malloc_heavy [ROUNDS]
 *
 * Deterministic (a fixed LCG, no time or address dependence in what is
 * computed).  Each round builds and tears down structures of the kind
 * real programs use, from several call sites at several call depths:
 *   - a chained hash table with string keys (keys strdup'ed, entries
 *     malloc'ed, the bucket array grown with realloc, lookups, deletes),
 *   - singly linked lists of variable-sized records, built recursively,
 *   - a binary search tree, freed recursively,
 *   - growable byte buffers (realloc doubling), and short-lived scratch
 *     blocks of assorted sizes.
 * Between allocations it does a moderate amount of work on the data
 * (hashing, comparing, filling, summing), as a program would: the ratio
 * of work to allocation is what makes Massif's overhead over
 * --tool=none about 40%, the figure the benchmark is meant to reproduce.
 * Prints one checksum line so that nothing is optimised away.
 *
 * Copyright (C) 2026 The heapsnap/callprof developers.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOINLINE __attribute__((noinline))

/* Work per allocation: the knob that sets the malloc/compute mix. */
#ifndef WORK
#define WORK 80
#endif

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint32_t rnd(void)
{
   rng = rng * 6364136223846793005ull + 1442695040888963407ull;
   return (uint32_t)(rng >> 33);
}

static uint64_t checksum;

static void *xmalloc(size_t n)
{
   void *p = malloc(n);
   if (!p) { perror("malloc"); exit(1); }
   return p;
}

/* Some work on a block, proportional to its size (capped). */
static NOINLINE uint32_t churn(const unsigned char *p, size_t n)
{
   uint32_t h = 2166136261u;
   size_t lim = n < 64 ? n : 64;
   for (int w = 0; w < WORK; w++)
      for (size_t i = 0; i < lim; i++)
         h = (h ^ p[i]) * 16777619u;
   return h;
}

/*--------------------------------------------------------------------*/
/* Hash table with string keys                                        */
/*--------------------------------------------------------------------*/

struct entry {
   struct entry *next;
   char *key;
   uint32_t hash;
   int value;
};

struct table {
   struct entry **buckets;
   size_t nbuckets, count;
};

static uint32_t strhash(const char *s)
{
   uint32_t h = 5381;
   while (*s)
      h = h * 33 + (unsigned char)*s++;
   return h;
}

static NOINLINE char *make_key(char *buf, int len)
{
   static const char alpha[] = "abcdefghijklmnopqrstuvwxyz_0123456789";
   for (int i = 0; i < len; i++)
      buf[i] = alpha[rnd() % (sizeof alpha - 1)];
   buf[len] = 0;
   return buf;
}

static NOINLINE char *dup_key(const char *s)
{
   size_t n = strlen(s) + 1;
   char *d = xmalloc(n);
   memcpy(d, s, n);
   return d;
}

static NOINLINE void table_grow(struct table *t)
{
   size_t nb = t->nbuckets ? t->nbuckets * 2 : 16;
   struct entry **b = calloc(nb, sizeof *b);
   if (!b) { perror("calloc"); exit(1); }
   for (size_t i = 0; i < t->nbuckets; i++) {
      struct entry *e = t->buckets[i], *n;
      for (; e; e = n) {
         n = e->next;
         e->next = b[e->hash & (nb - 1)];
         b[e->hash & (nb - 1)] = e;
      }
   }
   free(t->buckets);
   t->buckets = b;
   t->nbuckets = nb;
}

static NOINLINE struct entry *table_find(struct table *t, const char *k,
                                         uint32_t h)
{
   if (!t->nbuckets)
      return NULL;
   for (struct entry *e = t->buckets[h & (t->nbuckets - 1)]; e; e = e->next)
      if (e->hash == h && strcmp(e->key, k) == 0)
         return e;
   return NULL;
}

static NOINLINE void table_put(struct table *t, const char *k, int v)
{
   uint32_t h = strhash(k);
   struct entry *e = table_find(t, k, h);
   if (e) {
      e->value += v;
      return;
   }
   if (t->count >= t->nbuckets)
      table_grow(t);
   e = xmalloc(sizeof *e);
   e->key = dup_key(k);
   e->hash = h;
   e->value = v;
   e->next = t->buckets[h & (t->nbuckets - 1)];
   t->buckets[h & (t->nbuckets - 1)] = e;
   t->count++;
}

static NOINLINE void table_del(struct table *t, const char *k)
{
   uint32_t h = strhash(k);
   if (!t->nbuckets)
      return;
   struct entry **pp = &t->buckets[h & (t->nbuckets - 1)];
   for (; *pp; pp = &(*pp)->next)
      if ((*pp)->hash == h && strcmp((*pp)->key, k) == 0) {
         struct entry *e = *pp;
         *pp = e->next;
         free(e->key);
         free(e);
         t->count--;
         return;
      }
}

static NOINLINE void table_free(struct table *t)
{
   for (size_t i = 0; i < t->nbuckets; i++) {
      struct entry *e = t->buckets[i], *n;
      for (; e; e = n) {
         n = e->next;
         checksum += (uint32_t)e->value + churn((unsigned char *)e->key,
                                                strlen(e->key));
         free(e->key);
         free(e);
      }
   }
   free(t->buckets);
   t->buckets = NULL;
   t->nbuckets = t->count = 0;
}

static NOINLINE void phase_table(int nkeys)
{
   struct table t = { 0 };
   char buf[64];
   uint64_t saved = rng;
   for (int i = 0; i < nkeys; i++) {
      /* A small vocabulary of short keys, so some keys repeat. */
      int len = 3 + rnd() % 10;
      table_put(&t, make_key(buf, len), i);
   }
   rng = saved;                      /* replay: delete half of them */
   for (int i = 0; i < nkeys; i++) {
      int len = 3 + rnd() % 10;
      make_key(buf, len);
      if (i & 1)
         table_del(&t, buf);
   }
   checksum += t.count;
   table_free(&t);
}

/*--------------------------------------------------------------------*/
/* Linked lists of variable-sized records, built recursively          */
/*--------------------------------------------------------------------*/

struct rec {
   struct rec *next;
   size_t len;
   unsigned char data[];
};

static NOINLINE struct rec *new_rec(size_t len)
{
   struct rec *r = xmalloc(sizeof *r + len);
   r->len = len;
   for (size_t i = 0; i < len; i++)
      r->data[i] = (unsigned char)(i * 7 + len);
   return r;
}

/* Three call depths allocate; the recursion varies the stack too. */
static NOINLINE struct rec *build_list(int n, int depth)
{
   struct rec *head = NULL;
   if (n <= 0)
      return NULL;
   if (depth < 6 && n > 8) {
      struct rec *a = build_list(n / 2, depth + 1);
      struct rec *b = build_list(n - n / 2, depth + 1);
      struct rec *t = a;
      if (!a)
         return b;
      while (t->next)
         t = t->next;
      t->next = b;
      return a;
   }
   for (int i = 0; i < n; i++) {
      size_t sz = (rnd() % 8 == 0) ? 256 + rnd() % 768 : 8 + rnd() % 120;
      struct rec *r = new_rec(sz);
      r->next = head;
      head = r;
   }
   return head;
}

static NOINLINE void free_list(struct rec *r)
{
   while (r) {
      struct rec *n = r->next;
      checksum += churn(r->data, r->len);
      free(r);
      r = n;
   }
}

static NOINLINE void phase_lists(int n)
{
   struct rec *a = build_list(n, 0);
   struct rec *b = build_list(n / 2, 3);
   free_list(a);
   free_list(b);
}

/*--------------------------------------------------------------------*/
/* Binary search tree                                                 */
/*--------------------------------------------------------------------*/

struct node {
   struct node *l, *r;
   uint32_t key;
   char *label;
};

static NOINLINE struct node *tree_insert(struct node *t, uint32_t key)
{
   if (!t) {
      struct node *n = xmalloc(sizeof *n);
      n->l = n->r = NULL;
      n->key = key;
      n->label = xmalloc(16 + key % 48);
      memset(n->label, (int)(key & 0x7f), 16 + key % 48);
      return n;
   }
   if (key < t->key)
      t->l = tree_insert(t->l, key);
   else
      t->r = tree_insert(t->r, key);
   return t;
}

static NOINLINE void tree_free(struct node *t)
{
   if (!t)
      return;
   tree_free(t->l);
   tree_free(t->r);
   checksum += t->key + churn((unsigned char *)t->label, 16);
   free(t->label);
   free(t);
}

static NOINLINE void phase_tree(int n)
{
   struct node *root = NULL;
   for (int i = 0; i < n; i++)
      root = tree_insert(root, rnd());
   tree_free(root);
}

/*--------------------------------------------------------------------*/
/* Growable buffers and scratch blocks                                */
/*--------------------------------------------------------------------*/

static NOINLINE void phase_buffers(int n)
{
   for (int i = 0; i < n; i++) {
      size_t cap = 16, len = 0;
      char *buf = xmalloc(cap);
      int pieces = 20 + rnd() % 60;
      for (int j = 0; j < pieces; j++) {
         size_t add = 1 + rnd() % 40;
         if (len + add > cap) {
            while (len + add > cap)
               cap *= 2;
            buf = realloc(buf, cap);
            if (!buf) { perror("realloc"); exit(1); }
         }
         memset(buf + len, 'a' + j % 26, add);
         len += add;
      }
      checksum += churn((unsigned char *)buf, len);
      free(buf);

      /* a scratch block, as for a temporary formatted string */
      size_t sz = 32u << (rnd() % 8);
      unsigned char *s = xmalloc(sz);
      memset(s, i, sz < 256 ? sz : 256);
      checksum += churn(s, sz);
      free(s);
   }
}

int main(int argc, char **argv)
{
   int rounds = argc > 1 ? atoi(argv[1]) : 6;
   for (int r = 0; r < rounds; r++) {
      phase_table(20000);
      phase_lists(20000);
      phase_tree(10000);
      phase_buffers(8000);
   }
   printf("malloc_heavy: %d rounds, checksum %llu\n", rounds,
          (unsigned long long)checksum);
   return 0;
}
