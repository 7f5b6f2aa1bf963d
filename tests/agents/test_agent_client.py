"""The OpenAI-compatible chat client against a real local fake endpoint (real ``openai`` SDK)."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from navworld.agents import client as client_mod
from navworld.agents.client import (
    ChatClient,
    ChatError,
    ContextOverflowError,
    StreamCutError,
    TransientChatError,
    redact,
    resolve_api_key,
)
from navworld.agents.fake import (
    ChatRequest,
    Fault,
    Reply,
    context_overflow_after,
    fail_first,
    hang_first,
    rate_limit_first,
    stream_cut_first,
)
from navworld.agents.fake_server import FakeModelServer, start_fake_server

SECRET = "sk-test-very-secret-0123456789"
MESSAGES = [{"role": "user", "content": "你好"}]


def echo(request: ChatRequest) -> Reply:
    return Reply(content="好的" * 20)


def leaky_auth(request: ChatRequest) -> Fault:
    """A server that echoes the presented key in its error (some do)."""
    return Fault(401, f"Incorrect API key provided: {request.headers.get('authorization', '')}", code="invalid_api_key")


@pytest.fixture(scope="module")
def fake() -> Iterator[FakeModelServer]:
    scripts = {
        "echo": echo,
        "flaky": fail_first(echo, 500, times=2),
        "rl": rate_limit_first(echo, times=1, retry_after=0.3),
        "hang": hang_first(echo, 3.0, times=100),
        "overflow": context_overflow_after(echo, 0),
        "auth": leaky_auth,
        "cut": stream_cut_first(echo, times=100),
        "tools": lambda r: Reply(
            tool_calls=({"id": "c1", "type": "function", "function": {"name": "weather", "arguments": '{"city": "杭州"}'}},)
        ),
    }
    with start_fake_server(scripts) as server:
        yield server


def requests_for(fake: FakeModelServer, model: str) -> list[dict]:
    return [r for r in fake.requests if r["model"] == model]


async def test_plain_call_returns_message_usage_and_sampling(fake: FakeModelServer) -> None:
    client = ChatClient(fake.base_url, api_key=SECRET)
    result = await client.complete("echo", MESSAGES, temperature=0.3, max_tokens=123, seed=7)
    assert result.content == "好的" * 20
    assert result.finish_reason == "stop"
    assert result.usage.total_tokens == result.usage.prompt_tokens + result.usage.completion_tokens > 0
    assert result.usage.requests == 1 and result.attempts == 1
    sent = requests_for(fake, "echo")[-1]
    assert (sent["temperature"], sent["max_tokens"], sent["seed"]) == (0.3, 123, 7)
    assert sent["authorized"] is True


async def test_tool_calls_come_back_in_openai_shape(fake: FakeModelServer) -> None:
    for stream in (False, True):
        result = await ChatClient(fake.base_url, stream=stream).complete("tools", MESSAGES, tools=[{"type": "function"}])
        assert result.tool_calls == [
            {"id": "c1", "type": "function", "function": {"name": "weather", "arguments": '{"city": "杭州"}'}}
        ]
        assert result.finish_reason == "tool_calls"


async def test_streaming_accumulates_text_and_usage(fake: FakeModelServer) -> None:
    result = await ChatClient(fake.base_url, stream=True).complete("echo", MESSAGES)
    assert result.content == "好的" * 20
    assert result.usage.completion_tokens > 0


async def test_5xx_is_retried_then_succeeds(fake: FakeModelServer) -> None:
    client = ChatClient(fake.base_url, retry_backoff=0.01)
    result = await client.complete("flaky", [{"role": "user", "content": "flaky-1"}])
    assert result.attempts == 3
    assert result.content


async def test_5xx_gives_up_after_max_retries(fake: FakeModelServer) -> None:
    client = ChatClient(fake.base_url, retry_backoff=0.01, max_retries=1)
    with pytest.raises(TransientChatError) as info:
        await client.complete("flaky", [{"role": "user", "content": "flaky-2"}])
    assert info.value.kind == "http_500" and info.value.attempts == 2 and info.value.retryable


async def test_429_waits_for_retry_after(fake: FakeModelServer) -> None:
    client = ChatClient(fake.base_url, retry_backoff=0.01)
    started = time.monotonic()
    result = await client.complete("rl", [{"role": "user", "content": "rl-1"}])
    assert result.attempts == 2
    assert time.monotonic() - started >= 0.3


async def test_timeout_is_retried_then_reported(fake: FakeModelServer) -> None:
    client = ChatClient(fake.base_url, call_timeout=0.2, retry_backoff=0.01, max_retries=1)
    with pytest.raises(ChatError) as info:
        await client.complete("hang", MESSAGES)
    assert info.value.kind == "timeout" and info.value.attempts == 2


async def test_deadline_caps_the_call(fake: FakeModelServer) -> None:
    client = ChatClient(fake.base_url, call_timeout=30, retry_backoff=0.01)
    started = time.monotonic()
    with pytest.raises(ChatError) as info:
        await client.complete("hang", MESSAGES, deadline=time.monotonic() + 0.3)
    assert info.value.kind == "timeout"
    assert time.monotonic() - started < 2.0


async def test_context_overflow_is_a_model_failure_not_retried(fake: FakeModelServer) -> None:
    before = len(requests_for(fake, "overflow"))
    with pytest.raises(ContextOverflowError):
        await ChatClient(fake.base_url, retry_backoff=0.01).complete("overflow", MESSAGES)
    assert len(requests_for(fake, "overflow")) == before + 1


async def test_auth_error_is_not_retried_and_key_is_redacted(fake: FakeModelServer) -> None:
    client = ChatClient(fake.base_url, api_key=SECRET, retry_backoff=0.01)
    with pytest.raises(ChatError) as info:
        await client.complete("auth", MESSAGES)
    assert info.value.kind == "auth" and not info.value.retryable
    assert SECRET not in str(info.value)
    assert SECRET not in repr(client)


async def test_stream_cut_after_visible_content_is_not_retried(fake: FakeModelServer) -> None:
    before = len(requests_for(fake, "cut"))
    with pytest.raises(StreamCutError) as info:
        await ChatClient(fake.base_url, stream=True, retry_backoff=0.01).complete("cut", MESSAGES)
    assert info.value.kind == "stream_cut"
    assert len(requests_for(fake, "cut")) == before + 1


async def test_unknown_model_is_not_found(fake: FakeModelServer) -> None:
    with pytest.raises(ChatError) as info:
        await ChatClient(fake.base_url).complete("no-such-model", MESSAGES)
    assert info.value.kind == "not_found"


async def test_connection_refused_is_transient(unused_port: int) -> None:
    client = ChatClient(f"http://127.0.0.1:{unused_port}/v1", retry_backoff=0.01, max_retries=1)
    with pytest.raises(TransientChatError) as info:
        await client.complete("echo", MESSAGES)
    assert info.value.kind == "connection" and info.value.attempts == 2


async def test_one_shared_sdk_client_per_base_url(fake: FakeModelServer) -> None:
    a = client_mod._shared_sdk_client(fake.base_url, "k1", 5.0)
    b = client_mod._shared_sdk_client(fake.base_url + "/", "k1", 5.0)
    c = client_mod._shared_sdk_client(fake.base_url, "k2", 5.0)
    assert a is b and a is not c
    await client_mod.aclose_shared_clients()


def test_api_key_resolution_order(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NAVWORLD_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    assert resolve_api_key(None) is None
    monkeypatch.setenv("OPENAI_API_KEY", "from-openai")
    assert resolve_api_key(None) == "from-openai"
    monkeypatch.setenv("NAVWORLD_API_KEY", "from-navworld")
    assert resolve_api_key(None) == "from-navworld"
    assert resolve_api_key("explicit") == "explicit"


def test_redact() -> None:
    assert redact(f"bad key {SECRET}!", SECRET) == "bad key ***!"
    assert redact("nothing", None, "") == "nothing"


@pytest.fixture
def unused_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]
