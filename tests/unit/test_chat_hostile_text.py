"""One long or hostile message cannot freeze the bot (SPEC section 16): the rate-limit token is taken before any
parsing, a command text over 4,096 characters is refused unparsed with a short reply, and a non-admin's /admin in a
group that is not served is counted as blocked like any other command there."""

from __future__ import annotations

import pytest

from taskcore.chat import MetricEvent
from taskcore.chat import grammar as chat_decide
from taskcore.ratelimit import Decision
from taskcore.storage.db import Database
from tests.builders import GROUP, make_group, wa_text
from tests.chat_support import Tokens, policy, reactions, run, task_rows, texts

ANA, ADMIN = "34600111111", "34699000001"
MAX_COMMAND_LENGTH = 4096  # SPEC section 16
HOSTILE = "/t nueva " + "<a" * 32768  # 64 KiB: the sanitiser used to take seconds on this


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The texts the chat hands to the command parser, in order."""
    seen: list[str] = []
    real = chat_decide.parse_command

    def recording(text: str, *args: object, **kwargs: object) -> object:
        seen.append(text)
        return real(text, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(chat_decide, "parse_command", recording)
    return seen


def test_a_command_over_4096_characters_is_refused_unparsed_with_a_short_reply(db: Database,
                                                                               parses: list[str]) -> None:
    result = run(db, wa_text(HOSTILE), policy(reactions_on=True))
    assert result.outcome == "too long rejected"
    assert parses == []
    (reply,) = texts(db)
    assert reply.endswith("Ese mensaje es demasiado largo para una orden: como mucho 4096 caracteres.")
    assert len(reply) < 200
    assert reactions(db) == ["⚠️"]
    assert task_rows(db) == []


def test_a_command_of_exactly_4096_characters_is_parsed(db: Database, parses: list[str]) -> None:
    text = "/t nueva " + "x" * (MAX_COMMAND_LENGTH - len("/t nueva "))
    run(db, wa_text(text))
    assert parses == [text]  # parsed (and refused for its 4,087-character description, not for its length)
    assert "1000 caracteres" in texts(db)[0]


def test_the_rate_limit_token_is_taken_before_the_command_is_parsed(db: Database, parses: list[str]) -> None:
    tokens = Tokens(answers=[Decision(allowed=False, retry_after=30, notify=True)])
    result = run(db, wa_text("/t nueva pan <b>mañana"), tokens=tokens)
    assert (result.outcome, tokens.asked, parses) == ("throttled", [ANA], [])


def test_a_throttled_overlong_command_gets_the_throttle_notice_not_the_length_reply(db: Database) -> None:
    tokens = Tokens(answers=[Decision(allowed=False, retry_after=30, notify=True)])
    run(db, wa_text(HOSTILE), tokens=tokens)
    assert [text.split(" ", 1)[1] for text in texts(db)] == ["Demasiadas órdenes, espera 30 s."]


def test_a_non_admins_overlong_admin_command_takes_a_token_and_gets_no_reply(db: Database,
                                                                           parses: list[str]) -> None:
    tokens = Tokens()
    result = run(db, wa_text("/admin permitir " + "<a" * 4000), policy(admins=(ADMIN,)), tokens=tokens)
    assert (result.outcome, tokens.asked, parses, texts(db)) == ("admin command from a non-admin", [ANA], [], [])


def test_ordinary_chat_is_never_parsed_however_long(db: Database, parses: list[str]) -> None:
    tokens = Tokens()
    result = run(db, wa_text("hola " + "<a" * 32768), tokens=tokens)
    assert (result.outcome, tokens.asked, parses) == ("chat", [], [])


@pytest.mark.parametrize("mode", ["discover", "enforce"])
@pytest.mark.parametrize("text", ["/admin permitir aquí", "/admin borrar", "/admin"])
def test_a_non_admins_admin_command_in_a_group_that_is_not_served_counts_as_blocked(
    db: Database, mode: str, text: str
) -> None:
    make_group(db, GROUP, status="blocked")
    result = run(db, wa_text(text), policy(mode, admins=(ADMIN,)))
    assert result.outcome == "admin command from a non-admin"
    assert result.metrics.count(MetricEvent.MESSAGE_BLOCKED_GROUP) == 1
    assert result.metrics.count(MetricEvent.COMMAND_BLOCKED) == 1
    assert texts(db) == []


def test_a_non_admins_admin_command_in_a_served_group_is_not_counted_as_blocked(db: Database) -> None:
    result = run(db, wa_text("/admin permitir aquí"), policy(admins=(ADMIN,)))
    assert MetricEvent.MESSAGE_BLOCKED_GROUP not in result.metrics


def test_an_admins_command_in_a_blocked_group_still_works_and_is_not_counted_as_blocked(db: Database) -> None:
    make_group(db, GROUP, status="blocked")
    result = run(db, wa_text("/admin permitir aquí", sender=ADMIN), policy("enforce", admins=(ADMIN,)))
    assert result.outcome == "admin permitir done"
    assert MetricEvent.MESSAGE_BLOCKED_GROUP not in result.metrics
