/* test_toolcontrol.c: reading `vgdb -l` and naming targets
   (include/toolcontrol.h) on the host, as callgrind_control reads them.

   Copyright (C) 2026 The heapsnap/callprof developers.
   SPDX-License-Identifier: GPL-2.0-or-later */

#include <stdio.h>

#include "check.h"
#include "toolcontrol.h"

static void test_list_lines(void)
{
   TC_Run r;

   /* Debian's launcher (valgrind.bin), options, program and arguments. */
   CHECK(tc_parse_list_line("use --pid=644 for /usr/bin/valgrind.bin "
                            "--tool=callprof --vgdb=yes ./server 8080 ",
                            "callprof", &r));
   CHECK_LONG(r.pid, 644);
   CHECK_STR(r.cmdline, "./server 8080");
   CHECK_STR(r.program, "./server");
   tc_run_free(&r);

   /* Upstream's launcher; no argument. */
   CHECK(tc_parse_list_line("use --pid=7 for /opt/vg/bin/valgrind -q "
                            "--tool=heapsnap --heapsnap-out-file=x.%p "
                            "/bin/sleep\n", "heapsnap", &r));
   CHECK_LONG(r.pid, 7);
   CHECK_STR(r.cmdline, "/bin/sleep");
   tc_run_free(&r);

   /* Another tool, a tool whose name only starts the same, the tool
      named among the program's arguments, not a run line at all. */
   CHECK(!tc_parse_list_line("use --pid=9 for /usr/bin/valgrind.bin "
                             "--tool=callgrind ./a", "callprof", &r));
   CHECK(!tc_parse_list_line("use --pid=9 for /usr/bin/valgrind.bin "
                             "--tool=callprofx ./a", "callprof", &r));
   CHECK(!tc_parse_list_line("use --pid=9 for /usr/bin/valgrind.bin "
                             "./a --tool=callprof", "callprof", &r));
   CHECK(!tc_parse_list_line("vgdb-error: no process", "callprof", &r));
   CHECK(!tc_parse_list_line("use --pid=x for v --tool=callprof ./a",
                             "callprof", &r));
   /* Options but no program. */
   CHECK(!tc_parse_list_line("use --pid=9 for valgrind --tool=callprof ",
                             "callprof", &r));
}

static void test_targets(void)
{
   TC_Run r = { 1234, (char *)"./bin/server 8080", (char *)"./bin/server" };
   CHECK(tc_matches(&r, "1234"));
   CHECK(!tc_matches(&r, "123"));
   CHECK(tc_matches(&r, "server"));
   CHECK(tc_matches(&r, "bin/server"));
   CHECK(tc_matches(&r, "./bin/server"));
   CHECK(!tc_matches(&r, "serve"));
   CHECK(!tc_matches(&r, "8080"));
   CHECK(!tc_matches(&r, ""));
}

static void test_options(void)
{
   char *argv[] = { (char *)"x", (char *)"--vgdb-prefix=/tmp/p",
                    (char *)"-v", (char *)"-v", (char *)"--list",
                    (char *)"-w", (char *)"/srv", (char *)"-w=/opt",
                    (char *)"-s", (char *)"-w" };
   int argc = 10, i = 1;
   TC_Options o = { NULL, NULL, 0 };
   for (; i <= 4; i++)
      CHECK_LONG(tc_option(argc, argv, &i, &o), 1);
   CHECK_STR(o.prefix_opt, "--vgdb-prefix=/tmp/p");
   CHECK_LONG(o.verbose, 2);
   CHECK_LONG(tc_option(argc, argv, &i, &o), 1);   /* -w /srv */
   CHECK_LONG(i, 6);
   CHECK_STR(o.dir, "/srv");
   i = 7;
   CHECK_LONG(tc_option(argc, argv, &i, &o), 1);
   CHECK_STR(o.dir, "/opt");
   i = 8;
   CHECK_LONG(tc_option(argc, argv, &i, &o), 0);   /* -s: not one */
   i = 9;
   CHECK_LONG(tc_option(argc, argv, &i, &o), -1);  /* -w, no value */
}

int main(void)
{
   test_list_lines();
   test_targets();
   test_options();
   printf("unit: %u checks, %u failed\n", check_count, check_failed);
   return check_failed ? 1 : 0;
}
