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

  // A row; `fields` gets the element that shows each key, for the marks
  // of a comparison (a key shown nowhere marks the row).
  const row = (item, fields = {}) => {
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
    Object.assign(fields, { isUnread: dot, initials: avatar, title, date, message });
    return li;
  };

  // A row one side of a comparison lacks.
  const absentRow = (text) => {
    const li = element("li", "row absent");
    li.append(element("div", "body", text));
    return li;
  };

  const screen = (data, settings, caption = "") => {
    const section = element("section", "screen");
    section.lang = data.locale;
    section.dir = data.direction;
    const captionLine = element("p", "screen-caption", caption ||
      [data.locale, settings.timeZone, settings.hourCycle ? settings.hourCycle + "h" : "", settings.dateStyle]
        .filter((part) => part).join(" · "));
    captionLine.dir = "ltr";
    const heading = element("h2", "", "Messages");
    heading.lang = "en";
    section.append(captionLine, heading);
    if (data.rows === null) {
      section.append(element("p", "empty", "Nothing decoded yet."));
      return section;
    }
    const list = element("ul", "rows");
    list.setAttribute("role", "list");
    list.setAttribute("aria-label", (caption || "Messages") + ", " + data.locale);
    if (data.total > data.rows.length) {
      list.classList.add("virtual");
      // Its height before it replaces the last one, so that the scroll stays.
      list.style.blockSize = data.total * rowHeight + "px";
      virtualLists.push({ list, data });
    }
    else for (const item of data.rows) list.append(row(item));
    section.append(list);
    return section;
  };

  // A large file comes as a window of its rows (`start`, and the file's
  // `total`). Its list is as tall as all its rows would make it and holds
  // only those in view and a few either side; a scroll that leaves the
  // window asks the server for the window around the rows in view.
  const rowHeight = 64; // `.rows.virtual .row`'s block-size in the style sheet
  const overscan = 8;
  const windowSize = 120;
  let virtualLists = [];
  // The window asked of the server; null: its first.
  let asked = null;
  let askTimer = null;

  const paintVirtual = () => {
    let wanted = null;
    for (const { list, data } of virtualLists) {
      const top = list.getBoundingClientRect().top;
      const first = Math.min(data.total, Math.max(0, Math.floor(-top / rowHeight) - overscan));
      const last = Math.min(data.total, Math.max(first, Math.ceil((innerHeight - top) / rowHeight) + overscan));
      const range = first + "-" + last + "-" + data.start;
      if (list.dataset.range !== range) {
        list.dataset.range = range;
        const nodes = [];
        for (let index = first; index < last; index++) {
          const item = data.rows[index - data.start];
          const li = item ? row(item) : element("li", "row pending");
          li.style.insetBlockStart = index * rowHeight + "px";
          li.setAttribute("aria-posinset", String(index + 1));
          li.setAttribute("aria-setsize", String(data.total));
          nodes.push(li);
        }
        list.replaceChildren(...nodes);
      }
      const covered = asked ? [asked.start, asked.start + asked.count] : [data.start, data.start + data.rows.length];
      if (first < covered[0] || (last > covered[1] && covered[1] < data.total)) {
        wanted = Math.max(0, Math.floor((first + last - windowSize) / 2));
      }
    }
    if (wanted !== null) {
      asked = { start: wanted, count: windowSize };
      // One stream at a time, at most every 100 ms: a fast scroll asks once it slows.
      clearTimeout(askTimer);
      askTimer = setTimeout(connect, 100);
    }
  };

  let painting = false;
  const repaint = () => {
    if (painting || virtualLists.length === 0) return;
    painting = true;
    requestAnimationFrame(() => {
      painting = false;
      paintVirtual();
    });
  };
  addEventListener("scroll", repaint, { passive: true });
  addEventListener("resize", repaint);

  // Which differing row each comparison's arrows last went to, by locale.
  const visited = new Map();
  let describedCount = 0;

  // A value of a difference as the description says it: strings quoted.
  const spoken = (value) => value === null || value === undefined ? "no such key" : JSON.stringify(value);

  // The mock's screen beside a locale's, row by row as `check` pairs them,
  // every differing field marked on both sides; a counter and arrows go
  // from one differing row to the next.
  const comparison = (data, settings) => {
    const compared = data.expected;
    const box = element("section", "comparison");
    box.lang = "en";
    const bar = element("div", "compare-bar");
    bar.dir = "ltr";
    const counted = compared.rowsDiffer;
    const notes = compared.differences.filter((item) => !item.counts).length;
    const counter = element("span", "counter",
      (counted === 0 ? "No rows differ" : counted === 1 ? "1 row differs" : counted + " rows differ") +
      (notes === 0 ? "" : " (" + notes + (notes === 1 ? " string differs" : " strings differ") +
        " only in spaces or bidi marks)"));
    counter.setAttribute("aria-live", "polite");
    const previous = element("button", "previous", "↑");
    const next = element("button", "next", "↓");
    previous.type = next.type = "button";
    previous.setAttribute("aria-label", "Previous row that differs, " + data.locale);
    next.setAttribute("aria-label", "Next row that differs, " + data.locale);
    previous.title = "Previous row that differs";
    next.title = "Next row that differs";
    bar.append(element("span", "compare-locale", data.locale), counter, previous, next);

    const mockSide = screen({ locale: data.locale, direction: data.direction, rows: [] }, settings,
      settings.expected + " (expected)");
    const rowsSide = screen({ locale: data.locale, direction: data.direction, rows: [] }, settings);
    const mockList = mockSide.querySelector("ul");
    const rowsList = rowsSide.querySelector("ul");
    const byPair = compared.pairs.map(() => []);
    for (const item of compared.differences) byPair[item.pair].push(item);
    const differing = [];
    compared.pairs.forEach(([e, a], pair) => {
      const mockFields = {};
      const rowFields = {};
      const mockRow = e === null ? absentRow("not in the expected rows") : row(compared.rows[e], mockFields);
      const payloadRow = a === null ? absentRow("missing from the payload's rows") : row(data.rows[a], rowFields);
      const found = byPair[pair];
      if (found.length > 0) {
        const said = found.map((item) => item.kind === "field"
          ? item.key + (item.counts ? "" : " (only spaces or bidi marks)") + ": expected " + spoken(item.expected) +
            ", got " + spoken(item.got)
          : item.kind === "missingRow" ? "missing from the payload's rows" : "not in the expected rows");
        const description = "Differs: " + said.join("; ");
        for (const [li, fields] of [[mockRow, mockFields], [payloadRow, rowFields]]) {
          const note = element("span", "described", description);
          note.id = "difference-" + (++describedCount);
          li.append(note);
          li.setAttribute("aria-describedby", note.id);
          li.classList.add(found.some((item) => item.counts) ? "differs" : "differs-noted");
          for (const item of found) {
            if (item.kind !== "field") continue;
            const shown = fields[item.key] || li;
            shown.classList.add(item.counts ? "mark" : "mark-noted");
            shown.dataset.key = item.key;
          }
        }
        if (found.some((item) => item.counts)) differing.push([mockRow, payloadRow]);
      }
      mockList.append(mockRow);
      rowsList.append(payloadRow);
    });
    const go = (step) => {
      if (differing.length === 0) return;
      const last = visited.has(data.locale) ? Math.min(visited.get(data.locale), differing.length - 1) : -1;
      const index = last === -1 && step < 0 ? differing.length - 1 : (last + step + differing.length) % differing.length;
      visited.set(data.locale, index);
      for (const pair of differing) for (const li of pair) li.classList.remove("current");
      for (const li of differing[index]) li.classList.add("current");
      const target = differing[index][1];
      target.tabIndex = -1;
      target.scrollIntoView({ block: "center" });
      target.focus({ preventScroll: true });
    };
    previous.disabled = next.disabled = differing.length === 0;
    previous.addEventListener("click", () => go(-1));
    next.addEventListener("click", () => go(1));
    const sides = element("div", "sides");
    sides.append(mockSide, rowsSide);
    box.append(bar, sides);
    return box;
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
    $("mapping").textContent = "mapping: " + settings.mapping + (settings.viewer ? ", viewer " + settings.viewer : "");
    virtualLists = [];
    screens.replaceChildren(...render.screens.map((data) =>
      data.expected ? comparison(data, settings) : screen(data, settings)));
    paintVirtual();
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
    if (asked) {
      settings.set("start", String(asked.start));
      settings.set("count", String(asked.count));
    }
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
