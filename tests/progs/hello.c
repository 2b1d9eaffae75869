/* hello.c: the smallest program worth profiling: a few allocations and
   calls, used by the demo and by the option tests. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *greeting(const char *who)
{
   char *s = malloc(strlen(who) + 8);
   sprintf(s, "hello, %s", who);
   return s;
}

int main(int argc, char **argv)
{
   char *s = greeting(argc > 1 ? argv[1] : "world");
   puts(s);
   free(s);
   return 0;
}
