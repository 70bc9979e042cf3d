"""Photo proof in the conversation (SPEC section 34), through the road on a real database: a task that needs a photo
is not done without one, a photo recorded from the chat is kept once fetched and waits for the creator's or a group
admin's approval, a rejected photo's file is gone, and whatever the task cannot take is answered with why."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import select, update

from taskcore.chat.policy import ChatPolicy
from taskcore.services import photo_intake, proof
from taskcore.storage import schema
from taskcore.storage.db import Database
from taskcore.storage.photo_files import PhotoFiles
from taskcore.storage.proof_tables import task_proofs
from taskcore.storage.tasks import load_tasks
from tasksvc_run import units
from tests.builders import GROUP, NOW, make_group, wa_photo, wa_reaction, wa_text
from tests.chat_support import policy, queued, run, texts

ANA, LUIS, BEA, EVA = "34600111111", "34600333333", "34600444444", "34600555555"  # creator, assignee, admin, member
OTHER_GROUP = "120363300000000099@g.us"
PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 64
GIF = b"GIF89a" + b"\x00" * 64
RULES = photo_intake.PhotoRules(max_bytes=1024)


@pytest.fixture
def rules(tmp_path: Path) -> ChatPolicy:
    return replace(policy(), data_dir=str(tmp_path))


@pytest.fixture
def files(tmp_path: Path) -> PhotoFiles:
    return PhotoFiles(tmp_path)


def group_with_admin(db: Database, group: str = GROUP) -> None:
    make_group(db, group, members=(ANA, LUIS, BEA, EVA))
    with db.write() as conn:
        conn.execute(update(schema.group_members).where(schema.group_members.c.user_id == BEA)
                     .values(is_admin=True))
        for user, name in ((ANA, "Ana"), (LUIS, "Luis"), (BEA, "Bea"), (EVA, "Eva")):
            conn.execute(update(schema.users).where(schema.users.c.id == user).values(display_name=name))


def new_photo_task(db: Database, rules: ChatPolicy, text: str = "/t nueva limpiar el baño", *,
                   origin: str = "ORIGIN1", group: str = GROUP) -> int:
    run(db, wa_text(f"{text} @{LUIS} !foto", sender=ANA, group=group, message_id=origin,
                    mentioned=(f"{LUIS}@s.whatsapp.net",)), rules)
    with db.read() as conn:
        return int(conn.execute(select(schema.tasks.c.id).order_by(schema.tasks.c.id.desc())).scalars().first())


def say(db: Database, rules: ChatPolicy, text: str, sender: str, **kw: object) -> str:
    run(db, wa_text(text, sender=sender, push_name={ANA: "Ana", LUIS: "Luis", BEA: "Bea"}.get(sender, "Eva"),
                    **kw), rules)  # type: ignore[arg-type]
    return texts(db)[-1]


def send_photo(db: Database, rules: ChatPolicy, message_id: str, *, quoted: str | None = "ORIGIN1",
               caption: str | None = None, sender: str = LUIS, **kw: object) -> None:
    run(db, wa_photo(caption, sender=sender, quoted=quoted, message_id=message_id, push_name="Luis", **kw), rules)  # type: ignore[arg-type]


def fetched(db: Database, files: PhotoFiles, data: bytes = PNG) -> str:
    [job] = units.run(db, photo_intake.claim_fetches, now=NOW)
    return units.run(db, photo_intake.photo_arrived, files, job, data, rules=RULES, now=NOW)


def done(db: Database, task_id: int) -> bool:
    with db.read() as conn:
        return load_tasks(conn, [task_id])[0].completed


def test_a_photo_task_is_not_done_without_a_photo_and_says_what_is_missing(db: Database, rules: ChatPolicy) -> None:
    group_with_admin(db)
    task = new_photo_task(db, rules)
    assert "necesita una foto" in texts(db)[-1]
    assert "Falta la foto de #1." in say(db, rules, f"/t x {task}", LUIS)
    assert "«hecho 1»" in say(db, rules, "hecho", LUIS, quoted="ORIGIN1")
    assert "Falta la foto" in say(db, rules, f"/t x {task}", ANA)  # the creator too: the photo is the proof
    run(db, wa_reaction("✅", "ORIGIN1", sender=LUIS, target_from_me=False, target_author=f"{ANA}@s.whatsapp.net"),
        rules)
    assert "Falta la foto" in texts(db)[-1]
    assert not done(db, task)


def test_a_photo_replying_to_the_task_is_kept_and_done_only_once_approved(
    db: Database, rules: ChatPolicy, files: PhotoFiles, tmp_path: Path,
) -> None:
    group_with_admin(db)
    task = new_photo_task(db, rules)
    send_photo(db, rules, "PHOTO1")
    assert fetched(db, files) == "kept"
    [kept] = list((tmp_path / "photos").iterdir())
    assert kept.read_bytes() == PNG
    assert f"Foto de #{task} «limpiar el baño» recibida. @{ANA} o @{BEA}: ✅ en la foto" in texts(db)[-1]
    assert "espera la aprobación de Ana o Bea" in say(db, rules, f"/t x {task}", LUIS)
    assert "Solo quien creó #1" in say(db, rules, f"/t aprobar {task}", EVA)
    assert not done(db, task)
    assert f"✅ Foto aprobada: #{task} «limpiar el baño» hecha por @{LUIS}." in say(db, rules, f"/t aprobar {task}",
                                                                                    ANA)
    with db.read() as conn:
        item = load_tasks(conn, [task])[0]
    assert (item.completed, item.completed_by) == (True, LUIS)
    assert item.proof is not None
    assert item.proof.state.value == "approved"


def test_a_check_mark_on_the_photo_by_a_group_admin_approves_it(db: Database, rules: ChatPolicy,
                                                                 files: PhotoFiles) -> None:
    group_with_admin(db)
    task = new_photo_task(db, rules)
    send_photo(db, rules, "PHOTO1", quoted=None, caption=f"hecho {task}")
    fetched(db, files)
    run(db, wa_reaction("✅", "PHOTO1", sender=LUIS, target_from_me=False, target_author=f"{LUIS}@s.whatsapp.net"),
        rules)
    assert "espera la aprobación" in texts(db)[-1]  # never one's own photo
    run(db, wa_reaction("✅", "PHOTO1", sender=BEA, target_from_me=False, target_author=f"{LUIS}@s.whatsapp.net"),
        rules)
    assert "✅ Foto aprobada" in texts(db)[-1]
    assert done(db, task)


def test_a_rejected_photo_is_deleted_and_the_assignee_told_why(db: Database, rules: ChatPolicy,
                                                               files: PhotoFiles, tmp_path: Path) -> None:
    group_with_admin(db)
    task = new_photo_task(db, rules)
    send_photo(db, rules, "PHOTO1")
    fetched(db, files)
    assert "Falta el motivo" in say(db, rules, f"/t rechazar {task}", ANA)
    said = say(db, rules, f"/t rechazar {task} no se ve el suelo", ANA)
    assert f"Foto de #{task} rechazada: no se ve el suelo. @{LUIS}, la tarea sigue abierta" in said
    assert list((tmp_path / "photos").iterdir()) == []
    assert not done(db, task)
    send_photo(db, rules, "PHOTO2")  # another photo is welcome
    assert fetched(db, files) == "kept"


@pytest.mark.parametrize(("data", "says"), [(GIF, "solo acepto JPEG, PNG o WebP"), (PNG * 40, "pasa de 0 MB")])
def test_a_photo_of_another_type_or_too_big_is_refused_and_no_file_stays(
    db: Database, rules: ChatPolicy, files: PhotoFiles, data: bytes, says: str,
) -> None:
    group_with_admin(db)
    new_photo_task(db, rules)
    send_photo(db, rules, "PHOTO1")
    assert fetched(db, files, data) != "kept"
    assert says in texts(db)[-1]
    assert not files.folder.exists() or list(files.folder.iterdir()) == []
    found = units.look(db, proof.proof_of, 1)
    assert found is not None
    assert found.state is None


def test_a_fetch_that_keeps_failing_is_tried_three_times_then_refused(db: Database, rules: ChatPolicy) -> None:
    group_with_admin(db)
    new_photo_task(db, rules)
    send_photo(db, rules, "PHOTO1")
    for attempt, at in ((1, NOW), (2, NOW + timedelta(seconds=5)), (3, NOW + timedelta(seconds=40))):
        [job] = units.run(db, photo_intake.claim_fetches, now=at)
        assert job.attempt == attempt
        assert units.run(db, photo_intake.claim_fetches, now=at) == []  # claimed: nobody fetches it twice
        units.run(db, photo_intake.fetch_failed, job, retryable=True, rules=RULES, now=at)
    assert "No pude descargar la foto de #1" in texts(db)[-1]
    assert units.run(db, photo_intake.claim_fetches, now=NOW + timedelta(hours=1)) == []


@pytest.mark.parametrize(("photo", "says"), [
    ({"caption": "hecho 2", "quoted": None}, "No encuentro la tarea #2 en este grupo."),  # another group's task
    ({"sender": EVA}, "Solo quien tiene asignada #1 puede enviar su foto."),
    ({"file_length": 9 * 1024 * 1024}, "pasa de 8 MB"),
])
def test_a_photo_the_task_cannot_take_is_answered_with_why(db: Database, rules: ChatPolicy,
                                                           photo: dict[str, object], says: str) -> None:
    group_with_admin(db)
    group_with_admin(db, OTHER_GROUP)
    new_photo_task(db, rules)
    new_photo_task(db, rules, origin="ORIGIN2", group=OTHER_GROUP)
    send_photo(db, rules, "PHOTO1", **photo)
    assert says in texts(db)[-1]
    assert units.run(db, photo_intake.claim_fetches, now=NOW) == []


def test_a_photo_for_a_task_that_needs_none_or_naming_none_is_not_kept(db: Database, rules: ChatPolicy) -> None:
    group_with_admin(db)
    run(db, wa_text("/t nueva regar", sender=ANA, message_id="PLAIN"), rules)
    send_photo(db, rules, "PHOTO1", quoted="PLAIN")
    assert "#1 no necesita foto: complétala con /t x 1." in texts(db)[-1]
    before = len(texts(db))
    send_photo(db, rules, "PHOTO2", quoted=None, caption="qué bonito 1 día")
    assert len(texts(db)) == before
    assert units.run(db, photo_intake.claim_fetches, now=NOW) == []


def test_a_second_photo_while_one_waits_is_refused(db: Database, rules: ChatPolicy, files: PhotoFiles) -> None:
    group_with_admin(db)
    new_photo_task(db, rules)
    send_photo(db, rules, "PHOTO1")
    fetched(db, files)
    send_photo(db, rules, "PHOTO2", caption="hecho 1", quoted=None)
    assert "Ya hay una foto de #1 esperando aprobación." in texts(db)[-1]


def test_only_the_creator_or_an_admin_sets_or_drops_the_photo_rule(db: Database, rules: ChatPolicy) -> None:
    group_with_admin(db)
    run(db, wa_text("/t nueva regar", sender=ANA), rules)
    assert "Solo quien creó #1" in say(db, rules, "/t foto 1", LUIS)
    assert "#1 necesita una foto" in say(db, rules, "/t foto 1", BEA)
    assert "Solo quien creó #1" in say(db, rules, "/t foto 1 no", LUIS)
    assert "#1 ya no necesita foto" in say(db, rules, "/t foto 1 no", ANA)
    say(db, rules, "/t x 1", LUIS)
    assert done(db, 1)


def test_photo_proof_is_refused_where_it_cannot_be(db: Database, rules: ChatPolicy) -> None:
    group_with_admin(db)
    assert "solo para tareas de grupo" in say(db, rules, "/t nueva regar !foto", ANA, group=None)
    assert "no se combina con !todos" in say(db, rules, f"/t nueva regar @{LUIS} !todos !foto", ANA,
                                             mentioned=(f"{LUIS}@s.whatsapp.net",))
    task = new_photo_task(db, rules)
    assert "no se completa por partes" in say(db, rules, f"/t modo {task} todos", ANA)


def test_the_next_occurrence_of_a_series_needs_a_photo_too(db: Database, rules: ChatPolicy,
                                                            files: PhotoFiles) -> None:
    group_with_admin(db)
    task = new_photo_task(db, rules, "/t nueva sacar la basura cada lunes")
    send_photo(db, rules, "PHOTO1")
    fetched(db, files)
    said = say(db, rules, f"/t aprobar {task}", BEA)
    assert "Próxima: #2" in said
    following = units.look(db, proof.proof_of, 2)
    assert following is not None
    assert following.required
    assert "Falta la foto de #2" in say(db, rules, "/t x 2", LUIS)


def test_what_waits_for_a_person_s_approval(db: Database, rules: ChatPolicy, files: PhotoFiles) -> None:
    group_with_admin(db)
    task = new_photo_task(db, rules)
    assert units.look(db, proof.pending_photos, ANA) == []
    send_photo(db, rules, "PHOTO1")
    assert units.look(db, proof.pending_photos, ANA) == []  # still being fetched
    fetched(db, files)
    [waiting] = units.look(db, proof.pending_photos, ANA)
    assert (waiting.task_id, waiting.group_id, waiting.description, waiting.assignee_name, waiting.at) == (
        task, GROUP, "limpiar el baño", "Luis", NOW)
    assert units.look(db, proof.pending_photos, BEA) == [waiting]
    assert units.look(db, proof.pending_photos, LUIS) == []  # never one's own photo
    assert units.look(db, proof.pending_photos, EVA) == []
    say(db, rules, f"/t aprobar {task}", ANA)
    assert units.look(db, proof.pending_photos, BEA) == []


def test_approved_photos_are_deleted_after_the_retention(db: Database, rules: ChatPolicy, files: PhotoFiles,
                                                         tmp_path: Path) -> None:
    group_with_admin(db)
    task = new_photo_task(db, rules)
    send_photo(db, rules, "PHOTO1")
    fetched(db, files)
    say(db, rules, f"/t aprobar {task}", ANA)
    assert units.run(db, proof.expire_photos, files, now=NOW + timedelta(days=29), retention_days=30) == 0
    assert len(list((tmp_path / "photos").iterdir())) == 1
    assert units.run(db, proof.expire_photos, files, now=NOW + timedelta(days=31), retention_days=30) == 1
    assert list((tmp_path / "photos").iterdir()) == []
    with db.read() as conn:
        assert load_tasks(conn, [task])[0].proof is None
        assert conn.execute(select(task_proofs.c.state)).scalars().all() == [None]


def test_files_no_row_keeps_are_cleaned_up_once_a_day_old(db: Database, files: PhotoFiles, tmp_path: Path) -> None:
    left = files.save("7-" + "a" * 32 + ".jpg", b"\xff\xd8\xff\x00")
    (tmp_path / "photos" / "notes.txt").write_text("not ours")
    assert units.run(db, proof.expire_photos, files, now=NOW, retention_days=30) == 0 or left.exists()
    later = left.stat().st_mtime + timedelta(days=2).total_seconds()
    assert files.leftovers(set(), older_than_seconds=86_400, now=later) == [left.name]
    files.remove_leftover(left.name)
    assert not left.exists()
    assert (tmp_path / "photos" / "notes.txt").exists()


@pytest.mark.parametrize("name", ["../tasks.db", "/etc/passwd", "..", "1-" + "0" * 32 + ".jpg/../../x"])
def test_the_photo_folder_never_reaches_outside_itself(files: PhotoFiles, tmp_path: Path, name: str) -> None:
    with pytest.raises(ValueError, match="not a photo file name"):
        files.save(name, b"x")
    assert files.read(name) is None
    assert not files.delete(name)
    assert sorted(p.name for p in tmp_path.iterdir()) in ([], ["photos"])


def test_the_pending_list_shows_a_waiting_photo_beside_a_reward_request(
    db: Database, rules: ChatPolicy, files: PhotoFiles,
) -> None:
    """``/t pendientes`` (the rewards' command) lists the photo branch's waiting photos with their approving command."""
    group_with_admin(db)
    task = new_photo_task(db, rules)
    send_photo(db, rules, "PHOTO1")
    fetched(db, files)
    listing = say(db, rules, "/t pendientes", BEA)
    assert f"#{task} «limpiar el baño», de Luis" in listing
    assert f"/t aprobar {task}" in listing
    assert f"/t aprobar {task}" not in say(db, rules, "/t pendientes", EVA)
    say(db, rules, f"/t aprobar {task}", BEA)
    assert f"/t aprobar {task}" not in say(db, rules, "/t pendientes", BEA)


def test_approving_a_turn_s_photo_mentions_whose_turn_is_next(db: Database, rules: ChatPolicy,
                                                               files: PhotoFiles) -> None:
    """SPEC section 39: the next person in a rotation is mentioned, so they are told."""
    group_with_admin(db)
    run(db, wa_text(f"/t nueva sacar la basura cada lunes @{LUIS} @{EVA} !turnos !foto", sender=ANA,
                    message_id="ORIGIN1", mentioned=(f"{LUIS}@s.whatsapp.net", f"{EVA}@s.whatsapp.net")), rules)
    send_photo(db, rules, "PHOTO1")
    fetched(db, files)
    said = say(db, rules, "/t aprobar 1", BEA)
    assert said.endswith(f"· le toca a @{EVA}")
    assert f"{EVA}@s.whatsapp.net" in queued(db)[-1].payload["mentioned"]
