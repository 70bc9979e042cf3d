"""The chat's replies about rewards and approvals (SPEC section 34), in the language in force; what the group is
told about a request is in ``chores.reward_texts`` (the web writes it too)."""

from __future__ import annotations

from collections.abc import Sequence

from taskcore.chat.penalty_replies import missed_section
from taskcore.chat.witness_replies import held_line
from taskcore.chores.missed import Missed
from taskcore.chores.proof import PendingPhoto
from taskcore.chores.reward_texts import approve_command, balance_text, points, short
from taskcore.chores.rewards import Balance, RequestState, Reward, RewardRequest
from taskcore.chores.witness import HeldPoints
from taskcore.i18n import N_, _, ngettext
from taskcore.shown import shown_name

CREATE_IN_GROUP = N_("Los premios se crean y se quitan en su grupo.")
ONLY_ADMINS = N_("Solo un administrador del grupo (de WhatsApp) puede crear o quitar premios.")
ONLY_ADMINS_DECIDE = N_("Solo un administrador del grupo (de WhatsApp) puede aprobar o rechazar canjes.")
NO_GROUPS = N_("Aún no estás en ningún grupo con el bot.")
NOTHING_WAITS = N_("Nada espera tu aprobación.")
UNNAMED_GROUP = N_("Grupo sin nombre")


def reward_line(reward: Reward) -> str:
    """``• #3 Cine · 50 puntos``."""
    return f"• #{reward.id} {short(reward.name)} · {points(reward.points)}"


def group_rewards(items: Sequence[Reward], balance: Balance) -> str:
    """``/t premios`` in a group: its rewards, how to ask for one, and the sender's balance."""
    mine = _("Tienes {balance}.", balance=balance_text(balance))
    if not items:
        return "\n".join([_("Este grupo aún no tiene premios. Un administrador los crea con /t premio nuevo "
                            "<nombre> <puntos>."), mine])
    lines = [_("🎁 Premios del grupo:"), *map(reward_line, items), mine, _("Para pedir uno: /t canjear <n>")]
    return "\n".join(lines)


def every_group_rewards(groups: Sequence[tuple[str | None, Sequence[Reward], Balance]]) -> str:
    """``/t premios`` in a direct message: each group's rewards and the sender's balance there."""
    if not groups:
        return _(NO_GROUPS)
    lines: list[str] = []
    for name, items, balance in groups:
        lines.append(_("{group} (tienes {balance}):", group=name or _(UNNAMED_GROUP),
                       balance=balance_text(balance)))
        lines.extend(map(reward_line, items) if items else [_("• Aún sin premios")])
    lines.append(_("Para pedir uno: /t canjear <n>"))
    return "\n".join(lines)


def balance_here(balance: Balance) -> str:
    """``/t puntos`` in a group."""
    return _("Tienes {balance} en este grupo. Cada tarea hecha suma sus puntos; los premios: /t premios",
             balance=balance_text(balance))


def balances(groups: Sequence[tuple[str | None, Balance]]) -> str:
    """``/t puntos`` in a direct message: the sender's balance in each of their groups."""
    if not groups:
        return _(NO_GROUPS)
    lines = [f"• {name or _(UNNAMED_GROUP)}: {balance_text(balance)}" for name, balance in groups]
    return "\n".join([_("Tus puntos por grupo:"), *lines])


def reward_created(reward: Reward) -> str:
    """``/t premio nuevo`` done."""
    return _("🎁 Premio #{id} creado: «{name}», por {price}. Para pedirlo: /t canjear {id}", id=reward.id,
             name=short(reward.name), price=points(reward.points))


def reward_deleted(reward: Reward) -> str:
    """``/t premio borrar`` done."""
    return _("Premio #{id} («{name}») retirado. Los canjes ya pedidos se pueden aprobar o rechazar igual.",
             id=reward.id, name=short(reward.name))


def reward_not_found(reward_id: int) -> str:
    """No such reward on offer (here)."""
    return _("No encuentro el premio #{id}. Los premios: /t premios", id=reward_id)


def request_not_found(request_id: int) -> str:
    """No such reward request (in the sender's groups)."""
    return _("No encuentro el canje #{id}.", id=request_id)


def requested_elsewhere(request: RewardRequest) -> str:
    """``/t canjear`` in a direct message: the request is made and its group was told."""
    return _("Pedido el canje #{id} («{reward}») en {group}: allí se avisa a los administradores.", id=request.id,
             reward=short(request.reward_name), group=request.group_name or _(UNNAMED_GROUP))


def decided_elsewhere(request: RewardRequest) -> str:
    """An approval or refusal given outside the request's group: done, and the group was told."""
    if request.state is RequestState.APPROVED:
        return _("Canje #{id} aprobado; se lo he dicho al grupo.", id=request.id)
    return _("Canje #{id} rechazado; se lo he dicho al grupo.", id=request.id)


def _request_line(request: RewardRequest, *, with_group: bool) -> str:
    text = _("Canje #{id}: {who} pide «{reward}» ({price})", id=request.id, who=shown_name(request.requester_name),
             reward=short(request.reward_name), price=points(request.points))
    where = f" · {request.group_name or _(UNNAMED_GROUP)}" if with_group else ""
    return f"• {text}{where} → {approve_command(request.id)}"


def _photo_line(photo: PendingPhoto, *, with_group: bool) -> str:
    text = _("#{id} «{task}», de {who}", id=photo.task_id, task=short(photo.description),
             who=shown_name(photo.assignee_name))
    where = f" · {photo.group_name}" if with_group else ""
    command = _("/t aprobar {id}", id=photo.task_id)
    return f"• {text}{where} → {command}"


def pending(requests: Sequence[RewardRequest], photos: Sequence[PendingPhoto], points: Sequence[HeldPoints] = (), *,
            in_group: bool, missed: Sequence[Missed] = ()) -> str:
    """``/t pendientes``: how many things wait for the sender's approval, the reward requests, the photos and the
    points of self-made tasks (SPEC section 38), each with the command that approves it."""
    count = len(requests) + len(photos) + len(points) + len(missed)
    if not count:
        return _(NOTHING_WAITS)
    lines = [ngettext("{n} cosa espera tu aprobación:", "{n} cosas esperan tu aprobación:", count)]
    if requests:
        lines.append(_("🎁 Canjes de premios:"))
        lines.extend(_request_line(request, with_group=not in_group) for request in requests)
    if photos:
        lines.append(_("📷 Fotos de tareas hechas:"))
        lines.extend(_photo_line(photo, with_group=not in_group) for photo in photos)
    if points:
        lines.append(_("⭐ Puntos por confirmar (tareas que alguien creó e hizo solo):"))
        lines.extend(held_line(held, with_group=not in_group) for held in points)
    lines.extend(missed_section(missed, with_group=not in_group))
    return "\n".join(lines)
