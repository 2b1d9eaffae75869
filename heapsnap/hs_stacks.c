/* hs_stacks.c: --stacks=yes (not yet: see the issue). */
#include "hs.h"
SizeT HS_(stacks_B) = 0;
void HS_(stacks_post_clo_init)(void) { }
void HS_(stacks_write_peaks)(const HChar *main_path) { }
