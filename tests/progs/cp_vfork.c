/* cp_vfork.c: a child started with vfork(), which runs /bin/true.

   glibc's vfork pops its own return address into a register before the
   system call and pushes it back after (the child must not leave it on
   the stack it shares with the parent), then returns.  Callgrind pops
   the frames the stack pointer has left at the start of every block, so
   it takes vfork as returned at the system call: the rest of vfork
   counts for its caller, and its ret is a call of the code after the
   call site (tests/callprof/cmp_vfork). */
#include <stdio.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile long sink;

__attribute__((noinline)) static void work(int n)
{
   for (int i = 0; i < n; i++)
      sink += i;
}

int main(void)
{
   int status = 0;
   pid_t pid;

   work(1000);
   pid = vfork();
   if (pid == 0) {
      execl("/bin/true", "true", (char *)NULL);
      _exit(127);
   }
   if (pid < 0 || waitpid(pid, &status, 0) != pid)
      return 1;
   work(2000);
   printf("child exited %d\n", WEXITSTATUS(status));
   return 0;
}
