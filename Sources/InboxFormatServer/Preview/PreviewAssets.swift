// swift-format-ignore-file
// Generated from Sources/InboxFormatServer/Preview/Assets by
// Scripts/embed-preview.py; a test checks that each text here is the file's.

extension PreviewPage {
  /// `Assets/preview.html`.
  static let frame = #"""
<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>inbox-format preview</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/preview.css">
<script src="/preview.js" defer></script>
</head>
<body>
<header class="toolbar">
  <h1 id="file">inbox-format preview</h1>
  <span id="mapping" class="mapping"></span>
  <form id="settings" class="controls" autocomplete="off">
    <label>Locales <input id="locale" name="locale" spellcheck="false" placeholder="en-US,ar-EG,ja-JP"></label>
    <label>Time zone <input id="timeZone" name="timeZone" list="zones" spellcheck="false" placeholder="Europe/Paris"></label>
    <datalist id="zones">
<!-- zones -->
    </datalist>
    <label>Hours
      <select id="hourCycle" name="hourCycle">
        <option value="">locale's</option>
        <option value="12">12-hour</option>
        <option value="24">24-hour</option>
      </select>
    </label>
    <label>Dates
      <select id="dateStyle" name="dateStyle">
        <option value="standard">standard</option>
        <option value="compact">compact</option>
        <option value="relative">relative</option>
      </select>
    </label>
    <button type="submit">Apply</button>
  </form>
  <div class="controls" role="group" aria-label="Move the clock">
    <span id="clock" class="clock" aria-live="polite"></span>
    <button type="button" data-move="-604800" title="A week back">−1w</button>
    <button type="button" data-move="-86400" title="A day back">−1d</button>
    <button type="button" data-move="-3600" title="An hour back">−1h</button>
    <button type="button" data-move="0" title="Back to the clock">now</button>
    <button type="button" data-move="3600" title="An hour forward">+1h</button>
    <button type="button" data-move="86400" title="A day forward">+1d</button>
    <button type="button" data-move="604800" title="A week forward">+1w</button>
  </div>
  <label class="theme">Theme
    <select id="theme">
      <option value="">system</option>
      <option value="light">light</option>
      <option value="dark">dark</option>
    </select>
  </label>
</header>
<p id="banner" class="banner" role="alert" hidden></p>
<main id="screens" class="screens"></main>
<noscript><p class="banner">The preview draws its screens with a script; allow scripts from this page.</p></noscript>
</body>
</html>

"""#

  /// `Assets/preview.css`.
  static let css = #"""
:root {
  color-scheme: light dark;
  --page: #f2f2f7; --screen: #ffffff; --text: #000000; --secondary: #6c6c70; --separator: #d1d1d6;
  --accent: #007aff; --banner: #fff4e5; --banner-text: #5c3a00; --control: #ffffff;
  --mark: #ffd60a55; --mark-line: #d70015; --noted-line: #8e8e93;
  font-family: system-ui, -apple-system, "Segoe UI", "Noto Sans", "Noto Sans Arabic", "Noto Sans CJK JP", sans-serif;
  font-size: 16px;
}
:root[data-theme="light"] { color-scheme: light; }
:root[data-theme="dark"] {
  color-scheme: dark;
  --page: #000000; --screen: #1c1c1e; --text: #ffffff; --secondary: #98989f; --separator: #38383a;
  --accent: #0a84ff; --banner: #3a2a10; --banner-text: #ffd8a8; --control: #2c2c2e;
}
@media (prefers-color-scheme: dark) {
  :root:not([data-theme="light"]) {
    --page: #000000; --screen: #1c1c1e; --text: #ffffff; --secondary: #98989f; --separator: #38383a;
    --accent: #0a84ff; --banner: #3a2a10; --banner-text: #ffd8a8; --control: #2c2c2e;
  }
}
body { margin: 0; background: var(--page); color: var(--text); }
.toolbar {
  display: flex; flex-wrap: wrap; gap: 8px 16px; align-items: center; padding: 10px 16px;
  border-block-end: 1px solid var(--separator); font-size: 13px;
}
.toolbar h1 { font-size: 15px; margin: 0; overflow-wrap: anywhere; }
.mapping { color: var(--secondary); margin-inline-end: auto; overflow-wrap: anywhere; }
.controls { display: flex; flex-wrap: wrap; gap: 6px; align-items: center; }
.controls input { width: 12em; }
input, select, button {
  font: inherit; color: var(--text); background: var(--control);
  border: 1px solid var(--separator); border-radius: 6px; padding: 3px 6px;
}
button { cursor: pointer; }
.clock { font-variant-numeric: tabular-nums; color: var(--secondary); margin-inline-end: 4px; }
.banner {
  margin: 12px 16px 0; padding: 10px 12px; border-radius: 8px;
  background: var(--banner); color: var(--banner-text); white-space: pre-wrap; overflow-wrap: anywhere;
}
.screens { display: flex; flex-wrap: wrap; gap: 16px; padding: 16px; align-items: flex-start; }
.screen {
  inline-size: 375px; max-inline-size: 100%; background: var(--screen);
  border-radius: 24px; overflow: hidden; border: 1px solid var(--separator);
}
.screen-caption { font-size: 12px; color: var(--secondary); padding: 12px 16px 0; margin: 0; }
.screen h2 { font-size: 30px; font-weight: 700; margin: 4px 16px 8px; }
.rows { list-style: none; margin: 0; padding: 0; }
.row {
  display: flex; align-items: center; gap: 10px; padding-block: 10px; padding-inline: 8px 16px;
}
.row + .row .body { border-block-start: 1px solid var(--separator); }
.row .body { padding-block-start: 0; }
.dot { flex: none; inline-size: 10px; block-size: 10px; border-radius: 50%; background: var(--accent); }
.dot.read { visibility: hidden; }
.avatar {
  flex: none; inline-size: 44px; block-size: 44px; border-radius: 50%; display: flex;
  align-items: center; justify-content: center; color: #ffffff; font-weight: 600; font-size: 17px;
  background: #8e8e93; overflow: hidden; white-space: nowrap;
}
.avatar.c0 { background: #8e8e93; } .avatar.c1 { background: #ff3b30; } .avatar.c2 { background: #ff9500; }
.avatar.c3 { background: #34c759; } .avatar.c4 { background: #00a0b0; } .avatar.c5 { background: #007aff; }
.avatar.c6 { background: #5856d6; } .avatar.c7 { background: #af52de; }
.body { flex: 1; min-inline-size: 0; }
/* Line boxes of a fixed height, within the avatar's: a script whose font
   has a taller line (Arabic, Devanagari, Thai) gives rows the height of
   every other screen's. */
.line { display: flex; align-items: baseline; gap: 8px; block-size: 21px; line-height: 21px; }
.title { flex: 1; min-inline-size: 0; font-size: 17px; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.row.unread .title { font-weight: 700; }
/* Each text has its own direction; it lines up with the screen's start. */
.screen[dir="ltr"] :is(.title, .message) { text-align: left; }
.screen[dir="rtl"] :is(.title, .message) { text-align: right; }
.date { flex: none; font-size: 15px; color: var(--secondary); }
.message {
  margin-block-start: 2px; font-size: 15px; color: var(--secondary); block-size: 19px; line-height: 19px;
  overflow: hidden; text-overflow: ellipsis; white-space: nowrap;
}
.empty { color: var(--secondary); padding: 16px; margin: 0; }
/* A large file's list: as tall as all its rows, holding those in view,
   each placed at its index times its fixed height (the script's rowHeight). */
.rows.virtual { position: relative; }
.rows.virtual .row { position: absolute; inset-inline: 0; block-size: 64px; box-sizing: border-box; }
.rows.virtual .row .body { border-block-start: 1px solid var(--separator); }
.rows.virtual .row[aria-posinset="1"] .body { border-block-start: none; }
/* --expect: the mock's screen beside each locale's, the differing fields
   marked on both sides by an outline, which keeps every row's height. */
.comparison { display: flex; flex-direction: column; gap: 8px; }
.compare-bar { display: flex; gap: 8px; align-items: center; font-size: 13px; }
.compare-locale { font-weight: 600; }
.counter { color: var(--text); }
.sides { display: flex; flex-wrap: wrap; gap: 16px; align-items: flex-start; }
.mark { background: var(--mark); outline: 2px solid var(--mark-line); outline-offset: -1px; border-radius: 4px; }
.mark-noted { outline: 1px dashed var(--noted-line); outline-offset: -1px; border-radius: 4px; }
.dot.mark, .dot.mark-noted { visibility: visible; }
.row.differs, .row.differs-noted { position: relative; }
.row.differs { box-shadow: inset 4px 0 0 var(--mark-line); }
.row.differs.current { background: var(--mark); }
.row.absent .body { color: var(--secondary); font-style: italic; block-size: 42px; line-height: 42px; }
/* Said to a screen reader (the row's description), not shown. */
.described {
  position: absolute; inline-size: 1px; block-size: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap;
}

"""#

  /// `Assets/preview.js`.
  static let script = #"""
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

"""#
}
