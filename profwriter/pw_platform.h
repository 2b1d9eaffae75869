/* pw_platform.h: the system services profwriter needs, in two worlds.

   Copyright (C) 2026 The heapsnap/callprof developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   Inside a Valgrind tool there is no libc: memory, strings, formatting and
   system calls go through the core's VG_() functions.  On the host
   (-DPW_HOST: unit tests, host-side programs) the same names map to libc.
   This is the only file of the library that knows which world it is in.

   System calls return a negative errno on failure in both worlds.

   Unit tests may build with -DPW_TEST_HOOKS: then every write goes through
   pw_test_write_hook, so a test can fail writes after N bytes (disk full)
   without a full disk. */

#ifndef PW_PLATFORM_H
#define PW_PLATFORM_H

#include "profwriter.h"

#ifdef PW_HOST

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define PW_MALLOC(cc, n)      malloc(n)
#define PW_REALLOC(cc, p, n)  realloc((p), (n))
#define PW_FREE(p)            free(p)
#define PW_STRLEN(s)          strlen(s)
#define PW_STRCMP(a, b)       strcmp((a), (b))
#define PW_MEMCPY(d, s, n)    memcpy((d), (s), (n))
#define PW_MEMSET(d, c, n)    memset((d), (c), (n))
#define PW_VSNPRINTF(b, n, f, ap) vsnprintf((b), (n), (f), (ap))
#define PW_SORT(b, n, sz, cmp) qsort((b), (n), (sz), (cmp))
#define PW_GETPID()           ((int)getpid())

/* The errno values profwriter names (pw_errstr, pw_file). */
#define PW_EPERM          EPERM
#define PW_ENOENT         ENOENT
#define PW_EIO            EIO
#define PW_ENOMEM         ENOMEM
#define PW_EACCES         EACCES
#define PW_EEXIST         EEXIST
#define PW_ENOTDIR        ENOTDIR
#define PW_EISDIR         EISDIR
#define PW_EMFILE         EMFILE
#define PW_EFBIG          EFBIG
#define PW_ENOSPC         ENOSPC
#define PW_EROFS          EROFS
#define PW_ENAMETOOLONG   ENAMETOOLONG
#define PW_ELOOP          ELOOP
#define PW_EDQUOT         EDQUOT

static inline int pw_sys_open_write(const char *path, int mode)
{
   int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, (mode_t)mode);
   return fd < 0 ? -errno : fd;
}
static inline long pw_sys_write_raw(int fd, const char *buf, size_t len)
{
   long n = (long)write(fd, buf, len);
   return n < 0 ? -errno : n;
}
static inline int pw_sys_close(int fd)
{
   return close(fd) < 0 ? -errno : 0;
}
static inline int pw_sys_rename(const char *from, const char *to)
{
   return rename(from, to) < 0 ? -errno : 0;
}
static inline void pw_sys_unlink(const char *path) { (void)unlink(path); }
/* An unnamed file in directory DIR (O_TMPFILE): a process killed while
   writing it leaves nothing behind.  -errno where the kernel or the
   file system cannot (then a named temporary file is used). */
static inline int pw_sys_open_anon(const char *dir, int mode)
{
#ifdef O_TMPFILE
   int fd = open(dir, O_TMPFILE | O_WRONLY, (mode_t)mode);
   return fd < 0 ? -errno : fd;
#else
   (void)dir; (void)mode;
   return -EOPNOTSUPP;
#endif
}
/* Give the unnamed file open as FD the name TO (linkat through
   /proc/self/fd, which needs no privilege). */
static inline int pw_sys_link_fd(int fd, const char *to)
{
   char p[64];
   snprintf(p, sizeof p, "/proc/self/fd/%d", fd);
   return linkat(AT_FDCWD, p, AT_FDCWD, to, AT_SYMLINK_FOLLOW) < 0 ? -errno
                                                                   : 0;
}
/* 1 if PATH exists and is neither a regular file nor a directory (a
   device such as /dev/null or /dev/stdout, a fifo). */
static inline int pw_sys_is_special(const char *path)
{
   struct stat st;
   return stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
}

/* One line for the user; tests may capture it (see pw_test_last_message). */
void pw_message(const char *line);

#else /* inside a Valgrind tool */

#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_vki.h"
#include "pub_tool_vkiscnums.h"

#define PW_MALLOC(cc, n)      VG_(malloc)((cc), (n))
#define PW_REALLOC(cc, p, n)  VG_(realloc)((cc), (p), (n))
#define PW_FREE(p)            VG_(free)(p)
#define PW_STRLEN(s)          VG_(strlen)(s)
#define PW_STRCMP(a, b)       VG_(strcmp)((a), (b))
#define PW_MEMCPY(d, s, n)    VG_(memcpy)((d), (s), (n))
#define PW_MEMSET(d, c, n)    VG_(memset)((d), (c), (n))
#define PW_VSNPRINTF(b, n, f, ap) VG_(vsnprintf)((b), (n), (f), (ap))
#define PW_SORT(b, n, sz, cmp) VG_(ssort)((b), (n), (sz), (cmp))
#define PW_GETPID()           VG_(getpid)()

