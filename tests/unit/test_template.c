/* test_template.c: file-name templates (%p %n %q{VAR} %%).

   Copyright (C) 2026 The heapsnap/callprof developers.
   SPDX-License-Identifier: GPL-2.0-or-later */

#include <stdio.h>
#include <string.h>

#include "check.h"

static const char *fake_getenv(const char *name)
{
   if (strcmp(name, "HOME") == 0)
      return "/home/u";
   if (strcmp(name, "EMPTY") == 0)
      return "";
   if (strcmp(name, "DIR") == 0)
      return "sub/dir";
   return NULL;
}

/* Expand and return the name, or "ERR: message". */
static const char *expand(const char *tmpl, int pid, const char *base,
                          size_t outsz)
{
   static char out[512], res[600];
   const char *msg;

   if (outsz > sizeof out)
      outsz = sizeof out;
   msg = pw_template_expand(tmpl, pid, fake_getenv, base, out, outsz);
   if (msg == NULL)
      return out;
   CHECK_STR(out, "");                  /* nothing half-expanded */
   CHECK(strchr(msg, '\n') == NULL);    /* one line */
   snprintf(res, sizeof res, "ERR: %s", msg);
   return res;
}

static void test_expand(void)
{
   CHECK_STR(expand("out.%p", 1234, "/base", 512), "/base/out.1234");
   CHECK_STR(expand("/abs/%%x%%", 1, "/base", 512), "/abs/%x%");
   CHECK_STR(expand("%q{HOME}/f.%p", 7, "/base", 512), "/home/u/f.7");
   CHECK_STR(expand("%q{HOME}/f", 7, NULL, 512), "/home/u/f");
   CHECK_STR(expand("%q{EMPTY}f", 7, "/base", 512), "/base/f");
   CHECK_STR(expand("a/%q{DIR}/b", 7, "/w", 512), "/w/a/sub/dir/b");
   CHECK_STR(expand("plain", 7, "/", 512), "//plain");
   CHECK_STR(expand("/x", 7, NULL, 512), "/x");

   /* errors */
   CHECK_STR(expand("%q{NOPE}.out", 7, "/base", 512),
             "ERR: environment variable 'NOPE' is not set");
   CHECK_STR(expand("%q{HOME", 7, "/base", 512),
             "ERR: missing '}' in %q{...}");
   CHECK_STR(expand("%qHOME", 7, "/base", 512),
             "ERR: expected '{' after '%q'");
   CHECK_STR(expand("a%x", 7, "/base", 512),
             "ERR: unknown specifier '%x' in the file name "
             "(expected %p, %n, %q{VAR} or %%)");
   CHECK_STR(expand("a%", 7, "/base", 512),
             "ERR: '%' at the end of the file name "
             "(expected %p, %n, %q{VAR} or %%)");
   CHECK_STR(expand("", 7, "/base", 512), "ERR: no file name given");
   CHECK_STR(expand("~/x", 7, "/base", 512),
             "ERR: file name begins with '~' (the shell did not expand "
             "it; use $HOME instead)");
   CHECK_STR(expand("rel", 7, NULL, 512),
             "ERR: current directory unknown: use an absolute file name");

   /* too long: the name itself, and only with BASE_DIR in front */
   CHECK_STR(expand("/abcdefghijkl", 7, NULL, 10),
             "ERR: file name too long");
   CHECK_STR(expand("/abcdefgh", 7, NULL, 10), "/abcdefgh");
   CHECK_STR(expand("abc", 7, "/base", 10), "/base/abc");
   CHECK_STR(expand("abcd", 7, "/base", 10), "ERR: file name too long");
   CHECK_STR(expand("/%q{HOME}/%q{HOME}", 7, NULL, 16),
             "ERR: file name too long");
   CHECK_STR(expand("/%p", 12345678, NULL, 10), "/12345678");
   CHECK_STR(expand("/%p", 123456789, NULL, 10), "ERR: file name too long");
}

static void test_seq(void)
{
   /* %n: 1, 2, ... per pid; each %n takes the next number; a new pid
      starts again at 1; pw_template_check never advances it */
   CHECK_STR(expand("/o.%n", 500, NULL, 512), "/o.1");
   CHECK_STR(expand("/o.%n", 500, NULL, 512), "/o.2");
   CHECK(pw_template_check("/o.%n") == NULL);
   CHECK_STR(expand("/o.%n.%n", 500, NULL, 512), "/o.3.4");
   CHECK_STR(expand("o.%p.%n", 501, "/b", 512), "/b/o.501.1");
   CHECK_STR(expand("o.%p.%n", 501, "/b", 512), "/b/o.501.2");
   CHECK_STR(expand("o.%p.%n", 500, "/b", 512), "/b/o.500.1");
}

static void test_check(void)
{
   CHECK(pw_template_check("out.%p.%n.%q{ANY}%%") == NULL);
   CHECK(pw_template_check("%q{NOT_LOOKED_UP}") == NULL);
   CHECK(pw_template_check("relative/name") == NULL);
   CHECK_STR(pw_template_check(""), "no file name given");
   CHECK_STR(pw_template_check("~x"),
             "file name begins with '~' (the shell did not expand it; "
             "use $HOME instead)");
   CHECK_STR(pw_template_check("a%d"),
             "unknown specifier '%d' in the file name "
             "(expected %p, %n, %q{VAR} or %%)");
   CHECK_STR(pw_template_check("a%"),
             "'%' at the end of the file name "
             "(expected %p, %n, %q{VAR} or %%)");
   CHECK_STR(pw_template_check("%q{X"), "missing '}' in %q{...}");
   CHECK_STR(pw_template_check("%q"), "expected '{' after '%q'");
   CHECK_STR(pw_template_check("%qX"), "expected '{' after '%q'");
}

void test_template(void)
{
   test_expand();
   test_seq();
   test_check();
}
