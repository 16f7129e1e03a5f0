// A program for the tracer's tests (tests/run/trace_test.cpp) to run under
// `loopcheck trace`: each mode makes connects of a known kind and checks
// what the program itself reads, so a tracer that disturbed the program
// (stole its SO_ERROR, broke a blocking connect) makes it exit 3.
//
//   trace_helper blocking ADDR PORT refused|ok
//   trace_helper nonblocking ADDR PORT refused|ok
//   trace_helper threads ADDR PORT N          N threads, one blocking connect each
//   trace_helper fork ADDR PORT               a child connects, the parent waits
//   trace_helper background ADDR PORT MS      a child connects after MS ms; the parent exits
//   trace_helper udp ADDR PORT                a UDP "connect" (not TCP: not recorded)
//   trace_helper resolve NAME PORT            getaddrinfo, then each address in turn
//   trace_helper abandon ADDR PORT            a non-blocking connect closed while SYN_SENT
//   trace_helper eintr ADDR PORT              a blocking connect interrupted by a signal
//                                             (EINTR, no SA_RESTART), then closed
//   trace_helper exit N | raise SIG | signal-parent SIG | self-trace | io-uring | sleep MS
#include <arpa/inet.h>
#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace {

sockaddr_storage address_of(const char* text, int port, socklen_t& len) {
    sockaddr_storage ss{};
    auto* v4 = reinterpret_cast<sockaddr_in*>(&ss);
    auto* v6 = reinterpret_cast<sockaddr_in6*>(&ss);
    if (inet_pton(AF_INET, text, &v4->sin_addr) == 1) {
        v4->sin_family = AF_INET;
        v4->sin_port = htons(static_cast<std::uint16_t>(port));
        len = sizeof *v4;
    } else if (inet_pton(AF_INET6, text, &v6->sin6_addr) == 1) {
        v6->sin6_family = AF_INET6;
        v6->sin6_port = htons(static_cast<std::uint16_t>(port));
        len = sizeof *v6;
    } else {
        std::fprintf(stderr, "trace_helper: bad address %s\n", text);
        std::exit(2);
    }
    return ss;
}

// The errno the program reads for a blocking connect (0 on success).
int blocking_connect(const sockaddr_storage& ss, socklen_t len, int type = SOCK_STREAM) {
    const int fd = socket(ss.ss_family, type, 0);
    const int err = connect(fd, reinterpret_cast<const sockaddr*>(&ss), len) == 0 ? 0 : errno;
    close(fd);
    return err;
}

// The errno the program reads through its own SO_ERROR after poll().
int nonblocking_connect(const sockaddr_storage& ss, socklen_t len) {
    const int fd = socket(ss.ss_family, SOCK_STREAM | SOCK_NONBLOCK, 0);
    if (connect(fd, reinterpret_cast<const sockaddr*>(&ss), len) == 0) {
        close(fd);
        return 0;
    }
    if (errno != EINPROGRESS) {
        const int err = errno;
        close(fd);
        return err;
    }
    pollfd p{fd, POLLOUT, 0};
    poll(&p, 1, 10000);
    int err = -1;
    socklen_t err_len = sizeof err;
    getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &err_len);
    close(fd);
    return err;
}

int expect(int got, const char* want) {
    const int wanted = std::strcmp(want, "ok") == 0 ? 0 : ECONNREFUSED;
    if (got == wanted)
        return 0;
    std::fprintf(stderr, "trace_helper: read %s, expected %s\n", std::strerror(got), want);
    return 3;
}

int resolve_and_connect(const char* name, const char* port) {
    addrinfo hints{};
    hints.ai_socktype = SOCK_STREAM;
    addrinfo* res = nullptr;
    if (getaddrinfo(name, port, &hints, &res) != 0)
        return 4;
    for (addrinfo* ai = res; ai != nullptr; ai = ai->ai_next) {
        const int fd = socket(ai->ai_family, SOCK_STREAM, 0);
        const bool ok = connect(fd, ai->ai_addr, ai->ai_addrlen) == 0;
        close(fd);
        if (ok)
            break;
    }
    freeaddrinfo(res);
    return 0;
}

