// Windows: wait's readiness GET (platform.hpp http_exchange). The steps of
// posix/http_exchange.cpp, each waiting in select() against one deadline.
#include "loopcheck/core/windows/winsock_errors.hpp"
#include "loopcheck/platform/platform.hpp"
#include "platform/win32/socket_helpers.hpp"
#include "platform/win32/winsock.hpp" // every win32 file, for one FD_SETSIZE (check_headers.py)

#include <algorithm>
#include <cstdint>

namespace loopcheck::platform {

using namespace win32;

namespace {

enum class Want : std::uint8_t { write, read };

class Exchange {
public:
    explicit Exchange(Micros limit) : start_(monotonic_now()), deadline_(start_ + limit) {}
    ~Exchange() {
        if (s_ != INVALID_SOCKET)
            ::closesocket(s_);
    }
    Exchange(const Exchange&) = delete;
    Exchange& operator=(const Exchange&) = delete;

    HttpExchange run(const Address& address, std::string_view request) {
        s_ = open_tcp_socket(address.family);
        if (s_ == INVALID_SOCKET)
            return fail(::WSAGetLastError());
        sockaddr_storage ss{};
        const int len = to_sockaddr(address, ss);
        if (::connect(s_, reinterpret_cast<const sockaddr*>(&ss), len) != 0) {
            if (::WSAGetLastError() != WSAEWOULDBLOCK)
                return fail(::WSAGetLastError());
            // A refusal shows in exceptfds (ConnectSet does the same).
            const int ready = wait(Want::write);
            if (ready == 0)
                return end(ExchangeEnd::timed_out);
            int err = 0;
            int err_len = sizeof err;
            if (::getsockopt(s_, SOL_SOCKET, SO_ERROR, reinterpret_cast<char*>(&err), &err_len) !=
                0)
                return fail(::WSAGetLastError());
            if (err != 0)
                return fail(err);
        }
        while (!request.empty()) {
            const int chunk = static_cast<int>(std::min<std::size_t>(request.size(), 65536));
            const int n = ::send(s_, request.data(), chunk, 0);
            if (n > 0) {
                request.remove_prefix(static_cast<std::size_t>(n));
            } else if (::WSAGetLastError() == WSAEWOULDBLOCK) {
                if (wait(Want::write) == 0)
                    return end(ExchangeEnd::timed_out);
            } else {
                return fail(::WSAGetLastError());
            }
        }
        return read_head();
    }

private:
    HttpExchange read_head() {
        char buffer[4096];
        for (;;) {
            if (wait(Want::read) == 0)
                return end(ExchangeEnd::timed_out);
            const int n = ::recv(s_, buffer, static_cast<int>(sizeof buffer), 0);
            if (n == 0)
                return end(ExchangeEnd::closed);
            if (n == SOCKET_ERROR) {
                if (::WSAGetLastError() == WSAEWOULDBLOCK)
                    continue;
                return fail(::WSAGetLastError());
            }
            const std::size_t room = max_answer_head - out_.bytes.size();
            out_.bytes.append(buffer, std::min(static_cast<std::size_t>(n), room));
            if (out_.bytes.find("\r\n\r\n") != std::string::npos ||
                out_.bytes.size() >= max_answer_head)
                return end(ExchangeEnd::head);
        }
    }

    /// select() until the socket is ready (or failed) or the deadline
    /// passed: 0 then.
    int wait(Want want) {
        const Micros left = deadline_ - monotonic_now();
        if (left <= Micros{0})
            return 0;
        fd_set ready, failed;
        FD_ZERO(&ready);
        FD_ZERO(&failed);
        FD_SET(s_, &ready);
        FD_SET(s_, &failed);
        timeval tv = to_timeval(left);
        const int n = ::select(0, want == Want::read ? &ready : nullptr,
                               want == Want::write ? &ready : nullptr, &failed, &tv);
        return n == SOCKET_ERROR ? 0 : n;
    }

    HttpExchange end(ExchangeEnd how) {
        out_.end = how;
        out_.took = monotonic_now() - start_;
        return std::move(out_);
    }

    HttpExchange fail(int err) {
        if (err == WSAECONNREFUSED)
            return end(ExchangeEnd::refused);
        if (err == WSAECONNRESET || err == WSAECONNABORTED)
            return end(ExchangeEnd::reset);
        out_.error = wsa_message(err);
        return end(ExchangeEnd::failed);
    }

    Micros start_, deadline_;
    SOCKET s_ = INVALID_SOCKET;
    HttpExchange out_;
};

} // namespace

HttpExchange http_exchange(const Address& address, std::string_view request, Micros limit) {
    Exchange x(limit);
    return x.run(address, request);
}

} // namespace loopcheck::platform
