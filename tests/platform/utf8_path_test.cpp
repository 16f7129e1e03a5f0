// Paths as UTF-8 through the platform layer (issue 37, row 3): a tree whose
// path holds "José" and "日本" is walked, and every file the walk lists is
// read and found, hosts-file reader included. On Linux the bytes pass
// through; the Windows build (MinGW, run under Wine by the windows-cross
// tests) once listed such files and then skipped each one as "vanished".
#include "loopcheck/platform/common/scan_files.hpp"
#include "loopcheck/platform/platform.hpp"
#include "platform/common/utf8_path.hpp"
#include "support/catch.hpp"

#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

using namespace loopcheck;
namespace fs = std::filesystem;

namespace {

/// A fresh directory under the temporary one whose own name is not ASCII,
/// made from a char8_t literal (not through the code under test), removed
/// with its content.
class NonAsciiTree {
public:
    NonAsciiTree()
        : top_(fs::temp_directory_path() /
               fs::path(u8"loopcheck-José-" + to_u8(std::to_string(std::random_device{}())))) {
        fs::create_directories(top_ / fs::path(u8"日本"));
    }
    ~NonAsciiTree() {
        std::error_code ec;
        fs::remove_all(top_, ec);
    }
    NonAsciiTree(const NonAsciiTree&) = delete;
    NonAsciiTree& operator=(const NonAsciiTree&) = delete;

    /// Writes `text` to `relative` (a char8_t path under the top).
    void write(const std::u8string& relative, const std::string& text) const {
        std::ofstream out(top_ / fs::path(relative), std::ios::binary);
        out << text;
    }
    /// The top directory's UTF-8 form, as a user's argument reaches the walk.
    [[nodiscard]] std::string utf8() const {
        const std::u8string u8 = top_.u8string();
        return {u8.begin(), u8.end()};
    }

private:
    static std::u8string to_u8(const std::string& ascii) { return {ascii.begin(), ascii.end()}; }
    fs::path top_;
};

const std::string hit = "import requests\nrequests.get('http://localhost:11434/api')\n";

} // namespace

TEST_CASE("utf8 paths: a walk under José/日本 lists each file and each one reads", "[platform]") {
    const NonAsciiTree tree;
    tree.write(u8"日本/café.py", hit);
    tree.write(u8"plain.py", "x = 1\n");
    std::vector<std::string> listed;
    const auto listing = platform::walk_scan_files(tree.utf8(), [&](const std::string& path) {
        listed.push_back(path);
        return true;
    });
    REQUIRE(listing.ok());
    REQUIRE(listed.size() == 2);
    int found = 0;
    for (const auto& path : listed) {
        INFO(path);
        CHECK(path.rfind(tree.utf8(), 0) == 0); // the root as given, then the walk's names
        std::string content;
        CHECK(platform::read_scan_file(path, 1 << 20, content) == platform::FileSkip::none);
        if (content.find("localhost:11434") != std::string::npos) {
            ++found;
            CHECK(path.find("日本") != std::string::npos);
            CHECK(path.find("café.py") != std::string::npos);
        }
    }
    CHECK(found == 1);
}

TEST_CASE("utf8 paths: one file named by its UTF-8 path is listed and read", "[platform]") {
    const NonAsciiTree tree;
    tree.write(u8"日本/José.py", hit);
    const std::string file = tree.utf8() + "/日本/José.py";
    std::vector<std::string> listed;
    const auto listing = platform::walk_scan_files(file, [&](const std::string& path) {
        listed.push_back(path);
        return true;
    });
    REQUIRE(listing.ok());
    CHECK(listed == std::vector<std::string>{file});
    std::string content;
    CHECK(platform::read_scan_file(file, 1 << 20, content) == platform::FileSkip::none);
    CHECK(content == hit);
}

TEST_CASE("utf8 paths: the hosts-file reader opens a UTF-8 path", "[platform]") {
    const NonAsciiTree tree;
    tree.write(u8"日本/hosts", "127.0.0.1 localhost\n");
    const auto file = platform::read_text_file(tree.utf8() + "/日本/hosts", 4096);
    INFO(file.problem);
    REQUIRE(file.text.has_value());
    CHECK(*file.text == "127.0.0.1 localhost\n");
}

TEST_CASE("utf8 paths: path_from_utf8 and utf8_from_path are inverses", "[platform]") {
    for (const std::string s : {"C:/Users/José/app.py", "日本/東京.txt", "plain/ascii.txt"})
        CHECK(platform::utf8_from_path(platform::path_from_utf8(s)) == s);
}
