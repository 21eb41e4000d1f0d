"use strict";
(() => {
  const $ = (id) => document.getElementById(id);
  const settingsForm = $("settings");
  const banner = $("banner");
  const screens = $("screens");
  // What the controls ask for; empty values keep the command's.
  const query = new URLSearchParams(location.search);
  let offset = Number(query.get("offset") || 0);
  let events = null;

  const element = (name, className, text) => {
    const node = document.createElement(name);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  };
  // A text in its own direction, so that a long one is cut at its own
  // end; the style sheet lines it up with the screen's start. Neutral (a
  // phone number, digits) reads left to right, as digits do.
  const directed = (className, text, direction) => {
    const box = element("div", className, text);
    box.dir = direction === "rtl" ? "rtl" : "ltr";
    return box;
  };

  const showProblem = (text) => {
    banner.textContent = text || "";
    banner.hidden = !text;
  };

  const row = (item) => {
    const li = element("li", item.isUnread ? "row unread" : "row");
    const name = [item.title, item.isUnread ? "unread" : "", item.spokenDate, item.message];
    li.setAttribute("aria-label", name.filter((part) => part).join(", "));
    li.dataset.id = String(item.id);
    const dot = element("span", item.isUnread ? "dot" : "dot read");
    dot.setAttribute("aria-hidden", "true");
    const avatar = element("span", "avatar c" + (Number(item.avatarColor) & 7), item.initials);
    avatar.setAttribute("aria-hidden", "true");
    avatar.dir = "auto";
    const body = element("div", "body");
    const line = element("div", "line");
    const title = directed("title", item.title, item.titleDirection);
    const date = element("span", "date", item.date);
    line.append(title, date);
    const message = directed("message", item.message, item.messageDirection);
    body.append(line, message);
    li.append(dot, avatar, body);
    return li;
  };

  const screen = (data, settings) => {
    const section = element("section", "screen");
    section.lang = data.locale;
    section.dir = data.direction;
    const caption = element("p", "screen-caption",
      [data.locale, settings.timeZone, settings.hourCycle ? settings.hourCycle + "h" : "", settings.dateStyle]
        .filter((part) => part).join(" · "));
    caption.dir = "ltr";
    const heading = element("h2", "", "Messages");
    heading.lang = "en";
    section.append(caption, heading);
    if (data.rows === null) {
      section.append(element("p", "empty", "Nothing decoded yet."));
      return section;
    }
    const list = element("ul", "rows");
    list.setAttribute("role", "list");
    list.setAttribute("aria-label", "Messages, " + data.locale);
    for (const item of data.rows) list.append(row(item));
    section.append(list);
    return section;
  };

  const draw = (render) => {
    const settings = render.settings;
    document.title = settings.file + " — inbox-format preview";
    $("file").textContent = settings.file;
    for (const name of ["locale", "timeZone", "hourCycle", "dateStyle"]) {
      const control = $(name);
      if (document.activeElement !== control) control.value = settings[name];
    }
    const moved = settings.offset === 0 ? "" : " (" + (settings.offset > 0 ? "+" : "−") + span(Math.abs(settings.offset)) + ")";
    clock = { now: Date.parse(render.now), at: performance.now(), running: settings.clock === "running",
              label: " " + settings.clock + moved };
    showClock();
    showProblem(render.problem || "");
    screens.replaceChildren(...render.screens.map((data) => screen(data, settings)));
  };

  // The clock line: the render's instant, then, while the clock runs,
  // ticking on between renders (which come only when a label changes).
  let clock = null;
  const showClock = () => {
    if (!clock) return;
    const elapsed = clock.running ? performance.now() - clock.at : 0;
    const instant = new Date(clock.now + Math.floor(elapsed / 1000) * 1000);
    $("clock").textContent = instant.toISOString().replace(/\.\d{3}Z$/, "Z") + clock.label;
  };
  setInterval(showClock, 1000);

  const span = (seconds) => {
    const units = [[604800, "w"], [86400, "d"], [3600, "h"], [60, "min"], [1, "s"]];
    const parts = [];
    for (const [size, unit] of units) {
      if (seconds >= size) { parts.push(Math.floor(seconds / size) + unit); seconds %= size; }
    }
    return parts.join(" ") || "0s";
  };

  const connect = () => {
    if (events) events.close();
    // The theme is the page's alone.
    const settings = new URLSearchParams(query);
    settings.delete("theme");
    const url = "/events?" + settings.toString();
    events = new EventSource(url);
    events.addEventListener("render", (event) => draw(JSON.parse(event.data)));
    events.addEventListener("error", () => {
      if (events.readyState !== EventSource.CLOSED) {
        showProblem("The preview's server does not answer; trying again.");
        return;
      }
      // Refused (a setting that cannot be used): the problem says why.
      fetch(url).then((answer) => answer.json()).then(
        (problem) => showProblem(problem.detail || "The preview's server refused the settings."),
        () => showProblem("The preview's server does not answer."));
    });
  };

  const update = () => {
    history.replaceState(null, "", "?" + query.toString());
    connect();
  };

  settingsForm.addEventListener("submit", (event) => {
    event.preventDefault();
    for (const name of ["locale", "timeZone", "hourCycle", "dateStyle"]) {
      const value = $(name).value.trim();
      if (value) query.set(name, value); else query.delete(name);
    }
    update();
  });
  for (const button of document.querySelectorAll("[data-move]")) {
    button.addEventListener("click", () => {
      const move = Number(button.dataset.move);
      offset = move === 0 ? 0 : offset + move;
      if (offset) query.set("offset", String(offset)); else query.delete("offset");
      update();
    });
  }
  const theme = $("theme");
  const applyTheme = (value) => {
    if (value) document.documentElement.dataset.theme = value;
    else delete document.documentElement.dataset.theme;
  };
  theme.value = query.get("theme") || "";
  applyTheme(theme.value);
  theme.addEventListener("change", () => {
    applyTheme(theme.value);
    if (theme.value) query.set("theme", theme.value); else query.delete("theme");
    history.replaceState(null, "", "?" + query.toString());
  });
  connect();
})();
