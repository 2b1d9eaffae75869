/* runstat: run a command and append its wall time, peak RSS and status.
 *
 *     runstat [-t SECONDS] OUTFILE CMD ARGS...
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
 * With -t, a child still running after SECONDS is killed (SIGKILL), and
 * its line says 137.  runstat's own exit status is that of the child, or 127 if CMD could
 * not be run, or 126 for runstat's own errors.
 *
 * Copyright (C) 2026 The heapsnap/callprof developers.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
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

static volatile pid_t child;

static void on_alarm(int sig)
{
   (void)sig;
   if (child > 0)
      kill(child, SIGKILL);
}

int main(int argc, char **argv)
{
   unsigned timeout = 0;
   if (argc > 2 && strcmp(argv[1], "-t") == 0) {
      timeout = (unsigned)atoi(argv[2]);
      argv += 2;
      argc -= 2;
   }
   if (argc < 3) {
      fprintf(stderr, "usage: runstat [-t SECONDS] OUTFILE CMD ARGS...\n");
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

   child = pid;
   if (timeout) {
      struct sigaction sa;
      memset(&sa, 0, sizeof sa);
      sa.sa_handler = on_alarm;
      sigaction(SIGALRM, &sa, NULL);
      alarm(timeout);
   }

   int st;
   struct rusage ru;
   pid_t r;
   do
      r = wait4(pid, &st, 0, &ru);
   while (r < 0 && errno == EINTR);
   double t1 = now();
   alarm(0);
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
