#include "loopcheck/core/windows/winsock_errors.hpp"
#include "support/catch.hpp"

using namespace loopcheck;
using namespace std::chrono_literals;

TEST_CASE("WSA codes become outcomes, keeping the native code and name", "[winsock_errors]") {
    auto refused = wsa_failure_sample(10061, 2030ms);
    CHECK(refused.outcome == Outcome::refused);
    CHECK(refused.native_code == 10061);
    CHECK(refused.native_name == "WSAECONNREFUSED");
    CHECK(refused.latency == 2030ms);

    auto timeout = wsa_failure_sample(10060, 21s);
    CHECK(timeout.outcome == Outcome::timeout);
    CHECK(timeout.native_name == "WSAETIMEDOUT");

    for (int code : {10051, 10065, 10049}) {
        INFO(code);
        CHECK(wsa_error_outcome(code) == Outcome::unreachable);
    }
    CHECK(wsa_error_name(10051) == "WSAENETUNREACH");
    CHECK(wsa_error_name(10065) == "WSAEHOSTUNREACH");
    CHECK(wsa_error_name(10049) == "WSAEADDRNOTAVAIL");
}

TEST_CASE("a family or network that is off is unreachable, as on POSIX", "[winsock_errors]") {
    CHECK(wsa_error_outcome(10047) == Outcome::unreachable); // WSAEAFNOSUPPORT
    CHECK(wsa_error_outcome(10050) == Outcome::unreachable); // WSAENETDOWN
    CHECK(wsa_error_outcome(10064) == Outcome::unreachable); // WSAEHOSTDOWN
}

TEST_CASE("other WSA codes are errors named as Winsock names them", "[winsock_errors]") {
    auto reset = wsa_failure_sample(10054, 1ms);
    CHECK(reset.outcome == Outcome::error);
    CHECK(reset.native_code == 10054);
    CHECK(reset.native_name == "WSAECONNRESET");
    CHECK(wsa_error_name(10045) == "WSAEOPNOTSUPP");
    CHECK(wsa_error_name(10013) == "WSAEACCES");
    CHECK(wsa_error_name(11001) == "WSAHOST_NOT_FOUND");
    CHECK(wsa_error_name(11004) == "WSANO_DATA");
}

TEST_CASE("an unknown code keeps its number", "[winsock_errors]") {
    auto s = wsa_failure_sample(12345, 3ms);
    CHECK(s.outcome == Outcome::error);
    CHECK(s.native_code == 12345);
    CHECK(s.native_name == "WSA error 12345");
    CHECK(wsa_error_name(0) == "WSA error 0");
}
