/* heapsnap_control: ask running heapsnap processes for snapshots, in
   callgrind_control's style.

   Copyright (C) 2026 The heapsnap/callprof developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   Usage: heapsnap_control [options] [pid|program-name...]

      (none), -l --list            list the runs: "PID 123: ./server 8080"
      --snapshot[=FILE]            the heap now, in FILE
      --detailed-snapshot[=FILE]   the same, with the allocation tree
      --all-snapshots[=FILE]       every snapshot taken so far
      --xtmemory[=FILE]            the live blocks as an xtree memory file
      -w DIR                       only the runs whose working directory is
                                   DIR
      --vgdb-prefix=P              as given to Valgrind
      -v                           say which command is sent
      -h --help, --version

   Each action is Massif's monitor command of the same name (heapsnap
   answers them, hs_main.c), sent through vgdb: without a FILE a
   snapshot goes where the monitor command puts it, heapsnap.vgdb.out in
   the process's working directory, and an xtree memory file to
   xtmemory.kcg.PID.N there.  A FILE that is not absolute is taken by
   the process, relative to its own working directory, as a template
   (%p, %q{VAR}).  Actions run in the order given.  With no pid or name,
   every heapsnap run is taken; a name takes the runs whose program ends
   with it.  A target that is not found, no run at all, or a vgdb that
   fails ends with exit status 1; a bad option is said in one line, exit
   status 2. */

#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "toolcontrol.h"

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "0"
#endif

static void usage_error(const char *what)
{
   fprintf(stderr, "heapsnap_control: %s (expected -l, --snapshot[=FILE], "
           "--detailed-snapshot[=FILE], --all-snapshots[=FILE], "
           "--xtmemory[=FILE], -w DIR, --vgdb-prefix=PREFIX, -v, -h, "
           "--version)\n", what);
   exit(2);
}

static void print_help(void)
{
   printf("Ask currently active heapsnap runs for snapshots.\n"
          "\n"
          "Usage: heapsnap_control [options] [pid|program-name...]\n"
          "\n"
          "If no pids/names are given, an action is applied to all currently\n"
          "active heapsnap runs. Default action is printing short information.\n"
          "\n"
          "Options:\n"
          "  -h --help                   Show this help text\n"
          "  --version                   Show version\n"
          "  -l --list                   List the active runs (the default)\n"
          "  --snapshot[=<file>]         Take a snapshot, into <file>\n"
          "  --detailed-snapshot[=<file>] Take a detailed snapshot, into <file>\n"
          "  --all-snapshots[=<file>]    Save all snapshots taken so far\n"
          "  --xtmemory[=<file>]         Save the live blocks as an xtree memory file\n"
          "          (default <file>: heapsnap.vgdb.out, or xtmemory.kcg.%%p.%%n,\n"
          "           in the working directory of the run)\n"
          "  -w <dir>                    Only the runs started in directory <dir>\n"
          "  -v                          Say which command is sent\n"
          "Uncommon options:\n"
          "  --vgdb-prefix=<prefix> Only provide this if the same was given to Valgrind\n"
          "\n");
   exit(0);
}

/* --NAME[=FILE] as the monitor command WORD [FILE], into COMMAND. */
static int action(const char *arg, const char *name, const char *word,
                  char *command, size_t size)
{
   size_t n = strlen(name);
   if (strncmp(arg, name, n) != 0 || (arg[n] != '\0' && arg[n] != '='))
      return 0;
   if (arg[n] == '=' && arg[n + 1] == '\0')
      usage_error("an empty file name");
   if (arg[n] == '=' && strchr(arg + n + 1, ' '))
      usage_error("a file name with a space");
   snprintf(command, size, "%s%s%s", word, arg[n] ? " " : "",
            arg[n] ? arg + n + 1 : "");
   return 1;
}

int main(int argc, char **argv)
{
   TC_Options opt = { NULL, NULL, 0 };
   const char **targets = calloc((size_t)argc, sizeof *targets);
   char (*commands)[4200] = calloc((size_t)argc, sizeof *commands);
   int n_targets = 0, n_commands = 0, failed = 0, taken, i, c;
   TC_Run *runs;
   size_t n_runs, r;

   if (targets == NULL || commands == NULL)
      return 2;
   for (i = 1; i < argc; i++) {
      const char *a = argv[i];
      char *cmd = commands[n_commands];
      size_t size = sizeof commands[0];
      if (a[0] != '-')
         targets[n_targets++] = a;
      else if (!strcmp(a, "-h") || !strcmp(a, "--help"))
         print_help();
      else if (!strcmp(a, "--version")) {
         printf("heapsnap_control-%s\n", PACKAGE_VERSION);
         return 0;
      } else if ((taken = tc_option(argc, argv, &i, &opt)) != 0) {
         if (taken < 0)
            usage_error("-w needs a directory");
      } else if (action(a, "--snapshot", "snapshot", cmd, size) ||
               action(a, "--detailed-snapshot", "detailed_snapshot", cmd,
                      size) ||
               action(a, "--all-snapshots", "all_snapshots", cmd, size) ||
               action(a, "--xtmemory", "xtmemory", cmd, size))
         n_commands++;
      else {
         char what[300];
         snprintf(what, sizeof what, "unknown option '%.200s'", a);
         usage_error(what);
      }
   }

   if (tc_select(argv[0], "heapsnap", opt.prefix_opt, targets, n_targets,
                 opt.dir, &runs, &n_runs) != 0)
      return 1;
   for (r = 0; r < n_runs; r++) {
      printf("PID %d: %s\n", runs[r].pid, runs[r].cmdline);
      for (c = 0; c < n_commands; c++) {
         char *out, *line, *save = NULL;
         int rc;
         if (opt.verbose)
            printf("  [requesting '%s']\n", commands[c]);
         fflush(stdout);
         rc = tc_command(runs[r].pid, opt.prefix_opt, commands[c], &out);
         if (rc != 0) {
            printf("  Error: vgdb failed (%d).\n", rc);
            failed = 1;
            continue;
         }
         /* What the process said (where an xtree file went). */
         for (line = strtok_r(out, "\n", &save); line;
              line = strtok_r(NULL, "\n", &save))
            printf("  %s\n", line);
         printf("  OK.\n");
         free(out);
      }
      tc_run_free(&runs[r]);
   }
   free(runs);
   free(targets);
   free(commands);
   return failed;
}
