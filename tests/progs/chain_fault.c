/* chain_fault.c: a call through a pointer that the client can map but
   not read, for ir_chain.h, which reads the pointer when it translates
   the call (include/ir_chain.h, ir_chain_read).

   Usage: chain_fault FILE
   The program writes one page to FILE and maps it two pages long: the
   second page lies past the file's end, so reading it raises SIGBUS
   though the mapping is readable.  It then calls through a function
   pointer in the first page (a function of its own: the tool reads the
   pointer, and the call goes where it said), and first through one in
   the second, where the load raises SIGBUS in the client, whose handler
   goes on.  Each call is in a function of its own, translated when it
   is first called, so the tool reads the second page too, and must
   catch its own fault.  The program prints
      called 11
      SIGBUS 1
   and exits 0. */
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static sigjmp_buf back;
static volatile int called, faults;

static void target(void)
{
   called++;
}

static void on_bus(int sig)
{
   (void)sig;
   faults++;
   siglongjmp(back, 1);
}

/* Calls through *SLOT: the loads and the call in one block, SLOT read
   from a global, so that the tool reads the pointer however the
   superblock began. */
static void (*const *volatile slot)(void);

__attribute__((noipa)) static void call_bad(void)
{
   (*slot)();
}

__attribute__((noipa)) static void call_good(void)
{
   (*slot)();
   called += 10;
}

int main(int argc, char **argv)
{
   long page = sysconf(_SC_PAGESIZE);
   void (**map)(void);
   char *buf;
   int fd;

   if (argc != 2) {
      fprintf(stderr, "usage: chain_fault FILE\n");
      return 2;
   }
   buf = calloc(1, page);
   fd = open(argv[1], O_RDWR | O_CREAT | O_TRUNC, 0600);
   if (buf == NULL || fd < 0 || write(fd, buf, page) != page) {
      perror(argv[1]);
      return 1;
   }
   map = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
   if (map == MAP_FAILED) {
      perror("mmap");
      return 1;
   }
   map[0] = target;
   signal(SIGBUS, on_bus);
   slot = &map[page / sizeof *map];
   if (sigsetjmp(back, 1) == 0)
      call_bad();
   slot = &map[0];
   call_good();
   printf("called %d\nSIGBUS %d\n", called, faults);
   munmap(map, 2 * page);
   close(fd);
   unlink(argv[1]);
   return called == 11 && faults == 1 ? 0 : 1;
}
