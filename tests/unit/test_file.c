/* test_file.c: PW_File, written whole or not at all.

   Copyright (C) 2026 The heapsnap/callprof developers.
   SPDX-License-Identifier: GPL-2.0-or-later */

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "pw_platform.h"

static char dir[64];

static int exists(const char *path)
{
   struct stat st;
   return stat(path, &st) == 0;
}

static char *slurp(const char *path)
{
   static char buf[1 << 20];
   FILE *f = fopen(path, "rb");
   size_t n;
   if (f == NULL)
      return NULL;
   n = fread(buf, 1, sizeof buf - 1, f);
   buf[n] = '\0';
   fclose(f);
   return buf;
}

static const char *in_dir(const char *name)
{
   static char path[4][256];
   static int k;
   k = (k + 1) % 4;
   snprintf(path[k], sizeof path[k], "%s/%s", dir, name);
   return path[k];
}

static void test_commit(void)
{
   const char *path = in_dir("out.txt");
   const char *tmp = in_dir(".out.txt.part");
   PW_File *f = pw_file_open(path, "heapsnap", PW_MODE_MASSIF);

   CHECK(f != NULL);
   if (f == NULL)
      return;
   CHECK_STR(pw_file_path(f), path);
   CHECK(exists(tmp));
   CHECK(!exists(path));
   pw_printf(pw_file_sink(f), "hello %s\n", "file");
   CHECK_LONG(pw_file_commit(f), 0);
   CHECK(!exists(tmp));
   CHECK_STR(slurp(path), "hello file\n");

   /* an existing file is replaced */
   f = pw_file_open(path, "heapsnap", PW_MODE_MASSIF);
   CHECK(f != NULL);
   if (f == NULL)
      return;
   pw_put(pw_file_sink(f), "second\n");
   CHECK_LONG(pw_file_commit(f), 0);
   CHECK_STR(slurp(path), "second\n");
   unlink(path);
}

/* Massif's files are readable by all, Callgrind's by their owner only
   (before the umask); ours follow. */
static void test_mode(void)
{
   const char *path = in_dir("mode.txt");
   mode_t old = umask(022);
   struct stat st;
   PW_File *f = pw_file_open(path, "heapsnap", PW_MODE_MASSIF);
   CHECK(f != NULL);
   if (f != NULL && pw_file_commit(f) == 0 && stat(path, &st) == 0)
      CHECK_LONG(st.st_mode & 0777, 0644);
   unlink(path);
   f = pw_file_open(path, "callprof", PW_MODE_CALLGRIND);
   CHECK(f != NULL);
   if (f != NULL && pw_file_commit(f) == 0 && stat(path, &st) == 0)
      CHECK_LONG(st.st_mode & 0777, 0600);
   unlink(path);
   umask(old);
}

/* A target that is a device (here a link to /dev/null, so that a
   failure replaces the link, not the device) is written directly, not
   replaced by a file. */
static void test_device(void)
{
   const char *path = in_dir("null");
   struct stat st;
   PW_File *f;
   CHECK(symlink("/dev/null", path) == 0);
   f = pw_file_open(path, "heapsnap", PW_MODE_MASSIF);
   CHECK(f != NULL);
   if (f != NULL) {
      pw_put(pw_file_sink(f), "gone\n");
      CHECK_LONG(pw_file_commit(f), 0);
   }
   CHECK(lstat(path, &st) == 0 && S_ISLNK(st.st_mode));
   f = pw_file_open(path, "callprof", PW_MODE_CALLGRIND);
   pw_file_abandon(f);
   CHECK(lstat(path, &st) == 0 && S_ISLNK(st.st_mode));
   unlink(path);
}

static void test_big(void)
{
   /* more than the 64 KiB buffer, in small and large pieces */
   const char *path = in_dir("big.txt");
   PW_File *f = pw_file_open(path, "callprof", PW_MODE_CALLGRIND);
   static char chunk[100000];
   unsigned i;
   char *got;

   CHECK(f != NULL);
   if (f == NULL)
      return;
   memset(chunk, 'q', sizeof chunk - 1);
   for (i = 0; i < 20000; i++)
      pw_put(pw_file_sink(f), "0123456789");
   pw_put(pw_file_sink(f), chunk);
   CHECK_LONG(pw_file_sink(f)->bytes, 200000 + sizeof chunk - 1);
   CHECK_LONG(pw_file_commit(f), 0);
   got = slurp(path);
   CHECK(got != NULL && strlen(got) == 200000 + sizeof chunk - 1);
   CHECK(got != NULL && strncmp(got, "01234567890123", 14) == 0);
   CHECK(got != NULL && got[strlen(got) - 1] == 'q');
   unlink(path);
}

static void test_relative(void)
{
   char cwd[512];
   PW_File *f;

   if (getcwd(cwd, sizeof cwd) == NULL || chdir(dir) != 0) {
      CHECK(!"chdir");
      return;
   }
   f = pw_file_open("rel.txt", "heapsnap", PW_MODE_MASSIF);
   CHECK(f != NULL);
   CHECK(exists(".rel.txt.part"));
   if (f != NULL)
      CHECK_LONG(pw_file_commit(f), 0);
   CHECK(exists("rel.txt"));
   CHECK(!exists(".rel.txt.part"));
   unlink("rel.txt");
   CHECK(chdir(cwd) == 0);
}

