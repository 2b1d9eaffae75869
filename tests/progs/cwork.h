/* cwork.h: what the two files of cwork share (see cwork_main.c).

   helper() and new_record() are always inlined, so their code, and the
   call sites inside it, belong to this header's lines while they sit in
   cwork_main.c's functions: helper()'s call to leaf() (defined in
   cwork_leaf.c) is a call site in inlined code from another file, and
   new_record()'s malloc() an allocation site in inlined code. */
#ifndef CWORK_H
#define CWORK_H

#include <stdlib.h>

struct record {
   unsigned key;
   unsigned len;
   char *text;
};

/* cwork_leaf.c */
unsigned leaf(unsigned x);
unsigned mix_add(unsigned a, unsigned b);
unsigned mix_xor(unsigned a, unsigned b);
unsigned mix_rot(unsigned a, unsigned b);
unsigned leaf_scaled(unsigned x);
unsigned count_down(unsigned n, unsigned acc);

static inline __attribute__((always_inline)) unsigned helper(unsigned x)
{
   unsigned y = x * 2654435761u;
   if (y & 1)
      y ^= y >> 13;
   return leaf(y) + (y >> 7);
}

static inline __attribute__((always_inline)) struct record *
new_record(unsigned key, unsigned len)
{
   struct record *r = malloc(sizeof *r);
   r->key = key;
   r->len = len;
   r->text = NULL;
   return r;
}

#endif