int io_uring() {
    unsigned char params[120] = {};
    const long fd = syscall(425 /* io_uring_setup */, 1, params);
    if (fd >= 0)
        close(static_cast<int>(fd));
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    if (argc < 2)
        return 2;
    const std::string mode = argv[1];
    if (mode == "exit" && argc == 3)
        return std::atoi(argv[2]);
    if (mode == "raise" && argc == 3) {
        std::signal(std::atoi(argv[2]), SIG_DFL);
        raise(std::atoi(argv[2]));
        return 0;
    }
    if (mode == "signal-parent" && argc == 3) { // loopcheck must pass it on
        kill(getppid(), std::atoi(argv[2]));
        sleep(20);
        return 0;
    }
    if (mode == "sleep" && argc == 3) {
        usleep(static_cast<useconds_t>(std::atoi(argv[2])) * 1000);
        return 0;
    }
    if (mode == "self-trace")
        return ptrace(PTRACE_TRACEME, 0, nullptr, nullptr) == 0 ? 0 : 0;
    if (mode == "io-uring")
        return io_uring();
    if (mode == "resolve" && argc == 4)
        return resolve_and_connect(argv[2], argv[3]);
    if (argc < 4)
        return 2;
    socklen_t len = 0;
    const sockaddr_storage ss = address_of(argv[2], std::atoi(argv[3]), len);
    if (mode == "blocking" && argc == 5)
        return expect(blocking_connect(ss, len), argv[4]);
    if (mode == "nonblocking" && argc == 5)
        return expect(nonblocking_connect(ss, len), argv[4]);
    if (mode == "abandon") {
        const int fd = socket(ss.ss_family, SOCK_STREAM | SOCK_NONBLOCK, 0);
        connect(fd, reinterpret_cast<const sockaddr*>(&ss), len);
        usleep(200 * 1000);
        close(fd);
        usleep(300 * 1000); // the tracer notices the close while the program runs
        return 0;
    }
    if (mode == "eintr") {
        struct sigaction action {};
        action.sa_handler = [](int) {};
        sigaction(SIGALRM, &action, nullptr); // no SA_RESTART: connect() fails with EINTR
        itimerval timer{};
        timer.it_value.tv_usec = 150 * 1000;
        setitimer(ITIMER_REAL, &timer, nullptr);
        const int fd = socket(ss.ss_family, SOCK_STREAM, 0);
        const int err = connect(fd, reinterpret_cast<const sockaddr*>(&ss), len) == 0 ? 0 : errno;
        close(fd);
        usleep(300 * 1000);
        return err == EINTR ? 0 : 3;
    }
    if (mode == "udp")
        return blocking_connect(ss, len, SOCK_DGRAM) == 0 ? 0 : 3;
    if (mode == "threads" && argc == 5) {
        std::vector<std::thread> threads;
        for (int i = 0; i < std::atoi(argv[4]); ++i)
            threads.emplace_back([&] { blocking_connect(ss, len); });
        for (auto& t : threads)
            t.join();
        return 0;
    }
    if (mode == "fork") {
        const pid_t pid = fork();
        if (pid == 0)
            _exit(blocking_connect(ss, len) == ECONNREFUSED ? 0 : 3);
        int status = 0;
        waitpid(pid, &status, 0);
        return WIFEXITED(status) ? WEXITSTATUS(status) : 3;
    }
    if (mode == "background" && argc == 5) {
        if (fork() == 0) {
            usleep(static_cast<useconds_t>(std::atoi(argv[4])) * 1000);
            _exit(blocking_connect(ss, len) == ECONNREFUSED ? 0 : 3);
        }
        return 0;
    }
    return 2;
}
