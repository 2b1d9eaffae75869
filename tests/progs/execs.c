/* execs.c: allocates, then becomes another program.

   Usage: execs PROGRAM [ARGS...]
   before_exec() allocates 5,000 bytes, never freed; then PROGRAM is
   exec'd.  With --trace-children=yes the new program is profiled from
   its own start, in its own file. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static void *volatile held;

static void before_exec(void)
{
   held = malloc(5000);
}

int main(int argc, char **argv)
{
   if (argc < 2) {
      fprintf(stderr, "usage: execs PROGRAM [ARGS...]\n");
      return 2;
   }
   before_exec();
   execv(argv[1], argv + 1);
   perror(argv[1]);
   return 127;
}
