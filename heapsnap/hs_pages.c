/* hs_pages.c: --pages-as-heap=yes (not yet: see the issue). */
#include "hs.h"
void HS_(pages_post_clo_init)(void) { }
