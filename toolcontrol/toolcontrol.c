/* toolcontrol.c: the runs of a tool, and commands to them, through vgdb
   (include/toolcontrol.h).

   Copyright (C) 2026 The heapsnap/callprof developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   vgdb is run as a child with its standard output read through a pipe,
   never through a shell: a dump hint or a file name goes to it as one
   argument, whatever it holds (vgdb joins its arguments with spaces
   into the command it sends, as a shell would have split them). */

#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "toolcontrol.h"

/* realloc, or the end of the program: a control program has nothing to
   save. */
static void *xrealloc(void *p, size_t n)
{
   p = realloc(p, n ? n : 1);
   if (p == NULL) {
      fprintf(stderr, "out of memory\n");
      exit(2);
   }
   return p;
}

static char *dup_n(const char *s, size_t n)
{
   char *d = xrealloc(NULL, n + 1);
   memcpy(d, s, n);
   d[n] = '\0';
   return d;
}

/* "use --pid=644 for /usr/bin/valgrind.bin --tool=callprof -q ./server 8080"
   (Debian's launcher execs valgrind.bin, upstream's is valgrind). */
int tc_parse_list_line(const char *line, const char *tool, TC_Run *run)
{
   static const char head[] = "use --pid=";
   const char *p = line, *end, *w;
   size_t tlen = strlen(tool);
   int pid = 0, has_tool = 0;

   if (strncmp(p, head, sizeof head - 1) != 0)
      return 0;
   p += sizeof head - 1;
   if (*p < '0' || *p > '9')
      return 0;
   while (*p >= '0' && *p <= '9')
      pid = pid * 10 + (*p++ - '0');
   if (strncmp(p, " for ", 5) != 0)
      return 0;
   p += 5;
   p += strcspn(p, " \t\n");                  /* Valgrind's executable */
   /* Valgrind's options, up to the program. */
   for (;;) {
      p += strspn(p, " \t");
      if (*p != '-')
         break;
      w = p;
      p += strcspn(p, " \t\n");
      if ((size_t)(p - w) == 7 + tlen && strncmp(w, "--tool=", 7) == 0
          && strncmp(w + 7, tool, tlen) == 0)
         has_tool = 1;
   }
   end = p + strlen(p);
   while (end > p && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\n'
                      || end[-1] == '\r'))
      end--;
   if (!has_tool || end == p)
      return 0;
   run->pid = pid;
   run->cmdline = dup_n(p, (size_t)(end - p));
   run->program = dup_n(p, strcspn(p, " \t"));
   return 1;
}

void tc_run_free(TC_Run *run)
{
   free(run->cmdline);
   free(run->program);
   run->cmdline = run->program = NULL;
}

int tc_matches(const TC_Run *run, const char *arg)
{
   size_t n = strlen(arg), m = strlen(run->program);
   char *end;
   long pid = strtol(arg, &end, 10);
   if (n == 0)
      return 0;
   if (*end == '\0' && pid == run->pid)
      return 1;
   return n <= m && strcmp(run->program + m - n, arg) == 0;
}

/* Run vgdb with ARGV (argv[0] set here); its standard output into *OUT.
   Its exit status, or -1. */
static int run_vgdb(char **argv, char **out)
{
   const char *vgdb = getenv("VGDB");
   size_t len = 0, cap = 4096;
   char *buf;
   int fd[2], status;
   pid_t child;
   ssize_t got;

   if (vgdb == NULL || vgdb[0] == '\0')
      vgdb = "vgdb";
   argv[0] = (char *)vgdb;
   if (pipe(fd) != 0) {
      fprintf(stderr, "cannot make a pipe: %s\n", strerror(errno));
      return -1;
   }
   child = fork();
   if (child < 0) {
      fprintf(stderr, "cannot fork: %s\n", strerror(errno));
      close(fd[0]);
      close(fd[1]);
      return -1;
   }
   if (child == 0) {
      dup2(fd[1], 1);
      close(fd[0]);
      close(fd[1]);
      execvp(vgdb, argv);
      fprintf(stderr, "cannot run %s: %s\n", vgdb, strerror(errno));
      _exit(127);
   }
   close(fd[1]);
   buf = xrealloc(NULL, cap);
   while ((got = read(fd[0], buf + len, cap - len - 1)) != 0) {
      if (got < 0) {
         if (errno == EINTR)
            continue;
         break;
      }
      len += (size_t)got;
      if (cap - len < 1024)
         buf = xrealloc(buf, cap *= 2);
   }
   buf[len] = '\0';
   close(fd[0]);
   while (waitpid(child, &status, 0) < 0)
      if (errno != EINTR) {
         free(buf);
         return -1;
      }
   *out = buf;
   if (!WIFEXITED(status))
      return -1;
   return WEXITSTATUS(status) == 127 ? -1 : WEXITSTATUS(status);
}

