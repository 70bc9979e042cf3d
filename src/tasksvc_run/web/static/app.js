// Acts on the server-rendered pages through the JSON API. Data only ever reaches the page as textContent.
"use strict";

(function () {
  const me = document.body.dataset.user || "";
  const today = document.body.dataset.today || "";
  const statusBox = document.getElementById("status");
  const alertBox = document.getElementById("alert");
  // The page's texts in its language (see web/script_texts.py), their {name} placeholders filled here.
  const TEXTS = JSON.parse(document.body.dataset.texts || "{}");

  function t(key, params) {
    return (TEXTS[key] || key).replace(/\{(\w+)\}/g, function (whole, name) {
      return params && name in params ? String(params[name]) : whole;
    });
  }

  function say(text) {
    if (alertBox) { alertBox.hidden = true; alertBox.textContent = ""; }
    if (statusBox) { statusBox.textContent = text; }
  }

  function complain(text) {
    if (statusBox) { statusBox.textContent = ""; }
    if (alertBox) { alertBox.textContent = text; alertBox.hidden = false; }
  }

  function problemText(problem, response) {
    if (problem && Array.isArray(problem.errors) && problem.errors.length) {
      return problem.errors.map(function (e) { return e.message; }).join(". ");
    }
    if (problem && problem.detail) { return problem.detail; }
    if (response.status === 401) { return t("expired"); }
    return t("failed", { status: response.status });
  }

  async function api(method, url, body) {
    // Every write declares JSON, with a body or without one: the server refuses anything else (no cross-site forms).
    const init = { method: method, headers: { "Accept": "application/json" }, credentials: "same-origin" };
    if (method !== "GET") { init.headers["Content-Type"] = "application/json"; }
    if (body !== undefined) { init.body = JSON.stringify(body); }
    let response;
    try {
      response = await fetch(url, init);
    } catch (err) {
      throw new Error(t("offline"));
    }
    const data = await response.json().catch(function () { return null; });
    if (!response.ok) { throw new Error(problemText(data, response)); }
    return data;
  }

  // A date as the reader reads it (SPEC section 39): dd/MM in Spanish and Portuguese; in English the month by name,
  // in the order of the reader's country (6 Dec, Dec 6), as the server writes it.
  const locale = document.body.dataset.locale || document.documentElement.lang || "es";
  const byName = locale.slice(0, 2) === "en"
    ? new Intl.DateTimeFormat(locale, { day: "numeric", month: "short", timeZone: "UTC" }) : null;
  function ddmm(iso) {
    if (byName) { return byName.format(new Date(iso.slice(0, 10) + "T00:00:00Z")); }
    return iso.slice(8, 10) + "/" + iso.slice(5, 7);
  }
  // A time of day (HH:MM) as the reader reads it: 24 hours, or 12 where the reader's English has them (7:15 AM).
  const twelve = byName
    ? new Intl.DateTimeFormat(locale, { hour: "numeric", minute: "2-digit", timeZone: "UTC" }) : null;
  const byClock = twelve && twelve.resolvedOptions().hour12 ? twelve : null;  // 24 hours: HH:MM as it is
  function clock(hhmm) {
    if (!byClock || !/^\d\d:\d\d$/.test(hhmm || "")) { return hhmm; }
    return byClock.format(new Date("1970-01-01T" + hhmm + ":00Z")).replace(/\u202f/g, " ");
  }

  function setText(item, field, text) {
    const node = item.querySelector('[data-field="' + field + '"]');
    if (node) { node.textContent = text; }
    return node;
  }

  function span(className, text) {
    const node = document.createElement("span");
    node.className = className;
    node.textContent = text;
    return node;
  }

  // Each assignee; in a task done by parts, with a tick for a part done (and the same words for screen readers).
  function fillAssignees(item, task) {
    const box = item.querySelector('[data-field="assignees"]');
    const each = task.completion === "each";
    box.replaceChildren();
    if (!task.assignees.length) { box.textContent = t("nobody"); }
    task.assignees.forEach(function (p, index) {
      const person = span("person" + (each && p.done ? " part-done" : ""), "");
      person.dataset.person = p.id;
      if (each) { person.append(span("tick", p.done ? "✓" : "○"), " "); person.firstChild.setAttribute("aria-hidden", "true"); }
      person.append(p.name || t("unnamed"));
      if (each) { person.append(span("visually-hidden", " " + (p.done ? t("partDone") : t("partPending")))); }
      box.append(person);
      if (index < task.assignees.length - 1) { box.append(", "); }
    });
    const progress = item.querySelector('[data-field="progress"]');
    const done = task.assignees.filter(function (p) { return p.done; }).length;
    progress.textContent = t("parts", { done: done, total: task.assignees.length });
    progress.hidden = !each;
  }

  // The checklist (SPEC section 41): one tick button per item, disabled once ticked or the task is done.
  function fillItems(item, task) {
    const list = item.querySelector('[data-field="items"]');
    if (!list) { return; }
    list.replaceChildren();
    list.hidden = !task.items.length;
    task.items.forEach(function (entry) {
      const row = document.createElement("li");
      row.className = "task-item" + (entry.done ? " is-done" : "");
      row.dataset.item = String(entry.n);
      const tick = document.createElement("button");
      tick.type = "button";
      tick.className = "tick";
      tick.dataset.tick = String(entry.n);
      tick.setAttribute("aria-pressed", entry.done ? "true" : "false");
      tick.disabled = entry.done || task.completed;
      tick.append(entry.done ? "☑" : "☐", span("visually-hidden", " " + (entry.done ? t("itemDone") : t("itemPending"))));
      row.append(tick, span("item-text", entry.n + ". " + entry.text));
      list.append(row);
    });
  }

  // Mirrors templates/_task.html for one task item returned by the API.
  function fill(item, task) {
    const part = task.assignees.find(function (p) { return p.id === me; });
    const mine = Boolean(part);
    const each = task.completion === "each";
    setText(item, "description", task.description);
    const due = setText(item, "due", task.due_date ? t("due", { date: ddmm(task.due_date) }) : t("noDate"));
    if (due) { due.classList.toggle("overdue", Boolean(task.due_date && task.due_date < today && !task.completed)); }
    fillAssignees(item, task);
    item.dataset.completion = task.completion;
    const repeats = setText(item, "recurrence", task.recurrence
      ? "↻ " + task.recurrence.text + (task.recurrence.rotation.length ? " · " + t("turns") : "") : "");
    if (repeats) { repeats.hidden = !task.recurrence; }
    fillItems(item, task);
    item.querySelector('[data-field="done"]').hidden = !task.completed;
    item.classList.toggle("is-done", task.completed);
    item.querySelector(".task-actions").hidden = task.completed;
    const complete = item.querySelector('[data-action="complete"]');
    complete.textContent = each && task.assignees.length ? t("finishPart") : t("complete");
    complete.hidden = each && task.assignees.length > 0 && !(mine && !part.done);
    item.querySelector('[data-action="claim"]').hidden = mine;
    item.querySelector('[data-action="unassign"]').hidden = !mine;
    item.querySelector('textarea[name="description"]').value = task.description;
    item.querySelector('input[name="due_date"]').value = task.due_date || "";
    const mode = item.querySelector('input[name="completion"][value="' + task.completion + '"]');
    if (mode) { mode.checked = true; }
  }

  const ZONE_SOURCES = { user: t("zoneUser"), phone: t("zonePhone"), default: t("zoneDefault") };

  const DONE_TEXT = { complete: t("doneComplete"), part: t("donePart"), claim: t("doneClaim"),
                      unassign: t("doneUnassign"), edit: t("doneEdit") };

  async function busy(control, item, work) {
    control.disabled = true;
    if (item) { item.setAttribute("aria-busy", "true"); }
    say(t("saving"));
    try {
      await work();
    } catch (err) {
      complain(err.message);
    } finally {
      control.disabled = false;
      if (item) { item.removeAttribute("aria-busy"); }
    }
  }

  document.addEventListener("click", function (event) {
    const tick = event.target.closest("button[data-tick]");
    if (!tick) { return; }
    const item = tick.closest("[data-task-id]");
    busy(tick, item, async function () {
      const task = await api("POST", "/api/tasks/" + item.dataset.taskId + "/items/" + tick.dataset.tick + "/tick");
      fill(item, task);
      say((task.completed ? DONE_TEXT.complete : t("doneTick")) + (task.next ? " " + t("next", { id: task.next.id,
        date: task.next.due_date ? ddmm(task.next.due_date) : t("noDateLower") }) : ""));
      item.querySelector(".task-desc").focus({ preventScroll: true });
    });
  });

  document.addEventListener("click", function (event) {
    const button = event.target.closest("button[data-action]");
    if (!button) { return; }
    const item = button.closest("[data-task-id]");
    const action = button.dataset.action;
    busy(button, item, async function () {
      const task = await api("POST", "/api/tasks/" + item.dataset.taskId + "/" + action);
      fill(item, task);
      const done = action === "complete" && !task.completed ? DONE_TEXT.part : DONE_TEXT[action];
      say(done + (task.next ? " " + t("next", { id: task.next.id,
        date: task.next.due_date ? ddmm(task.next.due_date) : t("noDateLower") }) : ""));
      // The pressed button may now be hidden: keep keyboard focus on something that makes sense next.
      const counterpart = { claim: "unassign", unassign: "claim" }[action];
      const next = counterpart && !task.completed ? item.querySelector('[data-action="' + counterpart + '"]')
        : item.querySelector(".task-desc");
      next.focus({ preventScroll: true });
    });
  });

  async function saveEdit(form) {
    const item = form.closest("[data-task-id]");
    const body = { description: form.elements.description.value, due_date: form.elements.due_date.value || null };
    const mode = form.querySelector('input[name="completion"]:checked');
    if (mode) { body.completion = mode.value; }
    const task = await api("PATCH", "/api/tasks/" + item.dataset.taskId, body);
    fill(item, task);
    form.closest("details").open = false;
    say(DONE_TEXT.edit);
  }

  async function savePreferences(form) {
    const freq = form.querySelector('input[name="freq"]:checked');
    const body = { freq: freq ? freq.value : "off" };
    if (form.elements.time.value.trim()) { body.time = form.elements.time.value.trim(); }  // as the chat reads it
    if (form.elements.tz) { body.tz = form.elements.tz.value.trim() || null; }
    if (form.elements.lang) { body.lang = form.elements.lang.value || null; }
    if (form.elements.quiet_from) {  // both or neither: one alone is refused by the API, naming quiet
      const from = form.elements.quiet_from.value.trim(), to = form.elements.quiet_to.value.trim();
      body.quiet = from || to ? { from: from, to: to } : null;
    }
    if (form.elements.away_until) { body.away_until = form.elements.away_until.value || null; }
    const saved = await api("POST", "/api/me/preferences", body);
    if (saved.lang !== document.documentElement.lang) { window.location.reload(); return; }  // the page in it
    form.elements.time.value = saved.time;
    if (form.elements.quiet_from) {  // shown back as read: 11 pm is 23:00
      const quiet = saved.quiet || { from: "", to: "" };
      form.elements.quiet_from.value = quiet.from;
      form.elements.quiet_to.value = quiet.to;
    }
    if (form.elements.tz) { form.elements.tz.placeholder = saved.tz; }
    const zone = document.querySelector('[data-field="tz"]');
    if (zone) { zone.textContent = saved.tz; }
    const source = document.querySelector('[data-field="tz-source"]');
    if (source) { source.textContent = ZONE_SOURCES[saved.tz_source] || ""; }
    say(saved.freq === "off" ? t("remindersOff") : t("remindersOn", { time: clock(saved.time), zone: saved.tz }));
  }

  document.addEventListener("submit", function (event) {
    const form = event.target;
    const kind = form.dataset.form;
    if (kind === "filters") {  // a plain GET; show that the list is on its way
      const list = document.getElementById("task-list");
      if (list) { list.setAttribute("aria-busy", "true"); }
      form.classList.add("loading");
      return;
    }
    const save = { edit: saveEdit, prefs: savePreferences, token: createToken }[kind];
    if (!save) { return; }
    event.preventDefault();
    const button = form.querySelector('button[type="submit"]');
    const item = form.closest("[data-task-id]");
    busy(button, item, function () { return save(form); });
  });

  // Calendario: the feed's secret address is shown once, when it is made.
  function showSecret(box, input, value) {
    input.value = value;
    box.hidden = false;
    input.focus();
    input.select();
  }

  async function calendarAction(action) {
    const state = document.getElementById("calendar-state");
    const create = document.getElementById("calendar-create");
    const remove = document.getElementById("calendar-delete");
    const box = document.getElementById("calendar-new");
    if (action === "create") {
      const made = await api("POST", "/api/me/calendar");
      document.getElementById("calendar-webcal").href = made.url.replace(/^https?:/, "webcal:");
      showSecret(box, document.getElementById("calendar-url"), made.url);
      state.textContent = t("calendarActive");
      create.textContent = t("calendarNew");
      remove.hidden = false;
      say(t("calendarCreated"));
      return;
    }
    if (!window.confirm(t("calendarConfirm"))) { say(""); return; }
    await api("DELETE", "/api/me/calendar");
    box.hidden = true;
    document.getElementById("calendar-url").value = "";
    state.textContent = t("calendarNone");
    create.textContent = t("calendarCreate");
    remove.hidden = true;
    create.focus();
    say(t("calendarOff"));
  }

  // Tokens: created from the form (shown once), revoked from the list.
  function tokenItem(token) {
    const item = document.createElement("li");
    item.className = "task";
    item.dataset.tokenId = String(token.id);
    const name = document.createElement("p");
    name.className = "task-desc";
    name.textContent = token.name;
    const meta = document.createElement("p");
    meta.className = "task-meta";
    meta.textContent = t("tokenFresh");
    const actions = document.createElement("div");
    actions.className = "task-actions";
    const revoke = document.createElement("button");
    revoke.type = "button";
    revoke.className = "secondary";
    revoke.dataset.tokenAction = "revoke";
    revoke.textContent = t("revoke");
    actions.appendChild(revoke);
    item.append(name, meta, actions);
    return item;
  }

  async function createToken(form) {
    const made = await api("POST", "/api/me/tokens", { name: form.elements.name.value });
    document.getElementById("token-list").appendChild(tokenItem(made));
    document.getElementById("token-empty").hidden = true;
    form.reset();
    showSecret(document.getElementById("token-new"), document.getElementById("token-value"), made.token);
    say(t("tokenCreated", { name: made.name }));
  }

  async function revokeToken(item) {
    const name = item.querySelector(".task-desc").textContent;
    if (!window.confirm(t("tokenConfirm", { name: name }))) { say(""); return; }
    await api("DELETE", "/api/me/tokens/" + item.dataset.tokenId);
    const list = item.parentNode;
    item.remove();
    document.getElementById("token-empty").hidden = list.children.length > 0;
    document.getElementById("token-name").focus();
    say(t("tokenRevoked", { name: name }));
  }

  document.addEventListener("click", function (event) {
    const calendar = event.target.closest("button[data-calendar]");
    if (calendar) {
      busy(calendar, null, function () { return calendarAction(calendar.dataset.calendar); });
      return;
    }
    const revoke = event.target.closest('button[data-token-action="revoke"]');
    if (revoke) {
      const item = revoke.closest("[data-token-id]");
      busy(revoke, item, function () { return revokeToken(item); });
    }
  });

  document.querySelectorAll(".task-desc").forEach(function (node) { node.tabIndex = -1; });

  // On a phone the sections scroll sideways: show the current one.
  const section = document.querySelector('.top nav [aria-current="page"]');
  if (section) { section.scrollIntoView({ block: "nearest", inline: "nearest" }); }
}());
