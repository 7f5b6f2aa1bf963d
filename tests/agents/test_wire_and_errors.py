"""What goes over the wire, and how endpoint errors are named (no server needed)."""

from __future__ import annotations

import json

import httpx2
import openai
from hypothesis import given
from hypothesis import strategies as st

from navworld.agents.chat_errors import (
    MAX_ERROR_CHARS,
    ChatError,
    InvalidRequestError,
    classify_error,
    is_validation_error,
)
from navworld.agents.wire import MESSAGE_FIELDS, wire_messages
from navworld.core.urls import public_url

URL = "http://127.0.0.1:8000/v1"

_values = st.one_of(st.none(), st.text(max_size=20), st.integers(), st.lists(st.text(max_size=5), max_size=2))
_messages = st.lists(
    st.fixed_dictionaries(
        {"role": st.sampled_from(["system", "user", "assistant", "tool"]), "content": _values},
        optional={
            "tool_calls": st.lists(
                st.fixed_dictionaries({"id": _values, "function": st.fixed_dictionaries(
                    {"name": _values, "arguments": st.one_of(_values, st.dictionaries(st.text(max_size=3), st.integers()))})}),
                max_size=2,
            ),
            "tool_call_id": _values,
            "reasoning_content": _values,
            "extra": _values,
        },
    ),
    max_size=6,
)  # fmt: skip


@given(_messages)
def test_wire_messages_send_only_standard_fields_and_never_null_content(messages: list[dict]) -> None:
    for sent in wire_messages(messages):
        assert set(sent) <= set(MESSAGE_FIELDS)
        assert isinstance(sent["content"], str | list)
        for call in sent.get("tool_calls", []):
            assert call["type"] == "function" and isinstance(call["function"]["arguments"], str)
            assert isinstance(call["id"], str) and call["id"]


def test_assistant_tool_turn_goes_out_with_empty_string_content() -> None:
    turn = {"role": "assistant", "content": None, "reasoning_content": "…",
            "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "weather", "arguments": {"city": "杭州"}}}]}  # fmt: skip
    (sent,) = wire_messages([turn])
    assert sent == {"role": "assistant", "content": "",
                    "tool_calls": [{"id": "c1", "type": "function",
                                    "function": {"name": "weather", "arguments": '{"city": "杭州"}'}}]}  # fmt: skip


def _status_error(status: int, body: str) -> openai.APIStatusError:
    request = httpx2.Request("POST", URL + "/chat/completions")
    response = httpx2.Response(status, text=body, request=request, headers={"content-type": "application/json"})
    return openai.APIStatusError("error", response=response, body=None)


def test_validation_markers() -> None:
    assert is_validation_error("7 validation errors:\n  {'type': 'string_type', ...}")
    assert is_validation_error("Failed to deserialize the JSON body into the target type: messages[1].content: invalid type: null")
    assert is_validation_error("Unsupported parameter: 'max_tokens' is not supported with this model.")
    assert not is_validation_error("CUDA out of memory") and not is_validation_error("upstream connect error")


def test_a_500_with_a_pydantic_body_is_deterministic_and_kept_whole() -> None:
    message = "7 validation errors:\n" + "  {'type': 'literal_error'}\n" * 40 + "  {'type': 'string_type', 'input': None}\n"
    body = json.dumps({"error": {"message": message, "type": "internal_server_error"}})
    err = classify_error(_status_error(500, body), None, URL)
    assert isinstance(err, InvalidRequestError) and not err.retryable and not err.redispatch
    assert message.strip() in err.message and f"HTTP 500 from {URL}" in err.message
    assert "(error type: internal_server_error)" in err.message


def test_a_plain_500_stays_transient_and_huge_bodies_are_bounded() -> None:
    err = classify_error(_status_error(503, "overloaded " * 10_000), None, URL)
    assert err.kind == "http_503" and err.retryable and err.redispatch
    assert len(err.message) < MAX_ERROR_CHARS + 200 and err.message.endswith("more characters)")


def test_the_key_never_appears_in_an_error_text() -> None:
    key = "sk-secret-abcdef123456"
    err = classify_error(_status_error(401, f'{{"error": {{"message": "bad key {key}"}}}}'), key, URL)
    assert isinstance(err, ChatError) and err.kind == "auth" and key not in str(err)


def test_public_url_strips_credentials() -> None:
    assert public_url("https://user:pw@host:8000/v1?key=abc#f") == "https://host:8000/v1"
    assert public_url("http://[::1]:9/v1") == "http://[::1]:9/v1"
    assert public_url("http://h:99999/") == "<invalid url>" and public_url(None) is None
