/* loadgen.c: a bounded loopback load generator for udpserver.

   Copyright (C) 2026 The heapsnap/callprof developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   Usage: loadgen PORT REQUESTS [SECONDS [WINDOW [FIRST]]]

   Sends REQUESTS requests to 127.0.0.1:PORT (loopback only), keeping at
   most WINDOW (default 32) waiting for their answer, and stops when all
   were sent and answered, or after SECONDS (default 60) in any case.
   Request i (from FIRST, default 0) is the same on every run: "R TEXT"
   with R = i % 8 + 1 hashing rounds and a TEXT of 16 to 215 characters,
   so that the server's work depends on the requests alone.  An answer
   not back within a second is taken as lost (UDP), and its slot reused.
   Prints one line:

      loadgen: 20000 requests, 20000 answers in 1.234 s: 16207 requests/s

   and exits 0 if every request was sent and answered, 1 otherwise. */

#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
   struct timespec t;
   clock_gettime(CLOCK_MONOTONIC, &t);
   return t.tv_sec + t.tv_nsec / 1e9;
}

static size_t request(unsigned long i, char *buf, size_t size)
{
   int n = snprintf(buf, size, "%lu ", i % 8 + 1);
   size_t len = 16 + i % 200, k;
   for (k = 0; k < len && (size_t)n + k + 1 < size; k++)
      buf[n + k] = (char)('a' + (i * 7 + k * 13) % 26);
   return (size_t)n + k;
}

int main(int argc, char **argv)
{
   unsigned long total, first, sent = 0, answered = 0;
   double seconds, start, last_answer;
   unsigned window, waiting = 0;
   struct sockaddr_in addr;
   char buf[512];
   int sock;

   if (argc < 3) {
      fprintf(stderr, "usage: loadgen PORT REQUESTS [SECONDS [WINDOW "
              "[FIRST]]]\n");
      return 2;
   }
   total = strtoul(argv[2], NULL, 10);
   seconds = argc > 3 ? atof(argv[3]) : 60;
   window = argc > 4 ? (unsigned)atoi(argv[4]) : 32;
   first = argc > 5 ? strtoul(argv[5], NULL, 10) : 0;
   if (window == 0)
      window = 1;
   memset(&addr, 0, sizeof addr);
   addr.sin_family = AF_INET;
   addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
   addr.sin_port = htons((unsigned short)atoi(argv[1]));
   sock = socket(AF_INET, SOCK_DGRAM, 0);
   if (sock < 0 || connect(sock, (struct sockaddr *)&addr, sizeof addr)) {
      perror("loadgen: socket");
      return 1;
   }

   start = last_answer = now();
   while ((sent < total || waiting > 0) && now() - start < seconds) {
      struct pollfd p = { sock, POLLIN, 0 };
      while (sent < total && waiting < window) {
         size_t n = request(first + sent, buf, sizeof buf);
         if (send(sock, buf, n, 0) < 0)
            break;
         sent++;
         waiting++;
      }
      if (poll(&p, 1, 100) > 0) {
         while (recv(sock, buf, sizeof buf, MSG_DONTWAIT) > 0) {
            answered++;
            if (waiting > 0)
               waiting--;
            last_answer = now();
         }
      } else if (now() - last_answer > 1.0) {
         waiting = 0;              /* lost: their slots go to new ones */
         last_answer = now();
      }
   }
   {
      double s = now() - start;
      printf("loadgen: %lu requests, %lu answers in %.3f s: %.0f "
             "requests/s\n", sent, answered, s, s > 0 ? answered / s : 0.0);
   }
   close(sock);
   return sent == total && answered == total ? 0 : 1;
}
