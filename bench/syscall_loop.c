/* What a traced program pays per ordinary syscall: N getppid() calls made
 * through syscall() (no libc caching, no vDSO), timed as a whole with
 * CLOCK_MONOTONIC. bench/trace runs it untraced, under `loopcheck trace`
 * and under strace, and divides the difference by N.
 *
 * usage: syscall_loop N
 * prints: n=N total_us=T per_call_ns=P
 */
#define _GNU_SOURCE

#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static double now_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

int main(int argc, char** argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: syscall_loop N\n");
        return 2;
    }
    const long n = strtol(argv[1], NULL, 10);
    const double start = now_us();
    for (long i = 0; i < n; ++i)
        syscall(SYS_getppid);
    const double total = now_us() - start;
    printf("n=%ld total_us=%.0f per_call_ns=%.1f\n", n, total, total * 1000.0 / (double)n);
    return 0;
}
