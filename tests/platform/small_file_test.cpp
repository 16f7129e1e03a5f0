// platform/posix/small_file: the /proc reader that replaced std::ifstream.
#ifndef _WIN32
#include "platform/posix/small_file.hpp"
#include "support/catch.hpp"

#include <cstdio>
#include <string>
#include <unistd.h>

using loopcheck::platform::posix::read_small_file;

namespace {

/// A file with `content`, removed at the end of the scope.
class TempFile {
public:
    explicit TempFile(const std::string& content) {
        char name[] = "/tmp/loopcheck-small-file-XXXXXX";
        const int fd = ::mkstemp(name);
        REQUIRE(fd >= 0);
        REQUIRE(::write(fd, content.data(), content.size()) ==
                static_cast<ssize_t>(content.size()));
        ::close(fd);
        path_ = name;
    }
    ~TempFile() { std::remove(path_.c_str()); }
    TempFile(const TempFile&) = delete;
    TempFile& operator=(const TempFile&) = delete;
    const char* path() const { return path_.c_str(); }

private:
    std::string path_;
};

} // namespace

TEST_CASE("read_small_file: the whole file, or its first cap bytes", "[platform]") {
    const std::string text = "1\nsecond line\n";
    TempFile small(text);
    CHECK(read_small_file(small.path(), 256) == text);
    CHECK(read_small_file(small.path(), 3) == "1\ns");

    // Longer than one read() step.
    const std::string big(5000, 'x');
    TempFile large(big);
    CHECK(read_small_file(large.path(), 1 << 20) == big);
    CHECK(read_small_file(large.path(), 4097)->size() == 4097);

    TempFile empty("");
    CHECK(read_small_file(empty.path(), 256) == "");
}

TEST_CASE("read_small_file: a file that cannot be read is nullopt", "[platform]") {
    CHECK_FALSE(read_small_file("/nonexistent/loopcheck", 256).has_value());
    CHECK_FALSE(read_small_file("/", 256).has_value()); // a directory: read() fails
}

#ifdef __linux__
TEST_CASE("read_small_file reads /proc/sys values", "[platform]") {
    const auto v = read_small_file("/proc/sys/net/ipv4/tcp_syn_retries", 256);
    REQUIRE(v.has_value());
    CHECK(!v->empty());
    CHECK(v->back() == '\n');
}
#endif
#endif
