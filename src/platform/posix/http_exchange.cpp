// POSIX: wait's readiness GET (platform.hpp http_exchange). One socket,
// one request, a bounded read of the answer's head; every step waits in
// poll() against the one deadline, so a server that accepts and then says
// nothing costs `limit` and no more.
#include "loopcheck/platform/platform.hpp"
#include "platform/posix/socket_helpers.hpp"

#include <cerrno>
#include <cstring>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace loopcheck::platform {

namespace {

#ifdef MSG_NOSIGNAL
constexpr int send_flags = MSG_NOSIGNAL; // a reset peer must not raise SIGPIPE
#else
constexpr int send_flags = 0; // macOS: SO_NOSIGPIPE on the socket instead
#endif

class Exchange {
public:
    explicit Exchange(Micros limit) : start_(monotonic_now()), deadline_(start_ + limit) {}
    ~Exchange() {
        if (fd_ >= 0)
            ::close(fd_);
    }
    Exchange(const Exchange&) = delete;
    Exchange& operator=(const Exchange&) = delete;

    HttpExchange run(const Address& address, std::string_view request) {
        fd_ = posix::open_tcp_socket(address.family);
        if (fd_ < 0)
            return fail(errno);
        sockaddr_storage ss{};
        const socklen_t len = posix::to_sockaddr(address, ss);
        if (::connect(fd_, reinterpret_cast<const sockaddr*>(&ss), len) != 0) {
            if (errno != EINPROGRESS)
                return fail(errno);
            if (!ready(POLLOUT))
                return end(ExchangeEnd::timed_out);
            int err = 0;
            socklen_t err_len = sizeof err;
            if (::getsockopt(fd_, SOL_SOCKET, SO_ERROR, &err, &err_len) != 0)
                return fail(errno);
            if (err != 0)
                return fail(err);
        }
        while (!request.empty()) {
            const ssize_t n = ::send(fd_, request.data(), request.size(), send_flags);
            if (n > 0) {
                request.remove_prefix(static_cast<std::size_t>(n));
            } else if (n < 0 && errno == EAGAIN) {
                if (!ready(POLLOUT))
                    return end(ExchangeEnd::timed_out);
            } else if (n < 0 && errno != EINTR) {
                return fail(errno);
            }
        }
        return read_head();
    }

private:
    HttpExchange read_head() {
        char buffer[4096];
        for (;;) {
            if (!ready(POLLIN))
                return end(ExchangeEnd::timed_out);
            const ssize_t n = ::recv(fd_, buffer, sizeof buffer, 0);
            if (n == 0)
                return end(ExchangeEnd::closed);
            if (n < 0) {
                if (errno == EAGAIN || errno == EINTR)
                    continue;
                return fail(errno);
            }
            const std::size_t room = max_answer_head - out_.bytes.size();
            out_.bytes.append(buffer, std::min(static_cast<std::size_t>(n), room));
            if (out_.bytes.find("\r\n\r\n") != std::string::npos ||
                out_.bytes.size() >= max_answer_head)
                return end(ExchangeEnd::head);
        }
    }

    /// Waits for `events` until the deadline; false when it passed (or a
    /// signal asked the wait to end: the caller's loop sees the stop).
    bool ready(short events) {
        const Micros left = deadline_ - monotonic_now();
        if (left <= Micros{0})
            return false;
        pollfd p{fd_, events, 0};
        const auto ms = static_cast<int>((left.count() + 999) / 1000);
        const int n = ::poll(&p, 1, ms);
        return n > 0;
    }

    HttpExchange end(ExchangeEnd how) {
        out_.end = how;
        out_.took = monotonic_now() - start_;
        return std::move(out_);
    }

    HttpExchange fail(int err) {
        if (err == ECONNREFUSED)
            return end(ExchangeEnd::refused);
        if (err == ECONNRESET || err == EPIPE)
            return end(ExchangeEnd::reset);
        out_.error = std::strerror(err);
        return end(ExchangeEnd::failed);
    }

    Micros start_, deadline_;
    int fd_ = -1;
    HttpExchange out_;
};

} // namespace

HttpExchange http_exchange(const Address& address, std::string_view request, Micros limit) {
    Exchange x(limit);
    return x.run(address, request);
}

} // namespace loopcheck::platform
