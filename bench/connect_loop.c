/* The physical limit of a connect measurement: N blocking connect() calls to
 * one address, each timed with CLOCK_MONOTONIC from just before connect()
 * to just after it returns (the socket is opened before the clock starts
 * and closed after it stops, as loopcheck does). Nothing else runs in the
 * loop, so no tool can report a connect faster than this.
 *
 * usage: connect_loop ADDRESS PORT N [GAP_US]    e.g. connect_loop ::1 8080 1000
 * GAP_US: spin this long between connects (a sleep would be far coarser), to
 * see what a connect costs when the server has gone back to sleep.
 * prints: ADDRESS PORT n=N accepted=A refused=R other=O median_us=M min_us=L max_us=H
 */
#define _POSIX_C_SOURCE 200809L

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static double now_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static int by_value(const void* a, const void* b) {
    const double x = *(const double*)a, y = *(const double*)b;
    return (x > y) - (x < y);
}

int main(int argc, char** argv) {
    if (argc != 4 && argc != 5) {
        fprintf(stderr, "usage: connect_loop ADDRESS PORT N [GAP_US]\n");
        return 2;
    }
    struct sockaddr_storage ss;
    socklen_t len;
    memset(&ss, 0, sizeof ss);
    const long port = strtol(argv[2], NULL, 10);
    const long n = strtol(argv[3], NULL, 10);
    const double gap_us = argc == 5 ? strtod(argv[4], NULL) : 0.0;
    if (port < 1 || port > 65535 || n < 1 || n > 10000000 || !(gap_us >= 0 && gap_us <= 1e6)) {
        fprintf(stderr, "connect_loop: bad PORT, N or GAP_US\n");
        return 2;
    }
    struct sockaddr_in* sin = (struct sockaddr_in*)&ss;
    struct sockaddr_in6* sin6 = (struct sockaddr_in6*)&ss;
    if (inet_pton(AF_INET, argv[1], &sin->sin_addr) == 1) {
        sin->sin_family = AF_INET;
        sin->sin_port = htons((unsigned short)port);
        len = sizeof *sin;
    } else if (inet_pton(AF_INET6, argv[1], &sin6->sin6_addr) == 1) {
        sin6->sin6_family = AF_INET6;
        sin6->sin6_port = htons((unsigned short)port);
        len = sizeof *sin6;
    } else {
        fprintf(stderr, "connect_loop: '%s' is not an IPv4 or IPv6 address\n", argv[1]);
        return 2;
    }

    double* us = malloc((size_t)n * sizeof *us);
    if (us == NULL) {
        perror("connect_loop: malloc");
        return 1;
    }
    long accepted = 0, refused = 0, other = 0;
    for (long i = 0; i < n; ++i) {
        for (const double until = now_us() + gap_us; now_us() < until;)
            ;
        const int fd = socket(ss.ss_family, SOCK_STREAM, IPPROTO_TCP);
        if (fd < 0) {
            perror("connect_loop: socket");
            free(us);
            return 1;
        }
        const double start = now_us();
        const int rc = connect(fd, (const struct sockaddr*)&ss, len);
        const int err = errno;
        us[i] = now_us() - start;
        close(fd);
        if (rc == 0)
            ++accepted;
        else if (err == ECONNREFUSED)
            ++refused;
        else
            ++other;
    }
    qsort(us, (size_t)n, sizeof *us, by_value);
    const double median = n % 2 ? us[n / 2] : (us[n / 2 - 1] + us[n / 2]) / 2;
    printf("%s %ld n=%ld accepted=%ld refused=%ld other=%ld median_us=%.2f min_us=%.2f "
           "max_us=%.2f\n",
           argv[1], port, n, accepted, refused, other, median, us[0], us[n - 1]);
    free(us);
    return 0;
}
