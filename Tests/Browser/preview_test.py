#!/usr/bin/env python3
"""`inbox-format preview` in headless Chromium, as a person sees it.

Run by `swift test` (PreviewBrowserTests) with the binary it built:

    python3 Tests/Browser/preview_test.py --binary .build/debug/inbox-format [--screenshots DIR]

Needs Debian's chromium and chromium-driver and PyPI's selenium, which
Scripts/setup.sh installs. Each check starts its own preview on a free port
and its own copy of the payload; the script exits 1 at the first failure,
saying what was expected and what the page showed.
"""
import argparse
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

from selenium import webdriver
from selenium.common.exceptions import NoAlertPresentException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
EXAMPLE = ROOT / "Data/examples/messages.json"
# The example as its golden file records it (en-US, Europe/Paris,
# 2022-01-31T12:00:00Z), read as the page's rows read: initials, title,
# date, message, with CLDR's narrow space as a space.
EXPECTED_ROWS = [
    " ".join(row[key] for key in ("initials", "title", "date", "message")).replace("\u202f", " ")
    for row in json.loads((ROOT / "Data/golden/cases/messages-en-US-paris.expected.json").read_text())
]
HOSTILE_NAMES = [
    "<img src=x onerror=alert(1)>",
    "</script><script>alert(2)</script>",
    "javascript:alert(3)",
    '"><svg onload=alert(4)>',
    "\u202eevil\u202c &amp; <b>bold</b>",
]


def words(text):
    """Text with every run of white space (U+202F too) as one space."""
    return " ".join(text.split())


class Failure(Exception):
    pass


def check(condition, message):
    if not condition:
        raise Failure(message)


def wait_for(predicate, timeout, what):
    """Polls the page (the test's side only) until `predicate` holds; returns the seconds it took."""
    start = time.monotonic()
    last = None
    while time.monotonic() - start < timeout:
        try:
            last = predicate()
            if last:
                return time.monotonic() - start
        except Exception as error:  # the page is being redrawn
            last = error
        time.sleep(0.02)
    raise Failure(f"{what}: not within {timeout} s (last: {last!r})")


class Preview:
    """An `inbox-format preview` process on a free port."""

    def __init__(self, binary, file, *arguments):
        # Run from the repository, so that the page names the example as the README does.
        name = file.relative_to(ROOT) if file.is_relative_to(ROOT) else file
        self.process = subprocess.Popen(
            [binary, "preview", str(name), "--port", "0", *arguments],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, cwd=ROOT)
        line = self.process.stderr.readline()
        match = re.search(r"on (http://\S+)$", line.strip())
        if not match:
            self.process.kill()
            raise Failure(f"preview did not start: {line!r}{self.process.stderr.read()}")
        self.url = match.group(1) + "/"

    def stop(self):
        self.process.terminate()
        try:
            status = self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            raise Failure("preview did not stop within 10 s of SIGTERM")
        check(status == 0, f"preview exited {status} after SIGTERM")


def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1280,900", "--lang=en-US", "--no-first-run"]:
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    service = Service(shutil.which("chromedriver") or "/usr/bin/chromedriver")
    return webdriver.Chrome(options=options, service=service)


def console_errors(driver):
    return [entry for entry in driver.get_log("browser") if entry["level"] in ("SEVERE", "WARNING")]


def rows(driver, screen=0):
    sections = driver.find_elements(By.CSS_SELECTOR, "section.screen")
    return sections[screen].find_elements(By.CSS_SELECTOR, "li.row") if len(sections) > screen else []


def row_texts(driver, screen=0):
    """Each row's text as the browser renders it (invisible marks such as U+200F dropped)."""
    return [words(row.text) for row in rows(driver, screen)]


def row_contents(driver, screen=0):
    """Each row's fields as the page holds them, exactly: initials, title, date, preview."""
    return [words(" ".join(row.find_element(By.CSS_SELECTOR, part).get_attribute("textContent")
                           for part in (".avatar", ".title", ".date", ".message")))
            for row in rows(driver, screen)]


def command_rows(binary, file, *arguments):
    """The rows `inbox-format format` writes for the same file and settings."""
    output = subprocess.run([binary, "format", str(file), *arguments], capture_output=True, text=True, check=True)
    return json.loads(output.stdout)


def load(driver, url, screens=1):
    driver.get(url)
    wait_for(lambda: len(driver.find_elements(By.CSS_SELECTOR, "section.screen")) == screens and rows(driver),
             10, f"{screens} screen(s) with rows at {url}")


# MARK: the checks

