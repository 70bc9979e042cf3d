"""The commands of rewards and approvals (SPEC section 34) and their arguments: ``/t premio nuevo <nombre>
<puntos>``, ``/t premio borrar <n>``, ``/t premios``, ``/t canjear <n>``, ``/t pendientes`` and ``/t puntos`` alone.

Choices the SPEC leaves open: ``/t premio`` alone lists the rewards as ``/t premios`` does; in ``premio nuevo`` the
last word is the price (digits, ``!`` allowed: ``!50``) and every word before it the name, or, when the last word
is no price, the first word is (``/t premio nuevo 50 Elegir la película``, as people also write it);
``pendientes`` and ``premios`` ignore extra words, as ``ver`` does.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import ClassVar

from taskcore.chat.chore_commands import SetPoints
from taskcore.chat.commands import Command
from taskcore.chat.new_task_args import Context, shown
from taskcore.chat.task_args import TASK_ID, parse_points
from taskcore.chat.usage import usage_error
from taskcore.chores.rewards import check_reward_points, reward_name
from taskcore.errors import InvalidChoreSetting
from taskcore.i18n import _
from taskcore.words import meaning, plain, split_first

_MAX_PRICE_DIGITS = 6
_PRICE = re.compile(r"!?[0-9]+")  # a word that reads as a price (its size is checked by _price)


@dataclass(frozen=True, slots=True)
class NewReward(Command):
    """``/t premio nuevo <nombre> <puntos>``: a group admin puts a reward on offer."""

    name: ClassVar[str] = "premio"
    title: str
    points: int


@dataclass(frozen=True, slots=True)
class DeleteReward(Command):
    """``/t premio borrar <n>``: a group admin takes reward ``n`` off offer."""

    name: ClassVar[str] = "premio"
    reward_id: int


@dataclass(frozen=True, slots=True)
class ListRewards(Command):
    """``/t premios`` (or ``/t premio``): the rewards and the sender's balance."""

    name: ClassVar[str] = "premios"
    reads_only: ClassVar[bool] = True


@dataclass(frozen=True, slots=True)
class Redeem(Command):
    """``/t canjear <n>``: ask for reward ``n``."""

    name: ClassVar[str] = "canjear"
    reward_id: int


@dataclass(frozen=True, slots=True)
class ShowBalance(Command):
    """``/t puntos`` alone: the sender's balance (in the group, or in each of their groups)."""

    name: ClassVar[str] = "puntos"
    reads_only: ClassVar[bool] = True


@dataclass(frozen=True, slots=True)
class ListPending(Command):
    """``/t pendientes``: what waits for the sender's approval (reward requests, photos)."""

    name: ClassVar[str] = "pendientes"
    reads_only: ClassVar[bool] = True


def parse_reward(args: str, ctx: Context) -> NewReward | DeleteReward | ListRewards:
    """``/t premio nuevo <nombre> <puntos>``, ``/t premio borrar <n>``, or ``/t premio`` alone (the list)."""
    word, rest = split_first(args)
    if not word:
        return ListRewards()
    said = meaning("reward", word)
    if said == "delete":
        words = rest.split()
        if len(words) != 1:
            raise usage_error("premio", _("faltan datos") if not words else _("sobran datos"))
        return DeleteReward(reward_number(words[0], "premio"))
    if said != "new":
        raise usage_error("premio", _("orden desconocida: {word}", word=shown(word)))
    title, price = _priced(rest.split())
    if not title.strip():
        raise usage_error("premio", _("faltan datos"))
    return NewReward(_name(title), _price(price))


def _priced(words: list[str]) -> tuple[str, str]:
    """A reward's name and price as people write them: ``cine 50``, ``50 cine``, and with the price's words around
    it, which are no part of the name (SPEC section 39): ``pizza por 15 puntos``, ``20 pontos: escolher o filme``,
    ``movie night for 30 points``."""
    tail = words[:-1] if len(words) > 1 and meaning("price", plain(words[-1])) == "unit" else words
    if len(tail) > 1 and _PRICE.fullmatch(tail[-1]):
        name = tail[:-1]
        if len(name) > 1 and meaning("price", plain(name[-1])) == "for":
            name = name[:-1]
        return " ".join(name), tail[-1]
    first = words[0].rstrip(":,;-–") if words else ""
    if _PRICE.fullmatch(first):
        name = words[1:]
        if name and meaning("price", plain(name[0])) == "unit":
            name = name[1:]
        if name and not any(c.isalnum() for c in name[0]):  # a lone ``:`` or ``-``
            name = name[1:]
        if name:
            return " ".join(name), first
    return " ".join(words[:-1]), words[-1] if words else ""


def _price(token: str) -> int:
    digits = token.removeprefix("!")
    if not _PRICE.fullmatch(token) or len(digits) > _MAX_PRICE_DIGITS:
        raise usage_error("premio", _("precio no válido: {word}", word=shown(token)), field="points")
    try:
        return check_reward_points(int(digits))
    except InvalidChoreSetting as exc:
        raise usage_error("premio", str(exc), field="points") from exc


def _name(text: str) -> str:
    try:
        return reward_name(text)
    except InvalidChoreSetting as exc:
        raise usage_error("premio", str(exc), field="name") from exc


def reward_number(token: str, name: str) -> int:
    """The reward's number as written (digits, ``#`` optional), or command ``name``'s usage error."""
    match = TASK_ID.fullmatch(token)
    if match is None or int(match.group(1)) == 0:
        raise usage_error(name, _("número de premio no válido: {word}", word=shown(token)), field="reward_id")
    return int(match.group(1))


def parse_redeem(args: str, ctx: Context) -> Redeem:
    """``/t canjear <n>``."""
    words = args.split()
    if len(words) != 1:
        raise usage_error("canjear", _("falta el número del premio") if not words else _("sobran datos"),
                          field="reward_id")
    return Redeem(reward_number(words[0], "canjear"))


def parse_points_or_balance(args: str, ctx: Context) -> SetPoints | ShowBalance:
    """``/t puntos`` alone (the sender's balance) or ``/t puntos <id> N`` (a task's points, as before)."""
    return ShowBalance() if not args.split() else parse_points(args, ctx)
