// The WSA error table: codes to portable outcomes and names.
#include "loopcheck/core/windows/winsock_errors.hpp"

#include <fmt/format.h>
#include <string_view>

namespace loopcheck {

namespace {

struct Named {
    int code;
    std::string_view name;
};

// Every WSA code Winsock documents for the calls loopcheck makes (socket,
// ioctlsocket, WSAIoctl, setsockopt, bind, listen, connect, select,
// getsockopt, accept, getaddrinfo).
constexpr Named names[] = {
    {10004, "WSAEINTR"},           {10009, "WSAEBADF"},        {10013, "WSAEACCES"},
    {10014, "WSAEFAULT"},          {10022, "WSAEINVAL"},       {10024, "WSAEMFILE"},
    {10035, "WSAEWOULDBLOCK"},     {10036, "WSAEINPROGRESS"},  {10037, "WSAEALREADY"},
    {10038, "WSAENOTSOCK"},        {10039, "WSAEDESTADDRREQ"}, {10040, "WSAEMSGSIZE"},
    {10041, "WSAEPROTOTYPE"},      {10042, "WSAENOPROTOOPT"},  {10043, "WSAEPROTONOSUPPORT"},
    {10044, "WSAESOCKTNOSUPPORT"}, {10045, "WSAEOPNOTSUPP"},   {10046, "WSAEPFNOSUPPORT"},
    {10047, "WSAEAFNOSUPPORT"},    {10048, "WSAEADDRINUSE"},   {10049, "WSAEADDRNOTAVAIL"},
    {10050, "WSAENETDOWN"},        {10051, "WSAENETUNREACH"},  {10052, "WSAENETRESET"},
    {10053, "WSAECONNABORTED"},    {10054, "WSAECONNRESET"},   {10055, "WSAENOBUFS"},
    {10056, "WSAEISCONN"},         {10057, "WSAENOTCONN"},     {10058, "WSAESHUTDOWN"},
    {10059, "WSAETOOMANYREFS"},    {10060, "WSAETIMEDOUT"},    {10061, "WSAECONNREFUSED"},
    {10062, "WSAELOOP"},           {10063, "WSAENAMETOOLONG"}, {10064, "WSAEHOSTDOWN"},
    {10065, "WSAEHOSTUNREACH"},    {10066, "WSAENOTEMPTY"},    {10067, "WSAEPROCLIM"},
    {10068, "WSAEUSERS"},          {10069, "WSAEDQUOT"},       {10070, "WSAESTALE"},
    {10071, "WSAEREMOTE"},         {10091, "WSASYSNOTREADY"},  {10092, "WSAVERNOTSUPPORTED"},
    {10093, "WSANOTINITIALISED"},  {10101, "WSAEDISCON"},      {11001, "WSAHOST_NOT_FOUND"},
    {11002, "WSATRY_AGAIN"},       {11003, "WSANO_RECOVERY"},  {11004, "WSANO_DATA"},
};

} // namespace

std::string wsa_error_name(int code) {
    for (const auto& n : names)
        if (n.code == code)
            return std::string(n.name);
    return fmt::format("WSA error {}", code);
}

Outcome wsa_error_outcome(int code) noexcept {
    switch (code) {
    case wsa::connection_refused:
        return Outcome::refused;
    case wsa::timed_out:
        return Outcome::timeout;
    case wsa::net_unreachable:
    case wsa::host_unreachable:
    case wsa::addr_not_available:
        return Outcome::unreachable;
    // As on POSIX (src/platform/posix/connect.cpp): with IPv6 or the network
    // switched off nothing can be reached through it, which the diagnosis
    // must tell apart from a bug in the connect.
    case wsa::af_not_supported:
    case wsa::net_down:
    case wsa::host_down:
        return Outcome::unreachable;
    default:
        return Outcome::error;
    }
}

Sample wsa_failure_sample(int code, Micros latency) {
    Sample s;
    s.outcome = wsa_error_outcome(code);
    s.latency = latency;
    s.native_code = code;
    s.native_name = wsa_error_name(code);
    return s;
}

} // namespace loopcheck