/* The errno values profwriter names (pw_errstr, pw_file). */
#define PW_EPERM          VKI_EPERM
#define PW_ENOENT         VKI_ENOENT
#define PW_EIO            VKI_EIO
#define PW_ENOMEM         VKI_ENOMEM
#define PW_EACCES         VKI_EACCES
#define PW_EEXIST         VKI_EEXIST
#define PW_ENOTDIR        VKI_ENOTDIR
#define PW_EISDIR         VKI_EISDIR
#define PW_EMFILE         VKI_EMFILE
#define PW_EFBIG          VKI_EFBIG
#define PW_ENOSPC         VKI_ENOSPC
#define PW_EROFS          VKI_EROFS
#ifdef VKI_ENAMETOOLONG
#define PW_ENAMETOOLONG   VKI_ENAMETOOLONG
#else   /* missing from some vki headers: the asm-generic value */
#define PW_ENAMETOOLONG   36
#endif
#ifdef VKI_ELOOP
#define PW_ELOOP          VKI_ELOOP
#else   /* missing from some vki headers: the asm-generic value */
#define PW_ELOOP          40
#endif
#ifdef VKI_EDQUOT
#define PW_EDQUOT         VKI_EDQUOT
#else   /* missing from some vki headers: the asm-generic value */
#define PW_EDQUOT         122
#endif

static inline int pw_sys_open_write(const char *path, int mode)
{
   SysRes r = VG_(open)(path, VKI_O_CREAT | VKI_O_WRONLY | VKI_O_TRUNC,
                        mode);
   return sr_isError(r) ? -(int)sr_Err(r) : (int)sr_Res(r);
}
static inline long pw_sys_write_raw(int fd, const char *buf, size_t len)
{
   return VG_(write)(fd, buf, (Int)len);   /* -errno on failure */
}
static inline int pw_sys_close(int fd)
{
   VG_(close)(fd);      /* the core reports no error here */
   return 0;
}
static inline int pw_sys_rename(const char *from, const char *to)
{
   /* VG_(rename) returns -1 without the errno.  The temporary file was
      just written beside the target, so what is left to go wrong is a
      target that is a directory, or one we may not replace. */
   struct vg_stat st;
   if (VG_(rename)(from, to) == 0)
      return 0;
   if (!sr_isError(VG_(stat)(to, &st)) && VKI_S_ISDIR(st.mode))
      return -VKI_EISDIR;
   return -VKI_EACCES;
}
static inline void pw_sys_unlink(const char *path) { (void)VG_(unlink)(path); }
/* As on the host (O_TMPFILE is __O_TMPFILE | O_DIRECTORY, the same on
   every Linux platform the tools build for: tool_platform.h). */
static inline int pw_sys_open_anon(const char *dir, int mode)
{
   SysRes r = VG_(open)(dir, VKI_O_WRONLY | 020000000 | 0200000, mode);
   return sr_isError(r) ? -(int)sr_Err(r) : (int)sr_Res(r);
}
/* The core's system call, not in the tool headers (pub_core_syscall.h);
   the tool libraries have no linkat. */
extern SysRes VG_(do_syscall)(UWord sysno, RegWord, RegWord, RegWord,
                              RegWord, RegWord, RegWord, RegWord, RegWord);
static inline int pw_sys_link_fd(int fd, const char *to)
{
   HChar p[64];
   SysRes r;
   VG_(sprintf)(p, "/proc/self/fd/%d", fd);
   r = VG_(do_syscall)(__NR_linkat, (RegWord)VKI_AT_FDCWD, (RegWord)p,
                       (RegWord)VKI_AT_FDCWD, (RegWord)to,
                       0x400 /* AT_SYMLINK_FOLLOW */, 0, 0, 0);
   return sr_isError(r) ? -(int)sr_Err(r) : 0;
}
static inline int pw_sys_is_special(const char *path)
{
   struct vg_stat st;
   return !sr_isError(VG_(stat)(path, &st)) && !VKI_S_ISREG(st.mode) &&
          !VKI_S_ISDIR(st.mode);
}

static inline void pw_message(const char *line)
{
   VG_(umsg)("%s\n", line);
}

#endif /* PW_HOST */

#ifdef PW_TEST_HOOKS
/* Set by unit tests: when non-NULL, replaces the write system call. */
extern long (*pw_test_write_hook)(int fd, const char *buf, size_t len);
/* On the host, the last line given to pw_message (truncated). */
extern char pw_test_last_message[512];
static inline long pw_sys_write(int fd, const char *buf, size_t len)
{
   return pw_test_write_hook ? pw_test_write_hook(fd, buf, len)
                             : pw_sys_write_raw(fd, buf, len);
}
#else
#define pw_sys_write pw_sys_write_raw
#endif

#endif /* PW_PLATFORM_H */
