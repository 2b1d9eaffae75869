/* udpserver.c: a small multi-threaded UDP server, the example service of
   README's "Profiling a service under load" and of its tests.

   Copyright (C) 2026 The heapsnap/callprof developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   Usage: udpserver [THREADS [PORTFILE]]

   Listens on 127.0.0.1 (loopback only), on a port the kernel chooses,
   which it writes to PORTFILE (default "port") once it serves.  THREADS
   workers (default 4) share the socket; each request is answered by one
   of them: handle() parses the request ("N TEXT"), keeps TEXT in a
   small per-worker history (allocated, the oldest entry freed), hashes
   it N times (at most 64) and sends back "HASH". The work of a request
   depends on the request alone, so the same requests cost the same
   whatever the thread that answers them.

   SIGTERM or SIGINT ends the server: the main thread, the only one the
   signals reach, sends each worker a "stop" request and joins them, and
   the server exits 0 with its heap freed (so that a profiler writes its
   final profile as at any normal exit). */

#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define MAX_THREADS 64
#define HISTORY     16

static int sock;

typedef struct {
   char *entry[HISTORY];
   unsigned next;
   unsigned long served;
} Worker;

static unsigned long hash(const char *s, size_t n, unsigned rounds)
{
   unsigned long h = 1469598103934665603UL;
   for (unsigned r = 0; r < rounds; r++)
      for (size_t i = 0; i < n; i++) {
         h ^= (unsigned char)s[i];
         h *= 1099511628211UL;
      }
   return h;
}

static void remember(Worker *w, const char *text, size_t n)
{
   char *copy = malloc(n + 1);
   if (copy == NULL)
      return;
   memcpy(copy, text, n);
   copy[n] = '\0';
   free(w->entry[w->next]);
   w->entry[w->next] = copy;
   w->next = (w->next + 1) % HISTORY;
}

/* One request: its answer into OUT; 0 for "stop". */
static int handle(Worker *w, const char *req, size_t n, char *out,
                  size_t size)
{
   unsigned rounds = 0;
   size_t i = 0;
   if (n == 4 && memcmp(req, "stop", 4) == 0)
      return 0;
   while (i < n && req[i] >= '0' && req[i] <= '9')
      rounds = rounds * 10 + (unsigned)(req[i++] - '0');
   if (rounds > 64)
      rounds = 64;
   if (i < n && req[i] == ' ')
      i++;
   remember(w, req + i, n - i);
   snprintf(out, size, "%016lx", hash(req + i, n - i, rounds));
   w->served++;
   return 1;
}

static void *serve(void *arg)
{
   Worker *w = arg;
   char req[1024], out[64];
   for (;;) {
      struct sockaddr_in from;
      socklen_t len = sizeof from;
      ssize_t n = recvfrom(sock, req, sizeof req, 0,
                           (struct sockaddr *)&from, &len);
      if (n < 0)
         continue;
      if (!handle(w, req, (size_t)n, out, sizeof out))
         break;
      sendto(sock, out, strlen(out), 0, (struct sockaddr *)&from, len);
   }
   return NULL;
}

int main(int argc, char **argv)
{
   int threads = argc > 1 ? atoi(argv[1]) : 4;
   const char *portfile = argc > 2 ? argv[2] : "port";
   static Worker workers[MAX_THREADS];
   pthread_t tids[MAX_THREADS];
   struct sockaddr_in addr;
   socklen_t len = sizeof addr;
   sigset_t stop;
   FILE *f;
   int sig, i, k;

   if (threads < 1 || threads > MAX_THREADS) {
      fprintf(stderr, "udpserver: THREADS must be 1..%d\n", MAX_THREADS);
      return 2;
   }
   /* Only the main thread takes SIGTERM and SIGINT (sigwait below). */
   sigemptyset(&stop);
   sigaddset(&stop, SIGTERM);
   sigaddset(&stop, SIGINT);
   pthread_sigmask(SIG_BLOCK, &stop, NULL);

   sock = socket(AF_INET, SOCK_DGRAM, 0);
   memset(&addr, 0, sizeof addr);
   addr.sin_family = AF_INET;
   addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
   addr.sin_port = 0;
   if (sock < 0 || bind(sock, (struct sockaddr *)&addr, sizeof addr) != 0 ||
       getsockname(sock, (struct sockaddr *)&addr, &len) != 0) {
      perror("udpserver: socket");
      return 1;
   }
   for (i = 0; i < threads; i++)
      pthread_create(&tids[i], NULL, serve, &workers[i]);
   /* The port file appears whole: written aside, then renamed. */
   {
      char tmp[4096];
      snprintf(tmp, sizeof tmp, "%s.tmp", portfile);
      f = fopen(tmp, "w");
      if (f == NULL || fprintf(f, "%d\n", ntohs(addr.sin_port)) < 0 ||
          fclose(f) != 0 || rename(tmp, portfile) != 0) {
         perror("udpserver: port file");
         return 1;
      }
   }

   sigwait(&stop, &sig);
   /* Each worker takes one "stop" and ends. */
   for (i = 0; i < threads; i++)
      sendto(sock, "stop", 4, 0, (struct sockaddr *)&addr, sizeof addr);
   for (i = 0; i < threads; i++)
      pthread_join(tids[i], NULL);
   close(sock);
   {
      unsigned long served = 0;
      for (i = 0; i < threads; i++) {
         served += workers[i].served;
         for (k = 0; k < HISTORY; k++)
            free(workers[i].entry[k]);
      }
      fprintf(stderr, "udpserver: %lu requests served\n", served);
   }
   return 0;
}
