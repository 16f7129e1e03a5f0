// The client table's Python rows: client_table.cpp puts them first, ahead
// of every other client, when it builds the table at compile time.
#pragma once

#include "loopcheck/core/clients/table.hpp"

#include <array>

namespace loopcheck::detail {

// docs/diagnosis.md ("The client table") gives the source of every row:
// - Python socket.create_connection / urllib3 / requests: getaddrinfo order,
//   one address after another; asyncio with happy_eyeballs_delay interleaves
//   families (interleave=1) and staggers attempts.
// - httpx.AsyncClient: httpcore's anyio backend, anyio.connect_tcp, which
//   moves the first IPv6 address to the front and the first IPv4 one second
//   whatever the resolver says, then starts the next attempt 250 ms later or
//   when one fails (anyio src/anyio/_core/_sockets.py, 3.6.2 and 4.8.0).
// - aiohttp: TCPConnector tries the resolved hosts in turn before 3.10;
//   from 3.10 (aiohttp PR #7954) aiohappyeyeballs with a 250 ms delay and
//   interleave 1. asyncio without happy_eyeballs_delay: in turn.
inline constexpr std::array<ClientModel, 6> python_client_rows = [] {
    using namespace std::chrono_literals;
    return std::array<ClientModel, 6>{{
        {"python",
         {},
         "Python requests / urllib / httpx (sync)",
         "sequential",
         ConnectAlgorithm::sequential,
         0ms,
         FastFail::none,
         AddressSource::resolver,
         false,
         false,
         "requests, urllib, socket.create_connection, httpx.Client, openai (OpenAI), "
         "ollama (Client), LiteLLM completion, LangChain / LlamaIndex Ollama clients (sync)",
         Reuse::depends,
         "requests.get(), urllib: a new connection every call; a requests.Session or one "
         "httpx.Client (OpenAI(), ollama.Client()) reuses it"},
        {"python-httpx-async",
         {},
         "Python httpx.AsyncClient (anyio)",
         "IPv6 first whatever the resolver says; Happy Eyeballs 250 ms",
         ConnectAlgorithm::happy_eyeballs,
         250ms,
         FastFail::none,
         AddressSource::anyio_ipv6_first,
         false,
         false,
         "httpx.AsyncClient, openai (AsyncOpenAI), ollama (AsyncClient), LiteLLM acompletion "
         "(httpx), anyio.connect_tcp",
         Reuse::pooled,
         "one AsyncClient (AsyncOpenAI(), ollama.AsyncClient()) reuses its connections; a new "
         "client per call connects again"},
        {"python-aiohttp",
         {"", "3.10.0"},
         "Python aiohttp < 3.10",
         "sequential",
         ConnectAlgorithm::sequential,
         0ms,
         FastFail::none,
         AddressSource::resolver,
         false,
         false,
         "aiohttp.ClientSession, LiteLLM async (aiohttp transport), langchain-community (aiohttp)",
         Reuse::pooled,
         "one ClientSession reuses its connections; aiohttp.request() or a session per call "
         "connects again"},
        {"python-aiohttp",
         {"3.10.0", ""},
         "Python aiohttp >= 3.10",
         "Happy Eyeballs 250 ms (aiohappyeyeballs)",
         ConnectAlgorithm::happy_eyeballs,
         250ms,
         FastFail::none,
         AddressSource::resolver,
         false,
         false,
         "aiohttp.ClientSession, LiteLLM async (aiohttp transport), langchain-community (aiohttp)",
         Reuse::pooled,
         "one ClientSession reuses its connections; aiohttp.request() or a session per call "
         "connects again"},
        {"python-asyncio",
         {},
         "Python asyncio (happy_eyeballs_delay=0.25)",
         "Happy Eyeballs 250 ms",
         ConnectAlgorithm::happy_eyeballs,
         250ms,
         FastFail::none,
         AddressSource::resolver,
         false,
         false,
         "asyncio.open_connection / loop.create_connection with happy_eyeballs_delay",
         Reuse::per_call,
         "a raw connection: every call connects"},
        {"python-asyncio-default",
         {},
         "Python asyncio open_connection (no delay)",
         "sequential",
         ConnectAlgorithm::sequential,
         0ms,
         FastFail::none,
         AddressSource::resolver,
         false,
         false,
         "asyncio.open_connection, loop.create_connection",
         Reuse::per_call,
         "a raw connection: every call connects"},
    }};
}();

} // namespace loopcheck::detail
