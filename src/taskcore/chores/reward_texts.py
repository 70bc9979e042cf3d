"""The texts of rewards that the chat and the web both write (SPEC section 34): what the group is told about a request
and its decision, how much someone has, and the command that approves a request, in the language in force. The
chat's own replies are in ``chat.reward_replies``."""

from __future__ import annotations

from taskcore.chores.rewards import Balance, RequestState, RewardRequest
from taskcore.i18n import _, ngettext

SHORT_NAME = 60


def short(text: str, limit: int = SHORT_NAME) -> str:
    """A name cut to ``limit`` characters with an ellipsis."""
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def points(n: int) -> str:
    """``N puntos`` (plural forms)."""
    return ngettext("{n} punto", "{n} puntos", n)


def approve_command(request_id: int) -> str:
    """The exact command that approves a reward request, in the reader's words."""
    return _("/t aprobar canje {n}", n=request_id)


def balance_text(balance: Balance) -> str:
    """``12 puntos`` and, when pending requests hold some, how many of them."""
    if not balance.reserved:
        return points(balance.points)
    return ngettext("{points} ({n} apartado para canjes pendientes)", "{points} ({n} apartados para canjes pendientes)",
                    balance.reserved, points=points(balance.points))


def too_few(balance: Balance, price: int, name: str) -> str:
    """A request over what the person has: the balance is named."""
    return _("No te llega: «{reward}» cuesta {price} y tienes {balance}.", reward=short(name), price=points(price),
             balance=balance_text(balance))


def requested(request: RewardRequest, who: str) -> str:
    """The group is told of a new request, with the command that approves it."""
    return _("🎁 {who} quiere canjear «{reward}» por {price} (canje #{id}). Un administrador del grupo lo aprueba "
             "con: {command}", who=who, reward=short(request.reward_name), price=points(request.points),
             id=request.id, command=approve_command(request.id))


def approved(request: RewardRequest, who: str, left: Balance) -> str:
    """The group is told a request was approved, and what the person has left."""
    return ngettext("✅ Canje #{id} aprobado: «{reward}» para {who}. Le queda {n} punto.",
                    "✅ Canje #{id} aprobado: «{reward}» para {who}. Le quedan {n} puntos.", left.points,
                    id=request.id, reward=short(request.reward_name), who=who)


def refused(request: RewardRequest, who: str, reason: str | None, *, withdrawn: bool = False) -> str:
    """The group is told a request was refused (with the reason, when one was given) or withdrawn."""
    if withdrawn:
        return _("↩️ {who} retira el canje #{id} («{reward}»).", who=who, id=request.id,
                 reward=short(request.reward_name))
    text = _("❌ Canje #{id} rechazado: «{reward}» para {who}.", id=request.id, reward=short(request.reward_name),
             who=who)
    if not reason:
        return text
    why = _("Motivo: {reason}", reason=short(reason, 200))
    return f"{text} {why}"


def cannot_approve(request: RewardRequest, who: str, balance: Balance) -> str:
    """An approval that would take the person below zero: their balance is named."""
    return _("No se puede aprobar el canje #{id}: «{reward}» cuesta {price} y {who} tiene {balance}.", id=request.id,
             reward=short(request.reward_name), price=points(request.points), who=who,
             balance=points(balance.points))


def already_decided(request: RewardRequest) -> str:
    """A request approved or refused already."""
    if request.state is RequestState.APPROVED:
        return _("El canje #{id} ya estaba aprobado.", id=request.id)
    return _("El canje #{id} ya estaba rechazado.", id=request.id)
