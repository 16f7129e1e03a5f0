// loopcheck_docgen --check|--write ROOT: the files made from the option
// table (cli/docgen.cpp) compared with, or written into, the source tree
// at ROOT. Exit 0 when they match (or were written), 1 when one differs.
#include "cli/docgen.hpp"

#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

namespace {

std::string g_root;

std::string read_file(const std::string& path) {
    std::ifstream in(g_root + "/" + path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

} // namespace

int main(int argc, char** argv) {
    const std::string mode = argc == 3 ? argv[1] : "";
    if (mode != "--check" && mode != "--write") {
        std::cerr << "usage: loopcheck_docgen --check|--write SOURCE_ROOT\n";
        return 2;
    }
    g_root = argv[2];
    const auto generated = loopcheck::generate_files(read_file);
    for (const auto& e : generated.errors)
        std::cerr << "loopcheck_docgen: " << e << "\n";
    if (!generated.errors.empty())
        return 1;
    int differ = 0;
    for (const auto& f : generated.files) {
        if (read_file(f.path) == f.text)
            continue;
        if (mode == "--write") {
            std::ofstream out(g_root + "/" + f.path, std::ios::binary);
            out << f.text;
            std::cout << "wrote " << f.path << "\n";
        } else {
            std::cout << f.path << " differs from what the option table makes; run "
                      << "loopcheck_docgen --write . (docs/hacking.md)\n";
            differ = 1;
        }
    }
    return differ;
}