static void test_abandon(void)
{
   const char *path = in_dir("gone.txt");
   PW_File *f = pw_file_open(path, "heapsnap", PW_MODE_MASSIF);

   CHECK(f != NULL);
   if (f == NULL)
      return;
   pw_put(pw_file_sink(f), "never seen");
   pw_file_abandon(f);
   CHECK(!exists(path));
   CHECK(!exists(in_dir(".gone.txt.part")));
}

static void test_open_errors(void)
{
   char want[512];
   const char *path = in_dir("missing/x.out");
   PW_File *f;

   pw_test_last_message[0] = '\0';
   f = pw_file_open(path, "heapsnap", PW_MODE_MASSIF);
   CHECK(f == NULL);
   snprintf(want, sizeof want,
            "heapsnap: cannot write %s: No such file or directory", path);
   CHECK_STR(pw_test_last_message, want);

   /* a directory we may not write into (root may, so skip then) */
   if (geteuid() != 0) {
      const char *ro = in_dir("ro");
      const char *p2 = in_dir("ro/x.out");
      CHECK(mkdir(ro, 0500) == 0);
      pw_test_last_message[0] = '\0';
      f = pw_file_open(p2, "callprof", PW_MODE_CALLGRIND);
      CHECK(f == NULL);
      snprintf(want, sizeof want,
               "callprof: cannot write %s: Permission denied", p2);
      CHECK_STR(pw_test_last_message, want);
      if (f != NULL)
         pw_file_abandon(f);
      rmdir(ro);
   }

   /* a path naming no file */
   pw_test_last_message[0] = '\0';
   f = pw_file_open(in_dir(""), "heapsnap", PW_MODE_MASSIF);
   CHECK(f == NULL);
   CHECK(strstr(pw_test_last_message, "Is a directory") != NULL);
}

static void test_rename_error(void)
{
   /* the target is a directory: the rename fails, nothing is left */
   const char *path = in_dir("isdir");
   PW_File *f;
   char want[512];

   CHECK(mkdir(path, 0700) == 0);
   f = pw_file_open(path, "heapsnap", PW_MODE_MASSIF);
   CHECK(f != NULL);
   if (f == NULL)
      return;
   pw_put(pw_file_sink(f), "data\n");
   pw_test_last_message[0] = '\0';
   CHECK_LONG(pw_file_commit(f), EISDIR);
   snprintf(want, sizeof want, "heapsnap: cannot write %s: Is a directory",
            path);
   CHECK_STR(pw_test_last_message, want);
   CHECK(!exists(in_dir(".isdir.part")));
   rmdir(path);
}

/* Disk full after BUDGET bytes: a short write, then ENOSPC. */
static long budget;
static int  hook_calls;
static long enospc_hook(int fd, const char *buf, size_t len)
{
   hook_calls++;
   if (budget <= 0)
      return -ENOSPC;
   if ((long)len > budget)
      len = (size_t)budget;
   budget -= (long)len;
   return pw_sys_write_raw(fd, buf, len);
}

static void test_enospc(void)
{
   const char *path = in_dir("full.out");
   char want[512];
   PW_File *f;
   unsigned i;

   budget = 100000;
   hook_calls = 0;
   pw_test_write_hook = enospc_hook;
   f = pw_file_open(path, "heapsnap", PW_MODE_MASSIF);
   CHECK(f != NULL);
   if (f == NULL) {
      pw_test_write_hook = NULL;
      return;
   }
   for (i = 0; i < 30000; i++)
      pw_printf(pw_file_sink(f), "line %u\n", i);
   pw_test_last_message[0] = '\0';
   CHECK_LONG(pw_file_commit(f), ENOSPC);
   pw_test_write_hook = NULL;
   CHECK(hook_calls >= 2);
   snprintf(want, sizeof want,
            "heapsnap: cannot write %s: No space left on device", path);
   CHECK_STR(pw_test_last_message, want);
   CHECK(!exists(path));
   CHECK(!exists(in_dir(".full.out.part")));

   /* the error also counts when it only shows at the final flush */
   budget = 10;
   pw_test_write_hook = enospc_hook;
   f = pw_file_open(path, "callprof", PW_MODE_CALLGRIND);
   CHECK(f != NULL);
   if (f != NULL) {
      pw_put(pw_file_sink(f), "more than ten bytes\n");
      CHECK_LONG(pw_file_commit(f), ENOSPC);
   }
   pw_test_write_hook = NULL;
   CHECK(!exists(path));
   CHECK(!exists(in_dir(".full.out.part")));
}

void test_file(void)
{
   /* the expected "cannot write" lines would clutter the output: they
      are checked through pw_test_last_message instead */
   int saved = dup(2), null = open("/dev/null", O_WRONLY);

   if (null >= 0) {
      dup2(null, 2);
      close(null);
   }
   strcpy(dir, "/tmp/pwunit.XXXXXX");
   if (mkdtemp(dir) != NULL) {
      test_commit();
      test_mode();
      test_device();
      test_big();
      test_relative();
      test_abandon();
      test_open_errors();
      test_rename_error();
      test_enospc();
      CHECK(rmdir(dir) == 0);       /* nothing left behind */
   } else {
      CHECK(!"mkdtemp");
   }
   if (saved >= 0) {
      dup2(saved, 2);
      close(saved);
   }
}
