// loopcheck scan: finding loopback references in a line, and file languages.
#include "core/scan/context.hpp"
#include "loopcheck/core/scan/scan.hpp"
#include "support/catch.hpp"

using namespace loopcheck;

TEST_CASE("scan finds URLs, host:port pairs and quoted hosts", "[scan]") {
    auto refs = find_loopback_refs(R"(x = "http://localhost:11434/v1" + 'https://127.0.0.1/x')");
    REQUIRE(refs.size() == 2);
    CHECK(refs[0].host == "localhost");
    CHECK(refs[0].port == 11434);
    CHECK(refs[0].url);
    CHECK(refs[0].col == 5);
    CHECK(refs[0].length == std::string_view("http://localhost:11434").size());
    CHECK(refs[1].host == "127.0.0.1");
    CHECK(refs[1].port == 443);
    CHECK(refs[1].port_from_scheme);

    refs = find_loopback_refs("connect [::1]:8080 and 127.3.2.1:99 and \"localhost\"");
    REQUIRE(refs.size() == 3);
    CHECK(refs[0].host == "::1");
    CHECK(refs[0].port == 8080);
    CHECK(refs[1].host == "127.3.2.1");
    CHECK(refs[1].port == 99);
    CHECK(refs[2].quoted_alone);
    CHECK(refs[2].port == 0);
}

TEST_CASE("scan ignores look-alikes", "[scan]") {
    CHECK(find_loopback_refs("mylocalhost:80 ip6-localhost:80 localhost.example.com:80").empty());
    CHECK(find_loopback_refs("version 1127.0.0.1:5 and 10.0.0.0:80 fe80::1").empty());
    CHECK(find_loopback_refs("runs on localhost in prose").empty());
    CHECK(find_loopback_refs("port localhost:99999 is no port").empty());
}

TEST_CASE("scan tells e-mail addresses and user@host URLs apart", "[scan]") {
    auto refs = find_loopback_refs("admin@localhost and postgres://me:pw@localhost:5432/db");
    REQUIRE(refs.size() == 2);
    CHECK(refs[0].email);
    CHECK_FALSE(refs[1].email);
    CHECK(refs[1].url);
    CHECK(refs[1].port == 5432);
}

TEST_CASE("scan keeps bare hosts only where they are a value", "[scan]") {
    CHECK(find_loopback_refs("uvicorn main:app --host 127.0.0.1").size() == 1);
    CHECK(find_loopback_refs("OLLAMA_HOST=0.0.0.0").size() == 1);
    CHECK(find_loopback_refs("host: localhost").size() == 1);
    CHECK(find_loopback_refs("an address like 0.0.0.0 in prose").empty());
}

TEST_CASE("scan's file languages", "[scan]") {
    CHECK(language_of("a/b/app.py") == Lang::python);
    CHECK(language_of("web/src/App.TSX") == Lang::javascript);
    CHECK(language_of("Dockerfile") == Lang::dockerfile);
    CHECK(language_of("deploy/api.Dockerfile") == Lang::dockerfile);
    CHECK(language_of("docker-compose.yml") == Lang::compose);
    CHECK(language_of("compose.yaml") == Lang::compose);
    CHECK(language_of("ci/other.yml") == Lang::yaml);
    CHECK(language_of(".env") == Lang::dotenv);
    CHECK(language_of("config/.env.example") == Lang::dotenv);
    CHECK(language_of(".env.production") == Lang::dotenv);
    CHECK(language_of("nb/demo.ipynb") == Lang::notebook);
    CHECK(language_of("README.md") == Lang::markdown);
    CHECK(language_of("main.c") == Lang::other);
    CHECK(lang_name(Lang::compose) == "compose");
    CHECK(may_mention_loopback("x http://[::1]:80"));
    CHECK_FALSE(may_mention_loopback("nothing here at all"));
}

TEST_CASE("scan reads the environment variables a line reads", "[scan]") {
    using V = std::vector<std::string>;
    CHECK(env_keys_read("url = os.getenv('OLLAMA_HOST', 'x')") == V{"OLLAMA_HOST"});
    CHECK(env_keys_read("u = os.environ[\"API_URL\"]") == V{"API_URL"});
    CHECK(env_keys_read("const u = process.env.BASE_URL ?? 'x'") == V{"BASE_URL"});
    CHECK(env_keys_read("u := os.Getenv(\"OLLAMA_URL\")") == V{"OLLAMA_URL"});
    CHECK(env_keys_read("nothing here").empty());
    CHECK(may_read_env("process.env.X"));
}
