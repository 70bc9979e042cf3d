"""The chat's words in Brazilian Portuguese: each meaning and the words that say it."""

from __future__ import annotations

WORDS: dict[str, tuple[str, ...]] = {
    "task.ayuda": ("ajuda",),
    "task.nueva": ("nova",),
    "task.ver": ("lista", "listar"),
    "task.x": ("feito",),
    "task.info": ("info", "detalhes"),
    "task.tomar": ("pegar",),
    "task.soltar": ("largar",),
    "task.modo": ("modo",),
    "task.fecha": ("data", "prazo"),
    "task.editar": ("editar",),
    "task.recordatorios": ("lembretes",),
    "task.parar": ("parar",),
    "task.zona": ("fuso",),
    "task.web": ("web",),
    "task.calendario": ("calendário",),
    "task.idioma": ("língua", "idioma"),
    "scope.group": ("grupo",),  # /t idioma grupo en
    "task.insistir": ("insistir",),
    "flag.each": ("todos",),  # /t nueva !todos: each assignee does their part
    "task.pasar": ("passar",),
    "admin.ayuda": ("ajuda",),
    "admin.grupos": ("grupos",),
    "admin.permitir": ("permitir",),
    "admin.bloquear": ("bloquear",),
    "admin.sync": ("sync", "sincronizar"),
    "status.pending": ("pendentes",),
    "status.allowed": ("permitidos",),
    "status.blocked": ("bloqueados",),
    "place.here": ("aqui",),
    "mode.each": ("todos", "cada"),
    "mode.any": ("um", "qualquer"),
    "due.none": ("sem",),
    "zone.default": ("sem", "padrão", "auto"),
    "calendar.revoke": ("apagar", "remover", "desativar", "revogar", "off"),
    "freq.off": ("off", "desligado", "não"),
    "freq.daily": ("diário",),
    "freq.weekdays": ("dias úteis",),
    "freq.weekly": ("semanal",),
    "date.today": ("hoje",),
    "date.tomorrow": ("amanhã",),
    "date.after_tomorrow": ("depois de amanhã",),
    "rule.intro": ("cada", "a cada"),
    "rule.intro_if_rule": ("todo", "toda"),
    "rule.joiner": ("e",),
    "rule.workdays": ("dia útil", "dias úteis"),
    "rule.DAILY": ("dia", "dias"),
    "rule.WEEKLY": ("semana", "semanas"),
    "rule.MONTHLY": ("mês", "meses"),
    **{f"weekday.{n}": (name, f"{name}-feira", f"{name} feira") for n, name in enumerate(
        ("segunda", "terça", "quarta", "quinta", "sexta"))},
    "weekday.5": ("sábado",),
    "weekday.6": ("domingo",),
    **{f"month.{n}": (name,) for n, name in enumerate(
        ("janeiro", "fevereiro", "março", "abril", "maio", "junho", "julho", "agosto", "setembro", "outubro",
         "novembro", "dezembro"), start=1)},
    "reply.complete": ("feito", "pronto", "concluído", "tá feito", "está feito", "fiz", "já fiz", "terminei", "acabei",
                       "feitinho"),
    # What may follow a reply word and leave it one (SPEC section 39): ``feito, valeu``.
    "polite.thanks": ("obrigado", "obrigada", "brigado", "brigada", "valeu", "vlw", "por favor", "pfv", "abraços",
                      "kkk", "kkkk", "haha", "gente", "pessoal", "galera"),
    "reply.claim": ("eu", "pego", "deixa comigo", "eu faço"),
    "task.puntos": ("pontos",),
    "task.resumen": ("resumo",),
    "task.silencio": ("silêncio",),
    "task.ausente": ("fora",),
    "task.vuelvo": ("voltei",),
    "quiet.off": ("não",),
    "weekday_short.0": ("seg",),
    "weekday_short.1": ("ter",),
    "weekday_short.2": ("qua",),
    "weekday_short.3": ("qui",),
    "weekday_short.4": ("sex",),
    "weekday_short.5": ("sáb",),
    "weekday_short.6": ("dom",),
    **{f"month_short.{n}": (name,) for n, name in enumerate(
        ("jan", "fev", "mar", "abr", "mai", "jun", "jul", "ago", "set", "out", "nov", "dez"), start=1)},
    "of.of": ("de",),  # 1º de dezembro
    "period.week": ("semana",),
    "period.month": ("mês",),
    "range.to": ("a", "até", "às", "-", "–"),  # 23h até 7h
    "clock.hour": ("h",),
    "clock.at": ("às", "à", "lá pelas"),  # às 18h, às 8
    "range.from": ("de", "das", "da", "desde"),  # das 23h às 7h
    "clock.am": ("am", "a.m."),
    "clock.pm": ("pm", "p.m."),
    "lang.es": ("es", "espanhol"),
    "lang.pt": ("pt", "pt-br", "português", "brasileiro"),
    "lang.en": ("en", "inglês"),
    "unit.hour": ("h", "hs", "hora", "horas"),  # /t insistir 12 cada 12 h
    "family.task": ("/t", "/tarefa"),  # the prefix of a task command
    "family.admin": ("/admin",),
    "flag.rotation": ("turnos", "revezamento"),  # /t nueva ... !turnos: the assignees take turns
    "flag.balanced": ("divisão",),  # !reparto: turns by the fewest points
    "admin.inalcanzables": ("inalcançáveis",),  # who the bot cannot write to in private (SPEC section 31)
    "task.borrarme": ("apagar-me", "esquecer-me"),  # erase me (SPEC section 32), in a direct message
    "confirm.yes": ("sim",),  # /t borrarme sí
    "task.foto": ("foto",),  # /t foto <id> [no]: the task needs a photo to be done (SPEC section 34)
    "flag.photo": ("foto",),  # /t nueva ... !foto
    "task.aprobar": ("aprovar",),  # a photo or a reward request approved
    "task.rechazar": ("rejeitar", "recusar"),  # sent back, with the reason
    "approval.request": ("resgate",),  # /t aprobar canje 3: a reward request
    "task.premio": ("prêmio",),  # /t premio nuevo|borrar (SPEC section 34)
    "task.premios": ("prêmios",),
    "task.canjear": ("resgatar",),
    "task.pendientes": ("pendentes",),  # what waits for the sender's approval
    "task.penalizacion": ("penalidade",),  # SPEC section 41
    "task.aplicar": ("aplicar",),
    "task.excusar": ("desculpar",),
    "task.pantalla": ("tela", "painel"),
    "reward.new": ("novo", "nova"),  # /t premio nuevo <nombre> <puntos>
    "reward.delete": ("apagar", "remover"),  # /t premio borrar <n>
    "price.unit": ("pontos", "ponto", "pts"),  # /t prêmio novo 20 pontos: escolher o filme
    "price.for": ("por",),
    "task.plantilla": ("modelo", "modelos"),  # starter chores (SPEC section 35)
    # The columns of a CSV file to import (SPEC section 35), as its header names them.
    "column.description": ("descrição", "tarefa"),
    "column.due_date": ("data", "prazo", "vencimento", "data limite"),
    "column.assignees": ("responsáveis", "responsável", "atribuídos"),
    "column.recurrence": ("repetição", "recorrência", "repete"),
    "column.items": ("itens", "lista", "checklist"),
    "column.points": ("pontos",),
    # Seasons of a recurrence (SPEC section 41): toda semana de abril a setembro, a cada 2 semanas o resto
    "season.in": ("em",),
    "season.rest": ("o resto", "resto", "o resto do ano"),
    # Checklists (SPEC section 41): /t adicionar 12 forno, /t remover 12 2
    "task.añadir": ("adicionar",),
    "task.quitar": ("remover",),
}
