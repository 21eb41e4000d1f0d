extension PreviewPage {
  /// `GET /preview.css`: the Messages screen, light and dark, laid out with
  /// logical properties so that a right-to-left screen mirrors itself.
  static let css = #"""
    :root {
      color-scheme: light dark;
      --page: #f2f2f7; --screen: #ffffff; --text: #000000; --secondary: #6c6c70; --separator: #d1d1d6;
      --accent: #007aff; --banner: #fff4e5; --banner-text: #5c3a00; --control: #ffffff;
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
    .toolbar h1 { font-size: 15px; margin: 0; margin-inline-end: auto; overflow-wrap: anywhere; }
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
    """#
}
