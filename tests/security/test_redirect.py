"""The language switch goes back only to a page of this companion: ``/language/<code>?next=`` is no open
redirect, whatever a stranger writes after ``next=`` (sent over real HTTP exactly as written)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from companion.i18n.web import path_of_this_site
from tests.conftest import LiveServer
from tests.security.live import RawClient, serve_for_module


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """One server for this file's requests (they change nothing another test reads)."""
    yield from serve_for_module(tmp_path_factory, "redirect")


#: ``next=`` values (as they stand in the URL) that a browser would follow to another site.
ELSEWHERE = [
    "//evil.example",
    "/%09/evil.example",  # a browser drops the tab: //evil.example
    "%09//evil.example",
    "/%0a/evil.example",  # a newline (a 500 before)
    "/%0d%0a/evil.example",
    "/%0d%0aSet-Cookie:%20keshi_lang=xx",  # header injection
    "/%5C%5Cevil.example",  # /\\evil.example
    "/%5Cevil.example",  # /\evil.example: browsers read \ as /
    "%5C/evil.example",
    "https://evil.example",
    "https:evil.example",
    "//evil.example/%2e%2e",
    "/%252F/evil.example",  # /%2F/evil.example: //evil.example once a proxy decodes it
    "/%20/evil.example",
    "/%E2%80%AE/evil.example",  # a right-to-left override
    "javascript:alert(1)",
    "evil.example",
]


@pytest.mark.parametrize("target", ELSEWHERE)
def test_a_next_to_another_site_goes_home_instead(server: LiveServer, target: str) -> None:
    answer = RawClient(server.url).send("GET", f"/language/de?next={target}")
    assert answer.status == 302, (target, answer.status, answer.body[:200])
    assert answer.headers.get("Location") == "/", (target, answer.headers.get("Location"))
    assert answer.headers.get_all("Set-Cookie") is not None
    assert not any("keshi_lang=xx" in c for c in answer.headers.get_all("Set-Cookie") or [])


@pytest.mark.parametrize("target", ["/tower", "/fairness/?layer=B1&since=2024-01-01", "/games/abc123/join?pin=1234"])
def test_a_page_of_this_site_is_where_the_switch_goes_back_to(server: LiveServer, target: str) -> None:
    answer = RawClient(server.url).send("GET", f"/language/de?next={target.replace('?', '%3F').replace('&', '%26')}")
    assert answer.status == 302
    assert answer.headers.get("Location") == target


def test_the_check_keeps_paths_and_refuses_the_rest() -> None:
    assert path_of_this_site("/games/ab12?pin=0042") == "/games/ab12?pin=0042"
    assert path_of_this_site("/Spiel/über") == "/Spiel/über"
    for target in ("//x", "/\t/x", "/\n", "/\\x", "\\\\x", "/%2F/x", "/%5Cx", "https://x", "", "x", "/\u200b/x"):
        assert path_of_this_site(target) == "/", repr(target)
