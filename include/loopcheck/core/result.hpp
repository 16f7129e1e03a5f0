// A small result type for the tool's own failures (bad input, a name that
// does not resolve, a socket call that failed). Connect outcomes are not
// errors: they are data inside a Sample.
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace loopcheck {

/// What kind of failure, so that main can map it to an exit code.
enum class ErrorKind {
    usage,    ///< bad argument or target (exit 2)
    resolve,  ///< the name did not resolve (exit 4)
    system,   ///< an OS call the tool needs failed (exit 5)
    internal, ///< a bug or an impossible state (exit 5)
};

struct Error {
    ErrorKind kind = ErrorKind::internal;
    std::string message;
    /// A resolve error's own fix, where "check the name" would mislead
    /// (-6 on a name that has only IPv4 addresses); empty otherwise.
    std::string fix{};
};

/// Either a value or an Error. Deliberately tiny: C++20 has no std::expected.
template <class T>
class Result {
public:
    Result(T value) : v_(std::move(value)) {}     // NOLINT(google-explicit-constructor)
    Result(Error error) : v_(std::move(error)) {} // NOLINT(google-explicit-constructor)

    [[nodiscard]] bool ok() const noexcept { return v_.index() == 0; }
    explicit operator bool() const noexcept { return ok(); }

    T& value() & { return std::get<0>(v_); }
    const T& value() const& { return std::get<0>(v_); }
    T&& value() && { return std::get<0>(std::move(v_)); }
    const Error& error() const { return std::get<1>(v_); }

    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }
    T& operator*() & { return value(); }
    const T& operator*() const& { return value(); }

private:
    std::variant<T, Error> v_;
};

inline Error usage_error(std::string message) {
    return {ErrorKind::usage, std::move(message)};
}
inline Error system_error(std::string message) {
    return {ErrorKind::system, std::move(message)};
}

} // namespace loopcheck
