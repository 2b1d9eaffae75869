/* waitfor.c: a program that holds its heap until told to go on, so that
   snapshots can be asked for from outside (vgdb monitor commands).

   Usage: waitfor [wait]
   hold() allocates 10 blocks of 2,000 bytes.  With "wait", the program
   then creates the file "ready" and waits for a file "go" to appear in
   its directory (checking every 10 ms, for 120 s at most: then it exits
   with status 3).  Then it frees the blocks and exits. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void *volatile blocks[10];

static void hold(void)
{
   for (int i = 0; i < 10; i++)
      blocks[i] = malloc(2000);
}

int main(int argc, char **argv)
{
   hold();
   if (argc > 1 && strcmp(argv[1], "wait") == 0) {
      int waited = 0;
      FILE *f = fopen("ready", "w");
      if (f != NULL)
         fclose(f);
      while (access("go", F_OK) != 0) {
         if (++waited > 12000)
            return 3;
         usleep(10000);
      }
   }
   for (int i = 0; i < 10; i++)
      free(blocks[i]);
   return 0;
}
