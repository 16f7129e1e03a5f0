// Secrets out of what reports echo: URLs' userinfo, query and fragment
// values, credential-named values, arguments after a credential option,
// home paths.
#include "loopcheck/core/input/redact.hpp"
#include "support/catch.hpp"

#include <string>

using namespace loopcheck;

TEST_CASE("a URL's query and fragment values are masked, its host and path kept", "[redact]") {
    Redactions found;
    CHECK(redact_urls("http://localhost:8888/lab?token=0123abcd", &found) ==
          "http://localhost:8888/lab?token=***");
    CHECK(found.query);
    CHECK_FALSE(found.userinfo);
    CHECK(redact_urls("localhost:8888/tree?token=abc&x=1") ==
          "localhost:8888/tree?token=***&x=***");
    Redactions frag;
    CHECK(redact_urls("http://127.0.0.1:5000/cb#access_token=eyJ&state=s", &frag) ==
          "http://127.0.0.1:5000/cb#access_token=***&state=***");
    CHECK(frag.fragment);
    // A fragment or query without values says nothing secret.
    CHECK(redact_urls("http://localhost:5173/#/settings") == "http://localhost:5173/#/settings");
    CHECK(redact_urls("http://localhost:8000/docs?") == "http://localhost:8000/docs?");
    CHECK(redact_urls("http://bob:hunter2@localhost:5432/db?sslkey=/k") ==
          "http://***@localhost:5432/db?sslkey=***");
    CHECK(redact_urls("[::1]:8080/v1?key=k") == "[::1]:8080/v1?key=***");
}

TEST_CASE("a '?' outside a URL is not a query", "[redact]") {
    CHECK(redact_urls("x = a ? b : c") == "x = a ? b : c");
    CHECK(redact_urls("re.match('^a?b=c$')") == "re.match('^a?b=c$')");
    CHECK(redact_urls("see 10:30?x=1") == "see 10:30?x=1");
}

TEST_CASE("credential names are recognised by their parts", "[redact]") {
    for (const char* yes : {"OPENAI_API_KEY", "accessToken", "hf-token", "PASSWORD", "api_key",
                            "Authorization", "db.password", "SECRET", "session_id", "apiKey"})
        CHECK(credential_name(yes));
    for (const char* no : {"keyboard", "host", "port", "monkey", "OLLAMA_HOST", "base_url",
                           "tokenizer", "BASE", "author"})
        CHECK_FALSE(credential_name(no));
}

TEST_CASE("a line's credential-named values are masked, its URLs keep their host", "[redact]") {
    Redactions found;
    CHECK(redact_line("OPENAI_API_KEY=sk-abc123", &found) == "OPENAI_API_KEY=***");
    CHECK(found.credential);
    CHECK(
        redact_line(R"(client = OpenAI(base_url="http://localhost:11434/v1", api_key="ollama"))") ==
        R"(client = OpenAI(base_url="http://localhost:11434/v1", api_key="***"))");
    CHECK(redact_line(R"({"api_key": "sk-1", "url": "http://localhost:1"})") ==
          R"({"api_key": "***", "url": "http://localhost:1"})");
    CHECK(redact_line("token: abc  # yaml") == "token: ***  # yaml");
    CHECK(redact_line("apiKey := \"k\"") == "apiKey := \"***\"");
    CHECK(redact_line("Authorization: Bearer eyJhbGci") == "Authorization: Bearer ***");
    // A URL named like a secret keeps its host: scan shows where it connects.
    CHECK(redact_line("AUTH_URL=http://localhost:9000/auth") ==
          "AUTH_URL=http://localhost:9000/auth");
    // A comparison is no assignment; a plain line is left alone.
    CHECK(redact_line("if token == expected:") == "if token == expected:");
    Redactions none;
    CHECK(redact_line("requests.get('http://localhost:8000/health')", &none) ==
          "requests.get('http://localhost:8000/health')");
    CHECK_FALSE(none.any());
}

TEST_CASE("an argument after a credential option is masked whole", "[redact]") {
    Redactions found;
    CHECK(redact_argument("sk-secret", "--api-key", &found) == "***");
    CHECK(found.credential);
    CHECK(redact_argument("--api-key=sk-secret", "python") == "--api-key=***");
    CHECK(redact_argument("8080", "-p") == "8080");
    CHECK(redact_argument("--verbose", "--token") == "--verbose");
    CHECK(redact_argument("http://localhost:1/?token=t", "--url") ==
          "http://localhost:1/?token=***");
}

TEST_CASE("home directories become ~, this user's and any other's", "[redact]") {
    CHECK(redact_home("/home/alice/proj/app.py:3", "/home/alice") == "~/proj/app.py:3");
    CHECK(redact_home("/root/x and /rootfs/y", "/root") == "~/x and /rootfs/y");
    CHECK(redact_home("exe /home/bob/.pyenv/bin/python", "") == "exe ~/.pyenv/bin/python");
    CHECK(redact_home("/Users/carol/src", "/nonexistent") == "~/src");
    CHECK(redact_home(R"(C:\Users\dave\app)", "") == R"(~\app)");
    CHECK(redact_home(R"("C:\\Users\\dave\\app")", "") == R"("~\\app")");
    CHECK(redact_home("c:/users/erin/x", "") == "~/x");
    // Not a home: a path that merely contains the word.
    CHECK(redact_home("/srv/home/x /opt/myhome/y", "") == "/srv/home/x /opt/myhome/y");
    CHECK(redact_home("/home/", "") == "/home/");
}