int tc_list(const char *tool, const char *prefix_opt, TC_Run **runs,
            size_t *n)
{
   char *argv[4], *out, *line, *save = NULL;
   int k = 1;
   size_t cap = 0;

   argv[k++] = (char *)"-l";
   if (prefix_opt)
      argv[k++] = (char *)prefix_opt;
   argv[k] = NULL;
   *runs = NULL;
   *n = 0;
   if (run_vgdb(argv, &out) < 0)
      return -1;
   for (line = strtok_r(out, "\n", &save); line;
        line = strtok_r(NULL, "\n", &save)) {
      TC_Run r;
      if (!tc_parse_list_line(line, tool, &r))
         continue;
      if (*n == cap)
         *runs = xrealloc(*runs, (cap = cap ? 2 * cap : 8) * sizeof **runs);
      (*runs)[(*n)++] = r;
   }
   free(out);
   return 0;
}

int tc_command(int pid, const char *prefix_opt, const char *command,
               char **out)
{
   char pid_opt[32], *argv[5];
   int k = 1;
   snprintf(pid_opt, sizeof pid_opt, "--pid=%d", pid);
   if (prefix_opt)
      argv[k++] = (char *)prefix_opt;
   argv[k++] = pid_opt;
   argv[k++] = (char *)command;
   argv[k] = NULL;
   return run_vgdb(argv, out);
}

int tc_option(int argc, char **argv, int *i, TC_Options *o)
{
   const char *a = argv[*i];
   if (strncmp(a, "--vgdb-prefix=", 14) == 0)
      o->prefix_opt = a;
   else if (strcmp(a, "-v") == 0)
      o->verbose++;
   else if (strcmp(a, "-l") == 0 || strcmp(a, "--list") == 0)
      ;
   else if (strcmp(a, "-w") == 0) {
      if (*i + 1 == argc)
         return -1;
      o->dir = argv[++*i];
   } else if (strncmp(a, "-w=", 3) == 0)
      o->dir = a + 3;
   else
      return 0;
   return 1;
}

/* Whether RUN was started in directory DIR. */
static int in_dir(const TC_Run *run, const char *dir)
{
   char link[64], cwd[PATH_MAX], want[PATH_MAX];
   ssize_t n;
   snprintf(link, sizeof link, "/proc/%d/cwd", run->pid);
   n = readlink(link, cwd, sizeof cwd - 1);
   if (n < 0 || realpath(dir, want) == NULL)
      return 0;
   cwd[n] = '\0';
   return strcmp(cwd, want) == 0;
}

int tc_select(const char *program, const char *tool, const char *prefix_opt,
              const char **targets, int n_targets, const char *dir,
              TC_Run **runs, size_t *n)
{
   TC_Run *all;
   size_t n_all, r, kept = 0;
   char *chosen;
   int i;

   *runs = NULL;
   *n = 0;
   if (tc_list(tool, prefix_opt, &all, &n_all) < 0)
      return 1;
   chosen = xrealloc(NULL, n_all + 1);
   memset(chosen, 0, n_all + 1);
   for (i = 0; i < n_targets; i++) {
      int found = 0;
      for (r = 0; r < n_all; r++)
         if (tc_matches(&all[r], targets[i]))
            chosen[r] = found = 1;
      if (!found) {
         printf("Error: %s task with PID/name '%s' not detected.\n", tool,
                targets[i]);
         printf("See '%s -h' for help.\n", program);
         goto fail;
      }
   }
   for (r = 0; r < n_all; r++) {
      if ((n_targets == 0 || chosen[r]) && (dir == NULL || in_dir(&all[r], dir)))
         all[kept++] = all[r];
      else
         tc_run_free(&all[r]);
   }
   free(chosen);
   if (kept == 0) {
      printf("No active %s runs detected.\n", tool);
      free(all);
      return 1;
   }
   *runs = all;
   *n = kept;
   return 0;
fail:
   for (r = 0; r < n_all; r++)
      tc_run_free(&all[r]);
   free(all);
   free(chosen);
   return 1;
}
