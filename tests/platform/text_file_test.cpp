// platform::read_text_file: the hosts file and gai.conf reader, on hostile
// files (issue 28): a FIFO, a directory, a file over the cap.
#include "loopcheck/platform/platform.hpp"
#include "support/catch.hpp"
#include "support/text.hpp"

#include <filesystem>
#include <fstream>
#include <random>
#include <string>

#ifndef _WIN32
#include <sys/stat.h>
#endif

using namespace loopcheck;
using namespace loopcheck::test;

namespace {

/// A fresh directory under the temporary one, removed with its content.
class TempDir {
public:
    TempDir()
        : path_(std::filesystem::temp_directory_path() /
                ("loopcheck-text-file-" + std::to_string(std::random_device{}()))) {
        std::filesystem::create_directories(path_);
    }
    ~TempDir() {
        std::error_code ec;
        std::filesystem::remove_all(path_, ec);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    [[nodiscard]] std::string file(const char* name) const { return (path_ / name).string(); }

private:
    std::filesystem::path path_;
};

} // namespace

TEST_CASE("a directory is named as one and not read", "[text_file]") {
    const TempDir dir;
    const auto f = platform::read_text_file(dir.file(""), 1024);
    CHECK_FALSE(f.text);
    CHECK(contains(f.problem, "is a directory, not a regular file"));
    CHECK_FALSE(f.special);
}

#ifndef _WIN32
TEST_CASE("a FIFO is named as one and never opened (no writer: it would block)", "[text_file]") {
    const TempDir dir;
    const auto path = dir.file("hosts");
    REQUIRE(::mkfifo(path.c_str(), 0600) == 0);
    const auto f = platform::read_text_file(path, 1024);
    CHECK_FALSE(f.text);
    CHECK(contains(f.problem, "is a FIFO, not a regular file"));
    CHECK(f.special);
    const auto dev = platform::read_text_file("/dev/zero", 1024);
    CHECK_FALSE(dev.text);
    CHECK(contains(dev.problem, "is a device"));
}
#endif

TEST_CASE("a file over the cap is cut and the cut is said, a missing file is said", "[text_file]") {
    const TempDir dir;
    const auto path = dir.file("big");
    std::ofstream(path, std::ios::binary) << std::string(5000, 'x');
    const auto cut = platform::read_text_file(path, 4096);
    REQUIRE(cut.text);
    CHECK(cut.text->size() == 4096);
    CHECK(contains(cut.problem, "larger than 4096 bytes"));
    const auto exact = platform::read_text_file(path, 5000);
    REQUIRE(exact.text);
    CHECK(exact.text->size() == 5000);
    CHECK(exact.problem.empty());
    const auto missing = platform::read_text_file(dir.file("none"), 10);
    CHECK_FALSE(missing.text);
    CHECK(contains(missing.problem, "could not be read"));
}
