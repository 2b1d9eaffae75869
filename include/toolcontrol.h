/* toolcontrol.h: finding the running Valgrind processes of one tool and
   sending them monitor commands, for callprof_control and
   heapsnap_control.

   Copyright (C) 2026 The heapsnap/callprof developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   Everything goes through Valgrind's own vgdb, as callgrind_control
   does: `vgdb -l` lists the processes that run with gdbserver (the
   default, --vgdb=yes), one line each,

      use --pid=644 for /usr/bin/valgrind.bin --tool=callprof -q ./server 8080

   and `vgdb --pid=N COMMAND` sends a command and prints its answer.
   vgdb makes a process listen even while every thread of it waits in a
   system call (its "invoker", with ptrace).  The vgdb program is the
   one on PATH, or $VGDB. */

#ifndef TOOLCONTROL_H
#define TOOLCONTROL_H

#include <stddef.h>

/* A run of the tool. */
typedef struct {
   int   pid;
   char *cmdline;   /* the program and its arguments, Valgrind's
                       executable and options taken off */
   char *program;   /* the first word of cmdline */
} TC_Run;

/* Whether LINE of `vgdb -l` is a run of TOOL (--tool=TOOL among its
   options); if so RUN is filled (free with tc_run_free).  No I/O: unit
   tested. */
int tc_parse_list_line(const char *line, const char *tool, TC_Run *run);
void tc_run_free(TC_Run *run);

/* Whether RUN is the target named by ARG as callgrind_control takes
   it: its pid, or a name its program ends with ("server" names
   ./bin/server). */
int tc_matches(const TC_Run *run, const char *arg);

/* The runs of TOOL, into *RUNS (malloc'd, *N of them).  PREFIX_OPT is
   "--vgdb-prefix=..." or NULL.  0, or -1 when vgdb could not be run
   (said on stderr). */
int tc_list(const char *tool, const char *prefix_opt, TC_Run **runs,
            size_t *n);

/* The options every control program takes: --vgdb-prefix=P (kept whole,
   as vgdb takes it), -v (more each time), -l/--list (the default
   action: nothing to keep), -w DIR or -w=DIR. */
typedef struct {
   const char *prefix_opt;
   const char *dir;
   int         verbose;
} TC_Options;

/* Whether ARGV[*I] is one of those: taken into O, *I moved past a value
   given as the next argument.  1 if taken, 0 if not one of them, -1 for
   a -w without its directory. */
int tc_option(int argc, char **argv, int *i, TC_Options *o);

/* The runs an action applies to, into *RUNS (*N of them, each to be
   freed with tc_run_free, then the array): those of TOOL named by
   TARGETS (N_TARGETS of them, tc_matches; none: every run), and with
   DIR not NULL only those whose working directory is DIR.  0; or 1
   after saying, as callgrind_control says it, that a target was not
   found ("Error: callprof task with PID/name 'x' not detected.") or
   that there is no run ("No active callprof runs detected."), or when
   vgdb could not be run.  PROGRAM names the caller in the message. */
int tc_select(const char *program, const char *tool, const char *prefix_opt,
              const char **targets, int n_targets, const char *dir,
              TC_Run **runs, size_t *n);

/* Send COMMAND to process PID; its answer (vgdb's standard output)
   into *OUT, malloc'd and NUL-terminated; vgdb's standard error (its
   "sending command ..." line, its errors) goes to ours, as with
   callgrind_control.  vgdb's exit status, or -1 when it could not be
   run. */
int tc_command(int pid, const char *prefix_opt, const char *command,
               char **out);

#endif /* TOOLCONTROL_H */
