/* runstat: run a command and append its wall time, peak RSS and status.
 *
 *     runstat OUTFILE CMD ARGS...
 *
 * fork/execs CMD, waits for it with wait4(), and appends one line
 *
 *     wall_seconds maxrss_kB exit_status
 *
 * to OUTFILE.  Wall time is from CLOCK_MONOTONIC, taken just before the
 * fork and just after wait4() returns.  maxrss is ru_maxrss of the child
 * as reported by wait4(): the peak resident set of the process that ran
 * (exec does not start a new process, so when CMD is a launcher script
 * that execs valgrind, which execs the tool, this is the peak RSS of the
 * tool and its client together, the two sharing one address space).
 * exit_status is the child's exit code, or 128+N if killed by signal N.
 * runstat's own exit status is that of the child, or 127 if CMD could
 * not be run, or 126 for runstat's own errors.
 *
 * Copyright (C) 2026 The heapsnap/callprof developers.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
   struct timespec ts;
   clock_gettime(CLOCK_MONOTONIC, &ts);
   return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
   if (argc < 3) {
      fprintf(stderr, "usage: runstat OUTFILE CMD ARGS...\n");
      return 126;
   }
   FILE *out = fopen(argv[1], "a");
   if (!out) {
      fprintf(stderr, "runstat: %s: %s\n", argv[1], strerror(errno));
      return 126;
   }

   double t0 = now();
   pid_t pid = fork();
   if (pid < 0) {
      fprintf(stderr, "runstat: fork: %s\n", strerror(errno));
      return 126;
   }
   if (pid == 0) {
      fclose(out);
      execvp(argv[2], argv + 2);
      fprintf(stderr, "runstat: %s: %s\n", argv[2], strerror(errno));
      _exit(127);
   }

   int st;
   struct rusage ru;
   pid_t r;
   do
      r = wait4(pid, &st, 0, &ru);
   while (r < 0 && errno == EINTR);
   double t1 = now();
   if (r < 0) {
      fprintf(stderr, "runstat: wait4: %s\n", strerror(errno));
      return 126;
   }

   int code = WIFEXITED(st) ? WEXITSTATUS(st)
            : WIFSIGNALED(st) ? 128 + WTERMSIG(st) : 126;
   fprintf(out, "%.6f %ld %d\n", t1 - t0, ru.ru_maxrss, code);
   if (fclose(out) != 0) {
      fprintf(stderr, "runstat: %s: %s\n", argv[1], strerror(errno));
      return 126;
   }
   return code;
}