def check_done_when(binary, driver, screenshots):
    arguments = ["--now", "2022-01-31T12:00:00Z", "--locale", "en-US", "--time-zone", "Europe/Paris"]
    preview = Preview(binary, EXAMPLE, *arguments)
    try:
        load(driver, preview.url)
        texts = row_texts(driver)
        check(texts == EXPECTED_ROWS, f"rows read {texts}, expected {EXPECTED_ROWS}")
        expected = [words(f"{r['initials']} {r['title']} {r['date']} {r['message']}")
                    for r in command_rows(binary, EXAMPLE, *arguments)]
        check(row_contents(driver) == expected, f"rows hold {row_contents(driver)}, the command wrote {expected}")
        unread = [row.find_element(By.CSS_SELECTOR, ".dot").value_of_css_property("visibility") == "visible"
                  for row in rows(driver)]
        check(unread == [True, True, False, True], f"unread dots on rows {unread}, expected 1, 2 and 4")
        bold = [row.find_element(By.CSS_SELECTOR, ".title").value_of_css_property("font-weight") for row in rows(driver)]
        check([int(w) >= 600 for w in bold] == [True, True, False, True], f"title weights {bold}")
        names = [row.accessible_name for row in rows(driver)]
        check(words(names[0]) == "Alexander Anderson, unread, 9:45 AM, Hello!! How are you?",
              f"row 1's accessible name is {names[0]!r}")
        check(words(names[3]).startswith("Georges Pitt, unread, January 3, 2022, "), f"row 4's accessible name is {names[3]!r}")
        check(driver.find_element(By.CSS_SELECTOR, "ul.rows").get_attribute("role") == "list", "the rows are not a list")
        # The date sits at the row's end (right, in English), the preview is cut by the layout.
        first = rows(driver)[0]
        title, date = first.find_element(By.CSS_SELECTOR, ".title"), first.find_element(By.CSS_SELECTOR, ".date")
        check(date.rect["x"] > title.rect["x"], "the date is not after the title")
        long_message = rows(driver)[3].find_element(By.CSS_SELECTOR, ".message")
        check(driver.execute_script("return arguments[0].scrollWidth > arguments[0].clientWidth", long_message)
              and long_message.value_of_css_property("text-overflow") == "ellipsis",
              "the long preview is not cut with an ellipsis")
        answer = urllib.request.urlopen(preview.url)
        policy = answer.headers.get("Content-Security-Policy", "")
        check("script-src 'self'" in policy and "default-src 'none'" in policy and "unsafe-inline" not in policy,
              f"Content-Security-Policy is {policy!r}")
        check(answer.headers.get("X-Content-Type-Options") == "nosniff", "no nosniff")
        errors = console_errors(driver)
        check(not errors, f"console errors: {errors}")
        if screenshots:
            driver.save_screenshot(str(screenshots / "preview-light.png"))
            driver.get(preview.url + "?theme=dark")
            wait_for(lambda: rows(driver), 10, "rows in the dark theme")
            background = driver.find_element(By.CSS_SELECTOR, "section.screen").value_of_css_property("background-color")
            check(background in ("rgba(28, 28, 30, 1)", "rgb(28, 28, 30)"), f"dark screen background {background}")
            driver.save_screenshot(str(screenshots / "preview-dark.png"))
        # The system's dark mode, as the browser reports it.
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia",
                               {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
        driver.get(preview.url)
        wait_for(lambda: rows(driver), 10, "rows with prefers-color-scheme: dark")
        background = driver.find_element(By.CSS_SELECTOR, "section.screen").value_of_css_property("background-color")
        check(background in ("rgba(28, 28, 30, 1)", "rgb(28, 28, 30)"), f"prefers-color-scheme: dark gave {background}")
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
        # Moved from the page: a day forward, 9:45 AM is yesterday's.
        load(driver, preview.url)
        driver.execute_script("window.notReloaded = true")
        driver.find_element(By.CSS_SELECTOR, "[data-move='86400']").click()
        wait_for(lambda: row_texts(driver)[0] == "AA Alexander Anderson Yesterday Hello!! How are you?", 5,
                 "row 1 a day later")
        driver.find_element(By.CSS_SELECTOR, "[data-move='604800']").click()
        wait_for(lambda: row_texts(driver)[0] == "AA Alexander Anderson 1/31/22 Hello!! How are you?", 5,
                 "row 1 a week and a day later")
        check(driver.execute_script("return window.notReloaded === true"), "moving the clock reloaded the page")
        # A setting the server refuses is said, and the rows stay.
        locale = driver.find_element(By.ID, "locale")
        locale.clear()
        locale.send_keys("en-US,not a locale")
        driver.find_element(By.CSS_SELECTOR, "#settings button[type=submit]").click()
        banner = driver.find_element(By.ID, "banner")
        wait_for(lambda: banner.is_displayed() and "not a locale" in banner.text, 5, "the refused locale's banner")
        check(len(rows(driver)) == 4, "the rows went with a refused setting")
        driver.get_log("browser")  # the refused request's 400 is logged, as it should be
    finally:
        driver.get("about:blank")  # so that its stream does not outlive the server
        preview.stop()


def check_live(binary, driver, folder):
    file = folder / "live.json"
    shutil.copy(EXAMPLE, file)
    preview = Preview(binary, file, "--now", "2022-01-31T12:00:00Z", "--locale", "en-US", "--time-zone", "Europe/Paris")
    try:
        load(driver, preview.url)
        driver.execute_script("window.notReloaded = true")
        payload = json.loads(EXAMPLE.read_text())

        def title_becomes(title, change, how):
            start = time.monotonic()
            change()
            wait_for(lambda: words(rows(driver)[0].find_element(By.CSS_SELECTOR, ".title").text) == title, 1.0,
                     f"the page after {how}")
            return time.monotonic() - start

        def write(title):
            payload["items"][0]["firstname"] = title
            file.write_text(json.dumps(payload))

        timings = {}
        timings["write"] = title_becomes("Written Anderson", lambda: write("Written"), "a write")

        def rename():
            payload["items"][0]["firstname"] = "Renamed"
            (folder / "next.json").write_text(json.dumps(payload))
            os.replace(folder / "next.json", file)
        timings["rename"] = title_becomes("Renamed Anderson", rename, "a rename onto the file")

        def recreate():
            file.unlink()
            time.sleep(0.1)
            payload["items"][0]["firstname"] = "Recreated"
            file.write_text(json.dumps(payload))
        timings["delete and create"] = title_becomes("Recreated Anderson", recreate, "a delete and create")

        # A file that does not decode: its located message, the last good rows stay.
        file.write_text('{"items": [ {"id": 1,, } ]}')
        banner = driver.find_element(By.ID, "banner")
        wait_for(lambda: banner.is_displayed() and "line 1, column" in banner.text, 1.0, "the decoding banner")
        check("live.json" in banner.text, f"the banner does not name the file: {banner.text!r}")
        check(len(rows(driver)) == 4 and "Recreated" in rows(driver)[0].text, "the last good rows went with a bad file")
        timings["fixed"] = title_becomes("Fixed Anderson", lambda: write("Fixed"), "fixing the file")
        wait_for(lambda: not banner.is_displayed(), 1.0, "the banner going")
        check(driver.execute_script("return window.notReloaded === true"), "the page reloaded")
        print("  live updates reached the page in " + ", ".join(f"{k} {v * 1000:.0f} ms" for k, v in timings.items()))
    finally:
        driver.get("about:blank")  # so that its stream does not outlive the server
        preview.stop()


def check_midnight(binary, driver):
    # 23:59:58 in Paris: two seconds later, 9:45 AM is yesterday's.
    preview = Preview(binary, EXAMPLE, "--clock-start", "2022-01-31T22:59:58Z", "--locale", "en-US",
                      "--time-zone", "Europe/Paris")
    try:
        load(driver, preview.url)
        check(row_texts(driver)[0] == "AA Alexander Anderson 9:45 AM Hello!! How are you?",
              f"before midnight row 1 read {row_texts(driver)[0]!r}")
        driver.execute_script("window.notReloaded = true")
        took = wait_for(lambda: row_texts(driver)[0] == "AA Alexander Anderson Yesterday Hello!! How are you?", 5,
                        "row 1 after midnight")
        check(driver.execute_script("return window.notReloaded === true"), "the page reloaded at midnight")
        print(f"  midnight turned 9:45 AM into Yesterday {took:.2f} s after the page loaded")
    finally:
        driver.get("about:blank")  # so that its stream does not outlive the server
        preview.stop()


def check_clock(binary, driver):
    # A running clock: the clock line ticks between renders, which come only when a label changes.
    preview = Preview(binary, EXAMPLE, "--clock-start", "2022-01-31T11:00:00Z", "--locale", "en-US",
                      "--time-zone", "Europe/Paris")
    try:
        load(driver, preview.url)
        clock = driver.find_element(By.ID, "clock")
        first = clock.text
        check(first.startswith("2022-01-31T11:00:0") and first.endswith("running"), f"the clock line reads {first!r}")
        driver.execute_script("window.notReloaded = true")
        wait_for(lambda: clock.text[:19] >= "2022-01-31T11:00:02", 5, "the clock line ticking")
        check(driver.execute_script("return window.notReloaded === true"), "the page reloaded")
    finally:
        driver.get("about:blank")  # so that its stream does not outlive the server
        preview.stop()
    # A frozen clock stays where it is.
    preview = Preview(binary, EXAMPLE, "--now", "2022-01-31T12:00:00Z", "--locale", "en-US")
    try:
        load(driver, preview.url)
        clock = driver.find_element(By.ID, "clock")
        time.sleep(2.2)
        check(clock.text == "2022-01-31T12:00:00Z frozen", f"the frozen clock line reads {clock.text!r}")
    finally:
        driver.get("about:blank")
        preview.stop()


def check_hostile(binary, driver, folder):
    file = folder / "hostile.json"
    items = []
    for index, name in enumerate(HOSTILE_NAMES):
        items.append({"id": index + 1, "firstname": name, "lastname": "</style>",
                      "message": f"<iframe src=javascript:alert({index})></iframe>",
                      "phone_number": {"international": "+33 6 00 00 00 00"},
                      "update_date": "2022-01-31T08:45:00Z", "unread_count": 1})
    file.write_text(json.dumps({"items": items}))
    preview = Preview(binary, file, "--now", "2022-01-31T12:00:00Z", "--locale", "en-US", "--time-zone", "UTC")
    try:
        load(driver, preview.url)
        expected = [r["title"] for r in command_rows(binary, file, "--now", "2022-01-31T12:00:00Z", "--locale", "en-US",
                                                      "--time-zone", "UTC")]
        titles = [row.find_element(By.CSS_SELECTOR, ".title").get_attribute("textContent") for row in rows(driver)]
        check(titles == expected, f"titles read {titles!r}, expected {expected!r}")
        inside = driver.find_elements(By.CSS_SELECTOR, "main img, main script, main svg, main iframe, main b, main style")
        check(not inside, f"markup from the file became elements: {[e.tag_name for e in inside]}")
        try:
            alert = driver.switch_to.alert
            raise Failure(f"an alert ran: {alert.text!r}")
        except NoAlertPresentException:
            pass
        errors = console_errors(driver)
        check(not errors, f"console errors: {errors}")
    finally:
        preview.stop()


def check_locales(binary, driver, screenshots):
    preview = Preview(binary, EXAMPLE, "--now", "2022-01-31T12:00:00Z", "--locale", "en-US,ar-EG,ja-JP",
                      "--time-zone", "Europe/Paris")
    try:
        load(driver, preview.url, screens=3)
        for index, arguments in enumerate([["--locale", "en-US"], ["--locale", "ar-EG"], ["--locale", "ja-JP"]]):
            expected = [words(f"{r['initials']} {r['title']} {r['date']} {r['message']}")
                        for r in command_rows(binary, EXAMPLE, "--now", "2022-01-31T12:00:00Z",
                                              "--time-zone", "Europe/Paris", *arguments)]
            check(row_contents(driver, index) == expected,
                  f"screen {index + 1} holds {row_contents(driver, index)}, the command wrote {expected}")
        sections = driver.find_elements(By.CSS_SELECTOR, "section.screen")
        check([s.get_attribute("dir") for s in sections] == ["ltr", "rtl", "ltr"], "the screens' directions")
        arabic = rows(driver, 1)[0]
        avatar, date = arabic.find_element(By.CSS_SELECTOR, ".avatar"), arabic.find_element(By.CSS_SELECTOR, ".date")
        check(avatar.rect["x"] > date.rect["x"], "the right-to-left screen is not mirrored (avatar left of the date)")
        title = arabic.find_element(By.CSS_SELECTOR, ".title")
        check(title.value_of_css_property("text-align") == "right", "a Latin title in the Arabic screen is not at the right")
        check(arabic.find_element(By.CSS_SELECTOR, ".title").get_attribute("dir") == "ltr",
              "a Latin title in the Arabic screen does not keep its own direction")
        neutral = rows(driver, 1)[2].find_element(By.CSS_SELECTOR, ".title")
        check(neutral.get_attribute("dir") == "ltr", "a phone number does not read left to right in the Arabic screen")
        # Every screen's rows are as tall as the others', whatever the script's
        # font: the Arabic screen gets the taller line of a font such as Noto
        # Naskh Arabic (this machine has only DejaVu and Liberation).
        driver.execute_script("document.querySelectorAll('section.screen')[1].style.lineHeight = '1.6'")
        heights = [[row.rect["height"] for row in rows(driver, index)] for index in range(3)]
        check(heights[0] == heights[1] == heights[2] and len(set(heights[0])) == 1, f"row heights per screen: {heights}")
        # The time zone control offers the server's ids, and still takes free text.
        zone = driver.find_element(By.ID, "timeZone")
        check(zone.get_attribute("list") == "zones", "the time zone control has no list")
        offered = driver.execute_script(
            "return Array.from(document.querySelectorAll('#zones option'), (option) => option.value)")
        check(len(offered) > 300 and "Europe/Paris" in offered and "America/New_York" in offered
              and offered == sorted(offered), f"the time zone list offers {len(offered)} ids: {offered[:5]}…")
        # The time zone and hour cycle, from the page.
        zone.clear()
        zone.send_keys("America/New_York")
        driver.find_element(By.CSS_SELECTOR, "#hourCycle option[value='24']").click()
        driver.find_element(By.CSS_SELECTOR, "#settings button[type=submit]").click()
        wait_for(lambda: row_texts(driver, 0)[0] == "AA Alexander Anderson 03:45 Hello!! How are you?", 5,
                 "row 1 in New York, 24-hour")
        if screenshots:
            load(driver, preview.url, screens=3)
            driver.set_window_size(1280, 700)
            driver.save_screenshot(str(screenshots / "preview-locales.png"))
            driver.get(preview.url + "?locale=ar-EG")
            wait_for(lambda: len(driver.find_elements(By.CSS_SELECTOR, "section.screen")) == 1 and rows(driver), 10,
                     "the Arabic screen")
            driver.save_screenshot(str(screenshots / "preview-rtl.png"))
            driver.set_window_size(1280, 900)
        errors = [e for e in console_errors(driver)]
        check(not errors, f"console errors: {errors}")
    finally:
        preview.stop()


def check_host(binary):
    preview = Preview(binary, EXAMPLE, "--now", "2022-01-31T12:00:00Z")
    try:
        request = urllib.request.Request(preview.url, headers={"Host": "attacker.example"})
        try:
            urllib.request.urlopen(request)
            raise Failure("a request to another host name was answered")
        except urllib.error.HTTPError as error:
            check(error.code == 403, f"a request to another host name got {error.code}")
        # SIGTERM with a stream open: the stream ends whole (a cut chunk
        # raises IncompleteRead here), and stop() checks exit 0 within 10 s.
        stream = urllib.request.urlopen(preview.url + "events", timeout=15)
        check(stream.readline() == b"retry: 1000\n", "the stream does not start with its retry field")
    finally:
        preview.stop()
    rest = stream.read()
    check(b"event: render\n" in rest, f"the stream ended without its render event: {rest[:200]!r}")


MOCK = ROOT / "Data/examples/messages.mock.json"
FROZEN = ["--now", "2022-01-31T12:00:00Z", "--locale", "en-US", "--time-zone", "Europe/Paris"]


def marks(driver, screen, selector=".mark"):
    """(row index, key) of every marked field in a screen, in the page's order."""
    found = []
    for index, row in enumerate(rows(driver, screen)):
        if "mark" in (row.get_attribute("class") or "").split() and row.get_attribute("data-key"):
            found.append((index, row.get_attribute("data-key")))
        found += [(index, mark.get_attribute("data-key")) for mark in row.find_elements(By.CSS_SELECTOR, selector)]
    return found


def description(driver, row):
    """A row's accessible description: the text of what aria-describedby names."""
    names = (row.get_attribute("aria-describedby") or "").split()
    return " ".join(driver.find_element(By.ID, name).get_attribute("textContent") for name in names)


def check_differences(binary, mock):
    """(row index, key) of each field `check` reports for the example against `mock`."""
    output = subprocess.run([binary, "check", str(EXAMPLE), str(mock), *FROZEN], capture_output=True, text=True)
    check(output.returncode in (0, 1), f"check exited {output.returncode}: {output.stderr}")
    found = []
    for line in output.stdout.splitlines():
        match = re.match(r"row (\d+), id \S+: (\w+): expected", line)
        if match:
            found.append((int(match.group(1)) - 1, match.group(2)))
    return found


def check_expect(binary, driver, folder, screenshots):
    mock = folder / "mock.json"
    shutil.copy(MOCK, mock)
    preview = Preview(binary, EXAMPLE, "--expect", str(mock), *FROZEN)
    try:
        load(driver, preview.url, screens=2)
        captions = [e.text for e in driver.find_elements(By.CSS_SELECTOR, ".screen-caption")]
        check(captions[0].endswith("mock.json\" (expected)") and captions[1].startswith("en-US"),
              f"the screens' captions read {captions}")
        # `check` is the oracle of what differs (its own tests say what that
        # is for the post's mock): row 1's "09:45 AM" at least.
        differing = check_differences(binary, mock)
        check(differing[:1] == [(0, "date")], f"check reports {differing}")
        differing_rows = sorted({row for row, _ in differing})
        for screen in (0, 1):
            found = marks(driver, screen)
            check(found == differing, f"screen {screen + 1} marks {found}, check reports {differing}")
        counter = driver.find_element(By.CSS_SELECTOR, ".counter")
        check(counter.text == f"{len(differing_rows)} rows differ", f"the counter reads {counter.text!r}")
        # Both values in the row's accessible description, on both sides.
        for screen in (0, 1):
            said = description(driver, rows(driver, screen)[0])
            check('date: expected "09:45 AM", got "9:45\u202fAM"' in said, f"row 1's description: {said!r}")
        check(description(driver, rows(driver, 1)[1]) == "", "an agreeing row has a description")
        check(driver.find_element(By.ID, "mapping").text == "mapping: post", "the mapping line")
        # The arrows, from the keyboard: each goes to the next differing row and focuses it.
        next_button = driver.find_element(By.CSS_SELECTOR, ".compare-bar .next")
        next_button.send_keys(Keys.ENTER)
        focused = lambda: driver.execute_script(
            "const rows = [...document.querySelectorAll('section.screen')[1].querySelectorAll('li.row')];"
            "return rows.indexOf(document.activeElement)")
        check(focused() == differing_rows[0], f"the first arrow went to row {focused() + 1}")
        next_button.send_keys(Keys.ENTER)
        check(focused() == differing_rows[1], f"the second arrow went to row {focused() + 1}")
        driver.find_element(By.CSS_SELECTOR, ".compare-bar .previous").send_keys(Keys.ENTER)
        check(focused() == differing_rows[0], f"the arrow back went to row {focused() + 1}")
        errors = console_errors(driver)
        check(not errors, f"console errors: {errors}")
        # The mock edited to agree: the marks go, live. Row 1's date with a
        # plain space where the rules write U+202F is noted, not counted.
        driver.execute_script("window.notReloaded = true")
        got = command_rows(binary, EXAMPLE, *FROZEN)
        agreeing = [{key: got[index][key] for key in row} for index, row in enumerate(json.loads(MOCK.read_text()))]
        agreeing[0]["date"] = got[0]["date"].replace("\u202f", " ")
        mock.write_text(json.dumps(agreeing))
        wait_for(lambda: not marks(driver, 0) and not marks(driver, 1), 2.0, "the marks going")
        check(counter_text(driver) == "No rows differ (1 string differs only in spaces or bidi marks)",
              f"the counter reads {counter_text(driver)!r}")
        check(marks(driver, 0, ".mark-noted") == [(0, "date")] == marks(driver, 1, ".mark-noted"),
              f"the spacing-only note: {marks(driver, 0, '.mark-noted')}")
        agreed = subprocess.run([binary, "check", str(EXAMPLE), str(mock), *FROZEN], capture_output=True, text=True)
        check(agreed.returncode == 0 and "(1 string differs only in spaces or bidi marks" in agreed.stdout,
              f"check on the agreeing mock: {agreed.returncode} {agreed.stdout!r}")
        # A mock that is not rows: its banner, and the last good mock stays.
        mock.write_text('[{"id": 1, "colour": "red"}]')
        banner = driver.find_element(By.ID, "banner")
        wait_for(lambda: banner.is_displayed() and "unknown key" in banner.text, 2.0, "the mock's banner")
        check("mock.json" in banner.text, f"the banner does not name the mock: {banner.text!r}")
        check(driver.execute_script("return window.notReloaded === true"), "the page reloaded")
    finally:
        driver.get("about:blank")
        preview.stop()
    if screenshots:
        screenshot_expect(binary, driver, screenshots)


def screenshot_expect(binary, driver, screenshots):
    """The side-by-side of the README: the example beside the post's mock, as committed."""
    preview = Preview(binary, EXAMPLE, "--expect", str(MOCK.relative_to(ROOT)), *FROZEN)
    try:
        load(driver, preview.url, screens=2)
        driver.set_window_size(860, 640)
        driver.save_screenshot(str(screenshots / "preview-expect.png"))
        driver.set_window_size(1280, 900)
    finally:
        driver.get("about:blank")
        preview.stop()


def counter_text(driver):
    return driver.find_element(By.CSS_SELECTOR, ".counter").text


def check_expect_hostile(binary, driver, folder):
    file = folder / "hostile-payload.json"
    mock = folder / "hostile-mock.json"
    hostile = HOSTILE_NAMES + ["\u2067</script><script>alert(5)</script>\u2069", "\u202ecba\u200f <p>x</p>"]
    items = [{"id": index + 1, "firstname": name, "lastname": "", "message": name,
              "update_date": "2022-01-31T08:45:00Z", "unread_count": 1} for index, name in enumerate(hostile)]
    file.write_text(json.dumps({"items": items}))
    # The mock has the names the other way round, so that every title differs.
    mock.write_text(json.dumps([{"id": index + 1, "title": name, "message": name}
                                for index, name in enumerate(reversed(hostile))]))
    preview = Preview(binary, file, "--expect", str(mock), *FROZEN)
    try:
        load(driver, preview.url, screens=2)
        mock_titles = [row.find_element(By.CSS_SELECTOR, ".title").get_attribute("textContent") for row in rows(driver, 0)]
        check(mock_titles == list(reversed(hostile)), f"the mock's titles read {mock_titles!r}")
        expected = [r["title"] for r in command_rows(binary, file, *FROZEN)]
        titles = [row.find_element(By.CSS_SELECTOR, ".title").get_attribute("textContent") for row in rows(driver, 1)]
        check(titles == expected, f"titles read {titles!r}, expected {expected!r}")
        said = description(driver, rows(driver, 0)[0])
        check("</script>" in said or "<p>x</p>" in said, f"a hostile value is not in the description as text: {said!r}")
        inside = driver.find_elements(By.CSS_SELECTOR, "main img, main script, main svg, main iframe, main b, main p:not(.screen-caption):not(.empty)")
        check(not inside, f"markup from the files became elements: {[e.tag_name for e in inside]}")
        try:
            alert = driver.switch_to.alert
            raise Failure(f"an alert ran: {alert.text!r}")
        except NoAlertPresentException:
            pass
        errors = console_errors(driver)
        check(not errors, f"console errors: {errors}")
    finally:
        driver.get("about:blank")
        preview.stop()


def check_mapping(binary, driver, folder):
    payload = ROOT / "Data/golden/inputs/backends/sendbird.json"
    preview = Preview(binary, payload, "--map", "sendbird", "--viewer", "me", *FROZEN)
    try:
        load(driver, preview.url)
        check(driver.find_element(By.ID, "mapping").text == "mapping: sendbird, viewer me",
              f"the mapping line reads {driver.find_element(By.ID, 'mapping').text!r}")
        check(row_texts(driver)[0] == "AA Alexander Anderson 9:45 AM Hello!! How are you?",
              f"sendbird's row 1 reads {row_texts(driver)[0]!r}")
    finally:
        driver.get("about:blank")
        preview.stop()
    # A mapping file: its name as text, whatever it holds.
    mapping = folder / "<img src=x onerror=alert(9)>\u202emap.json"
    mapping.write_text(subprocess.run([binary, "mappings", "sendbird"], capture_output=True, text=True, check=True).stdout)
    preview = Preview(binary, payload, "--map", str(mapping), "--viewer", "me", *FROZEN)
    try:
        load(driver, preview.url)
        shown = driver.find_element(By.ID, "mapping").get_attribute("textContent")
        check(shown.startswith("mapping: ") and "<img src=x onerror=alert(9)>\u202emap.json" in shown
              and shown.endswith(", viewer me"), f"the mapping line reads {shown!r}")
        check(not driver.find_elements(By.CSS_SELECTOR, "header img"), "the mapping's name became markup")
        check(row_texts(driver)[0] == "AA Alexander Anderson 9:45 AM Hello!! How are you?",
              f"the mapping file's row 1 reads {row_texts(driver)[0]!r}")
    finally:
        driver.get("about:blank")
        preview.stop()

def check_large(binary, driver, folder):
    # 100,000 messages: the page opens within 2 s, holds fewer than 200 rows,
    # and the stream carries a window of them, not the file.
    total = 100_000
    file = folder / "large.json"
    items = [{"id": index + 1, "firstname": "Person", "lastname": f"N{index + 1}", "message": f"Message {index + 1}",
              "phone_number": {"international": "+33 6 00 00 00 00"},
              "update_date": "2022-01-31T08:45:00Z", "unread_count": index % 2} for index in range(total)]
    file.write_text(json.dumps({"items": items}))
    preview = Preview(binary, file, *FROZEN)
    try:
        start = time.monotonic()
        driver.get(preview.url)
        wait_for(lambda: rows(driver) and "Person N1" in rows(driver)[0].text, 10, "the first rows of 100,000")
        opened = time.monotonic() - start
        in_dom = lambda: driver.execute_script("return document.querySelectorAll('li.row').length")
        check(opened < 2.0, f"100,000 messages opened in {opened:.2f} s")
        check(in_dom() < 200, f"{in_dom()} row elements in the DOM")
        height = driver.execute_script("return document.querySelector('ul.rows').getBoundingClientRect().height")
        check(height == total * 64, f"the list is {height} px tall, not 100,000 rows of 64 px")
        # Scrolled 2,000 rows on, then to the middle: those rows come, still
        # fewer than 200 in the DOM. The server makes the rows up to a
        # window's end once, so the middle takes longer the first time (most
        # in a debug build).
        shown = lambda: [words(row.find_element(By.CSS_SELECTOR, ".title").text)
                         for row in rows(driver) if "pending" not in row.get_attribute("class")]
        list_top = "document.querySelector('ul.rows').getBoundingClientRect().top + window.scrollY"
        driver.execute_script(f"window.scrollTo(0, {list_top} + 2000 * 64)")
        near = wait_for(lambda: "Person N2001" in shown(), 5.0, "row 2,001 after a scroll")
        check(in_dom() < 200, f"{in_dom()} row elements in the DOM after the scroll")
        driver.execute_script(f"window.scrollTo(0, {list_top} + 50000 * 64)")
        took = wait_for(lambda: "Person N50001" in shown(), 20.0, "row 50,001 after a scroll")
        check(in_dom() < 200, f"{in_dom()} row elements in the DOM after the scroll")
        # Scrolling a screen's height a frame for a second: no long task (over
        # 50 ms, as Chromium counts them) holds the page up for long.
        scrolled = driver.execute_async_script("""
            const done = arguments[arguments.length - 1];
            const long = [];
            const observer = new PerformanceObserver((list) => {
              for (const entry of list.getEntries()) long.push(entry.duration);
            });
            observer.observe({ entryTypes: ["longtask"] });
            const frames = [];
            let last = performance.now();
            const tick = () => {
              const now = performance.now();
              frames.push(now - last);
              last = now;
              window.scrollBy(0, 700);
              if (frames.length < 60) requestAnimationFrame(tick);
              else setTimeout(() => { observer.disconnect(); done({ long, frames }); }, 300);
            };
            requestAnimationFrame(tick);""")
        check(max(scrolled["long"], default=0) < 200, f"long tasks while scrolling: {scrolled['long']}")
        check(in_dom() < 200, f"{in_dom()} row elements in the DOM after scrolling")
        # The stream: the total, and a window of rows.
        stream = urllib.request.urlopen(preview.url + "events", timeout=15)
        data = None
        for line in stream:
            if line.startswith(b"data: "):
                data = json.loads(line[len(b"data: "):])
                break
        stream.close()
        screen = data["screens"][0]
        check(screen["total"] == total and screen["start"] == 0 and 0 < len(screen["rows"]) <= 200,
              f"the stream's screen: total {screen['total']}, start {screen['start']}, {len(screen['rows'])} rows")
        print(f"  100,000 messages opened in {opened:.2f} s with {in_dom()} row elements; row 2,001 came "
              f"{near:.2f} s after a scroll, row 50,001 {took:.2f} s; while scrolling, frames at most {max(scrolled['frames']):.0f} ms apart, "
              f"long tasks {[round(d) for d in scrolled['long']]} ms")
        errors = console_errors(driver)
        check(not errors, f"console errors: {errors}")
    finally:
        driver.get("about:blank")
        preview.stop()

def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", required=True)
    parser.add_argument("--screenshots", type=pathlib.Path)
    parser.add_argument("--only", help="run only the check of this name")
    arguments = parser.parse_args()
    if arguments.screenshots:
        arguments.screenshots.mkdir(parents=True, exist_ok=True)
    binary = str(pathlib.Path(arguments.binary).resolve())
    driver = browser()
    passed = failed = 0
    with tempfile.TemporaryDirectory() as folder:
        folder = pathlib.Path(folder)
        checks = [
            ("done when", lambda: check_done_when(binary, driver, arguments.screenshots)),
            ("live", lambda: check_live(binary, driver, folder)),
            ("midnight", lambda: check_midnight(binary, driver)),
            ("clock", lambda: check_clock(binary, driver)),
            ("hostile names", lambda: check_hostile(binary, driver, folder)),
            ("locales", lambda: check_locales(binary, driver, arguments.screenshots)),
            ("host", lambda: check_host(binary)),
            ("expect", lambda: check_expect(binary, driver, folder, arguments.screenshots)),
            ("expect hostile", lambda: check_expect_hostile(binary, driver, folder)),
            ("mapping", lambda: check_mapping(binary, driver, folder)),
            ("large file", lambda: check_large(binary, driver, folder)),
        ]
        try:
            for name, run in checks:
                if arguments.only and name != arguments.only:
                    continue
                driver.get_log("browser")
                try:
                    run()
                    passed += 1
                    print(f"ok: {name}")
                except Failure as failure:
                    failed += 1
                    print(f"FAILED: {name}: {failure}")
        finally:
            driver.quit()
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
