#!/usr/bin/env node
// Writes Data/crosscheck/labels.ndjson: date labels and their expiry instants
// computed with Node's Intl (V8 + its own ICU/CLDR/tzdata), an implementation
// independent of the Foundation ICU the library uses. CrossCheckTests compares.
//
//   node Scripts/generate-crosscheck.js > Data/crosscheck/labels.ndjson
//
// One line per scenario (a locale, a zone, a frozen now, an optional hour
// cycle), each with its messages:
//   {"locale","timeZone","now","nowLocal","hourCycle","why","labels":[[instant, days, label, validUntil], ...]}
// Instants are seconds since 1970; validUntil is null for labels that never change.
//
// With --styles it writes Data/crosscheck/styles.ndjson instead: the
// compact and relative date styles, the spoken date and the unread badge
// (see stylesMain below):
//   node Scripts/generate-crosscheck.js --styles > Data/crosscheck/styles.ndjson
//
// Nothing here reuses the library's arithmetic: local dates come from
// Intl.DateTimeFormat#formatToParts, and the first instant of a local day is
// found by walking whole minutes (every post-1972 offset and transition is a
// whole number of minutes, so no boundary falls between two steps).
'use strict';

// Which label a day gets (the time, the word for yesterday, the weekday, a
// date) is the library's rule, DateBucket in Sources/InboxFormat/Rules/DateLabel.swift,
// read from there, so that the expected labels follow the rule when it
// changes; what is checked here is the words and the instants.
const BUCKET = (() => {
  const rule = require('fs').readFileSync(require('path').join(__dirname, '../Sources/InboxFormat/Rules/DateLabel.swift'), 'utf8');
  const range = rule.match(/static let weekdayDays: ClosedRange<Int64> = (\d+)\.\.\.(\d+)/);
  if (!range) throw new Error('DateBucket.weekdayDays not found in Rules/DateLabel.swift');
  return { firstWeekday: Number(range[1]), lastWeekday: Number(range[2]) };
})();

/** The rule's bucket of a message `days` local days before today. */
function bucketOf(days) {
  if (days === 0) return 'time';
  if (days === 1) return 'yesterday';
  if (days >= BUCKET.firstWeekday && days <= BUCKET.lastWeekday) return 'weekday';
  return days > BUCKET.lastWeekday ? 'date' : 'later';
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

// ---------------------------------------------------------------------------
// Locales: every continent's main languages, right-to-left ones, locales whose
// default calendar is not Gregorian, and explicit -u-ca- calendars.
const LOCALES = [
  // Europe
  'en-GB', 'fr-FR', 'de-DE', 'es-ES', 'it-IT', 'pt-PT', 'nl-NL', 'sv-SE', 'nb-NO', 'da-DK', 'fi-FI',
  'is-IS', 'pl-PL', 'cs-CZ', 'sk-SK', 'hu-HU', 'ro-RO', 'bg-BG', 'el-GR', 'ru-RU', 'uk-UA', 'sr-RS',
  'sr-Latn-RS', 'hr-HR', 'sl-SI', 'lt-LT', 'lv-LV', 'et-EE', 'ga-IE', 'cy-GB', 'ca-ES', 'eu-ES',
  'gl-ES', 'sq-AL', 'mk-MK', 'be-BY', 'de-CH', 'fr-CH',
  // Caucasus and Central Asia
  'ka-GE', 'hy-AM', 'az-AZ', 'tr-TR', 'kk-KZ', 'uz-UZ', 'mn-MN',
  // Americas
  'en-US', 'en-CA', 'fr-CA', 'es-MX', 'es-AR', 'es-CO', 'es-US', 'pt-BR',
  // South, East and South-East Asia
  'ja-JP', 'zh-CN', 'zh-TW', 'zh-HK', 'ko-KR', 'hi-IN', 'bn-BD', 'ta-IN', 'te-IN', 'mr-IN', 'gu-IN',
  'kn-IN', 'ml-IN', 'pa-IN', 'ne-NP', 'si-LK', 'th-TH', 'vi-VN', 'id-ID', 'ms-MY', 'fil-PH', 'km-KH',
  'lo-LA', 'my-MM',
  // Right to left: Arabic, Hebrew, Persian, Urdu, Pashto
  'ar-EG', 'ar-SA', 'ar-AE', 'ar-MA', 'he-IL', 'fa-IR', 'fa-AF', 'ur-PK', 'ps-AF',
  // Africa
  'sw-KE', 'am-ET', 'ha-NG', 'yo-NG', 'ig-NG', 'zu-ZA', 'af-ZA', 'so-SO', 'fr-SN',
  // Oceania
  'en-AU', 'en-NZ',
  // Other calendars, named explicitly
  'ja-JP-u-ca-japanese', 'zh-TW-u-ca-roc', 'he-IL-u-ca-hebrew', 'ar-SA-u-ca-islamic-umalqura',
  'ar-SA-u-ca-gregory', 'hi-IN-u-ca-indian', 'am-ET-u-ca-ethiopic', 'fa-IR-u-ca-gregory',
  'th-TH-u-ca-gregory', 'zh-CN-u-ca-chinese',
];

// The home zone of each locale's region, for one scenario per locale at home.
const HOME = {
  GB: 'Europe/London', FR: 'Europe/Paris', DE: 'Europe/Berlin', ES: 'Europe/Madrid', IT: 'Europe/Rome',
  PT: 'Europe/Lisbon', NL: 'Europe/Amsterdam', SE: 'Europe/Stockholm', NO: 'Europe/Oslo',
  DK: 'Europe/Copenhagen', FI: 'Europe/Helsinki', IS: 'Atlantic/Reykjavik', PL: 'Europe/Warsaw',
  CZ: 'Europe/Prague', SK: 'Europe/Bratislava', HU: 'Europe/Budapest', RO: 'Europe/Bucharest',
  BG: 'Europe/Sofia', GR: 'Europe/Athens', RU: 'Europe/Moscow', UA: 'Europe/Kyiv', RS: 'Europe/Belgrade',
  HR: 'Europe/Zagreb', SI: 'Europe/Ljubljana', LT: 'Europe/Vilnius', LV: 'Europe/Riga',
  EE: 'Europe/Tallinn', IE: 'Europe/Dublin', AL: 'Europe/Tirane', MK: 'Europe/Skopje', BY: 'Europe/Minsk',
  CH: 'Europe/Zurich', GE: 'Asia/Tbilisi', AM: 'Asia/Yerevan', AZ: 'Asia/Baku', TR: 'Europe/Istanbul',
  KZ: 'Asia/Almaty', UZ: 'Asia/Tashkent', MN: 'Asia/Ulaanbaatar', US: 'America/New_York',
  CA: 'America/Toronto', MX: 'America/Mexico_City', AR: 'America/Argentina/Buenos_Aires',
  CO: 'America/Bogota', BR: 'America/Sao_Paulo', JP: 'Asia/Tokyo', CN: 'Asia/Shanghai',
  TW: 'Asia/Taipei', HK: 'Asia/Hong_Kong', KR: 'Asia/Seoul', IN: 'Asia/Kolkata', BD: 'Asia/Dhaka',
  NP: 'Asia/Kathmandu', LK: 'Asia/Colombo', TH: 'Asia/Bangkok', VN: 'Asia/Ho_Chi_Minh',
  ID: 'Asia/Jakarta', MY: 'Asia/Kuala_Lumpur', PH: 'Asia/Manila', KH: 'Asia/Phnom_Penh',
  LA: 'Asia/Vientiane', MM: 'Asia/Yangon', EG: 'Africa/Cairo', SA: 'Asia/Riyadh', AE: 'Asia/Dubai',
  MA: 'Africa/Casablanca', IL: 'Asia/Jerusalem', IR: 'Asia/Tehran', AF: 'Asia/Kabul', PK: 'Asia/Karachi',
  KE: 'Africa/Nairobi', ET: 'Africa/Addis_Ababa', NG: 'Africa/Lagos', ZA: 'Africa/Johannesburg',
  SO: 'Africa/Mogadishu', SN: 'Africa/Dakar', AU: 'Australia/Sydney', NZ: 'Pacific/Auckland',
};

// ---------------------------------------------------------------------------
// Zones, each with the years whose offset transitions make scenarios, and
// why it is here. Every zone also gets New Year, a leap day and a late evening.
const ZONES = [
  ['UTC', [], 'no offset at all'],
  ['Europe/London', [2024], 'DST at 01:00 UTC'],
  ['Europe/Paris', [2022], 'the README examples: 23- and 25-hour days'],
  ['Europe/Dublin', [2024], 'negative DST in tzdata (IST is standard time)'],
  ['Europe/Moscow', [2014], 'a permanent change of offset (2014)'],
  ['Europe/Istanbul', [2016], 'a permanent change of offset (2016)'],
  ['Europe/Kyiv', [2024], 'renamed zone (Europe/Kiev)'],
  ['Africa/Cairo', [2024], 'DST from 00:00 and back at 24:00 (since 2023)'],
  ['Africa/Casablanca', [2024], 'DST suspended during Ramadan'],
  ['Africa/Lagos', [], 'no DST'],
  ['Africa/Nairobi', [], 'no DST'],
  ['Africa/Johannesburg', [], 'no DST'],
  ['Asia/Tehran', [2022], '+03:30, DST from 00:00 and back at 24:00 until 2022'],
  ['Asia/Kabul', [], '+04:30'],
  ['Asia/Kolkata', [], '+05:30'],
  ['Asia/Kathmandu', [], '+05:45'],
  ['Asia/Yangon', [], '+06:30'],
  ['Asia/Bangkok', [], 'no DST'],
  ['Asia/Shanghai', [], 'no DST'],
  ['Asia/Tokyo', [], 'no DST'],
  ['Asia/Seoul', [], 'no DST'],
  ['Asia/Pyongyang', [2018], 'a 30-minute jump at 23:30 (2018)'],
  ['Asia/Gaza', [2019, 2024], 'DST from 00:00 and back to the previous day (2019)'],
  ['Asia/Beirut', [2024], 'DST from 00:00 and back at 00:00 to the previous day'],
  ['Asia/Jerusalem', [2024], 'DST on Fridays'],
  ['Asia/Amman', [2022], 'DST from 00:00 (2022), then permanent +03'],
  ['Asia/Riyadh', [], 'no DST'],
  ['Asia/Dhaka', [], 'no DST'],
  ['Asia/Karachi', [], 'no DST'],
  ['Australia/Adelaide', [2024], '+09:30 with DST'],
  ['Australia/Eucla', [], '+08:45'],
  ['Australia/Lord_Howe', [2024], 'a 30-minute DST'],
  ['Pacific/Chatham', [2024], '+12:45 and +13:45'],
  ['Pacific/Auckland', [2024], 'DST in the southern hemisphere'],
  ['Pacific/Apia', [2011], '30 December 2011 skipped'],
  ['Pacific/Fakaofo', [2011], '30 December 2011 skipped'],
  ['Pacific/Kwajalein', [1993], 'a day skipped in August 1993'],
  ['Pacific/Kiritimati', [], '+14:00'],
  ['Pacific/Marquesas', [], '-09:30'],
  ['America/St_Johns', [2024], '-03:30 with DST'],
  ['America/Havana', [2024], 'DST from 00:00 (midnight does not exist)'],
  ['America/Sao_Paulo', [2018], '4 November 2018 began at 01:00'],
  ['America/Santiago', [2024], 'DST ends at 24:00, back to 23:00 of the same day'],
  ['America/Asuncion', [2024], 'DST from 00:00, then permanent -03 (Oct 2024)'],
  ['America/New_York', [2024], 'DST at 02:00'],
  ['America/Los_Angeles', [2024], 'DST at 02:00'],
  ['America/Mexico_City', [2022], 'DST abolished after 2022'],
  ['America/Caracas', [2016], '-04:30 until 2016'],
  ['America/Scoresbysund', [2024], 'a change of standard offset (2024)'],
  ['Antarctica/Troll', [2024], 'a two-hour DST'],
];

// Locales the hour-cycle scenarios run in, with the regions' CLDR 48 timeData
// (supplementalData.xml <timeData>): `allowed` is what a forced 12-hour clock
// uses (see twelveHourDayPeriod), `preferred` is checked against Node.
const TIME_DATA = {
  'en-US': { preferred: 'h', allowed: 'h hb H hB' },
  'en-GB': { preferred: 'H', allowed: 'H h hb hB' },
  'fr-FR': { preferred: 'H', allowed: 'H hB' },
  'de-DE': { preferred: 'H', allowed: 'H hB' },
  'es-ES': { preferred: 'H', allowed: 'H h hB hb' },   // es_ES
  'ja-JP': { preferred: 'H', allowed: 'H K h' },
  'zh-CN': { preferred: 'H', allowed: 'H hB hb h' },
  'zh-TW': { preferred: 'h', allowed: 'hB hb h H' },
  'ko-KR': { preferred: 'h', allowed: 'h H hB hb' },
  'hi-IN': { preferred: 'h', allowed: 'hB h H' },      // hi_IN
  'ar-EG': { preferred: 'h', allowed: 'h hB hb H' },
  'pt-BR': { preferred: 'H', allowed: 'H hB' },
  'ru-RU': { preferred: 'H', allowed: 'H' },
  'tr-TR': { preferred: 'H', allowed: 'H hB' },
  'fa-IR': { preferred: 'H', allowed: 'hB H' },
  'th-TH': { preferred: 'H', allowed: 'H h' },
};

// ---------------------------------------------------------------------------
// Local dates, independently of the library.

const dayFormatters = new Map();
/** The local date of `ms` in `zone` as a day number from 1970-01-01. */
function localDay(zone, ms) {
  let f = dayFormatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US-u-ca-gregory-nu-latn', {
      timeZone: zone, year: 'numeric', month: 'numeric', day: 'numeric', era: 'short',
    });
    dayFormatters.set(zone, f);
  }
  const p = Object.fromEntries(f.formatToParts(ms).map(x => [x.type, x.value]));
  const year = p.era === 'BC' || p.era === 'B' ? 1 - Number(p.year) : Number(p.year);
  const utc = new Date(0);
  utc.setUTCFullYear(year, Number(p.month) - 1, Number(p.day));
  return Math.round(utc.getTime() / DAY);
}

const wallFormatters = new Map();
/** The UTC offset of `zone` at `ms`, in minutes. */
function offsetMinutes(zone, ms) {
  let f = wallFormatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US-u-ca-gregory-nu-latn', {
      timeZone: zone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric',
      hour: 'numeric', minute: 'numeric', second: 'numeric',
    });
    wallFormatters.set(zone, f);
  }
  const p = Object.fromEntries(f.formatToParts(ms).map(x => [x.type, x.value]));
  const wall = Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute), Number(p.second));
  return Math.round((wall - Math.floor(ms / 1000) * 1000) / MINUTE);
}

/** `ms` as local RFC 3339 in `zone`, for people reading the data. */
function localText(zone, ms) {
  const offset = offsetMinutes(zone, ms);
  const wall = new Date(Math.floor(ms / 1000) * 1000 + offset * MINUTE).toISOString().slice(0, 19);
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  return `${wall}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/**
 * The first instant at or after `fromMs` whose local day is `day` or later,
 * by whole-minute steps from a bound no zone can beat (UTC+14, plus margin).
 */
function firstInstantOfDay(zone, day, fromMs = -Infinity) {
  let t = Math.max(fromMs, day * DAY - 27 * HOUR);
  if (localDay(zone, t) >= day) return t;
  t = Math.ceil(t / MINUTE) * MINUTE;
  while (localDay(zone, t) < day) t += MINUTE;
  return t;
}

/** Offset transitions of `zone` during `year`, as the first instant of each new offset. */
function transitions(zone, year) {
  const out = [];
  let t = Date.UTC(year, 0, 1) - DAY;
  const end = Date.UTC(year + 1, 0, 1);
  let previous = offsetMinutes(zone, t);
  for (t += HOUR; t <= end; t += HOUR) {
    const current = offsetMinutes(zone, t);
    if (current !== previous) {
      let low = t - HOUR;
      let high = t;  // offset(low) = previous, offset(high) = current
      while (high - low > MINUTE) {
        const middle = low + Math.floor((high - low) / 2 / MINUTE) * MINUTE;
        if (offsetMinutes(zone, middle) === previous) low = middle; else high = middle;
      }
      out.push(high);
      previous = current;
    }
  }
  return out;
}

// ---------------------------------------------------------------------------
// Expected labels, from Node's Intl.

const cache = new Map();
function memo(key, make) {
  if (!cache.has(key)) cache.set(key, make());
  return cache.get(key);
}

/**
 * Beginning-of-sentence capitalization as ICU applies it (CLDR's context
 * "beginning of sentence" always capitalizes): a lowercase first letter is
 * title-cased with the locale's rules; anything else is left alone.
 */
function capitalized(text, locale) {
  const first = String.fromCodePoint(text.codePointAt(0));
  if (!/^\p{Ll}$/u.test(first)) return text;
  // Georgian Mkhedruli letters upper-case to Mtavruli but title-case to themselves.
  if (/^[\u10D0-\u10FA\u10FD-\u10FF]$/u.test(first)) return text;
  const special = { 'ǆ': 'ǅ', 'ǉ': 'ǈ', 'ǌ': 'ǋ', 'ǳ': 'ǲ' }[first];
  // Greek upper-casing drops accents; title-casing keeps them.
  const language = new Intl.Locale(locale).language;
  let upper = special ?? (language === 'el' ? first.toUpperCase() : first.toLocaleUpperCase(locale));
  if ([...upper].length !== 1) upper = first;
  return upper + text.slice(first.length);
}

/**
 * The day period a forced 12-hour clock uses per CLDR (UTS #35, timeData): the
 * first allowed 12-hour format with the right hour symbol gives it; `B` is a
 * flexible day period ("du matin"), a plain `h` the AM/PM marker.
 */
function twelveHourDayPeriod(locale, hourCycle) {
  const base = new Intl.Locale(locale);
  const key = `${base.language}-${base.region}`;
  const data = TIME_DATA[key];
  if (!data) throw new Error(`no timeData for ${key}: add it to TIME_DATA`);
  const allowed = data.allowed.split(' ');
  const symbol = hourCycle === 'h11' ? 'K' : 'h';
  const entry = allowed.find(a => a[0] === symbol) ?? allowed.find(a => a[0] === 'h');
  return entry && entry.endsWith('B') ? 'short' : undefined;
}

function timeLabel(locale, zone, hourCycle, ms) {
  const f = memo(`time|${locale}|${zone}|${hourCycle}`, () => {
    if (!hourCycle) return new Intl.DateTimeFormat(locale, { timeStyle: 'short', timeZone: zone });
    if (hourCycle === 'h23' || hourCycle === 'h24') {
      return new Intl.DateTimeFormat(locale, { timeStyle: 'short', hourCycle, timeZone: zone });
    }
    const dayPeriod = twelveHourDayPeriod(locale, hourCycle);
    return new Intl.DateTimeFormat(locale, { hour: 'numeric', minute: '2-digit', hourCycle, dayPeriod, timeZone: zone });
  });
  return f.format(ms);
}

function yesterdayLabel(locale) {
  return memo(`yesterday|${locale}`, () =>
    capitalized(new Intl.RelativeTimeFormat(locale, { numeric: 'auto' }).format(-1, 'day'), locale));
}

function weekdayLabel(locale, zone, ms) {
  const f = memo(`weekday|${locale}|${zone}`, () => new Intl.DateTimeFormat(locale, { weekday: 'long', timeZone: zone }));
  return capitalized(f.format(ms), locale);
}

function dateLabel(locale, zone, ms) {
  const f = memo(`date|${locale}|${zone}`, () => new Intl.DateTimeFormat(locale, { dateStyle: 'short', timeZone: zone }));
  return f.format(ms);
}

/** The hour cycle in force: the option overrides the locale's -u-hc-. */
function effectiveHourCycle(locale, option) {
  if (option === '12') return 'h12';
  if (option === '24') return 'h23';
  return new Intl.Locale(locale).hourCycle;  // from -u-hc-, or undefined
}

// ---------------------------------------------------------------------------
// Scenarios.

/** Messages around `now`: both ends of today, yesterday and a week ago, each of the days between, and the future. */
function messageInstants(zone, nowMs) {
  const today = localDay(zone, nowMs);
  const start = day => firstInstantOfDay(zone, day);
  const end = day => firstInstantOfDay(zone, day + 1) - 1000;
  const middle = day => start(day) + Math.floor((end(day) - start(day)) / 2000) * 1000;
  const instants = [
    start(today), nowMs, end(today),
    start(today - 1), end(today - 1),
    start(today - 2), middle(today - 3), end(today - 4), start(today - 5), end(today - 6),
    end(today - 7), middle(today - 200),
    start(today + 1), middle(today + 40),
  ];
  return [...new Set(instants)].sort((a, b) => a - b);
}

/** Instants across one day, for the hour-cycle scenarios: midnight, night, morning, noon, evening. */
function timesOfDay(zone, nowMs) {
  const begin = firstInstantOfDay(zone, localDay(zone, nowMs));
  return [0, 15, 6 * 60 + 5, 11 * 60 + 59, 12 * 60, 12 * 60 + 30, 18 * 60 + 45, 23 * 60 + 59]
    .map(minutes => begin + minutes * MINUTE).filter(t => t <= nowMs);
}

function scenario(locale, zone, nowMs, why, hourCycle, instants) {
  const today = localDay(zone, nowMs);
  const tomorrow = firstInstantOfDay(zone, today + 1, nowMs);
  const hc = effectiveHourCycle(locale, hourCycle);
  const labels = instants.map(ms => {
    const messageDay = localDay(zone, ms);
    const days = today - messageDay;
    let label;
    let validUntil = tomorrow;
    const bucket = bucketOf(days);
    if (bucket === 'time') label = timeLabel(locale, zone, hc, ms);
    else if (bucket === 'yesterday') label = yesterdayLabel(locale);
    else if (bucket === 'weekday') label = weekdayLabel(locale, zone, ms);
    else {
      label = dateLabel(locale, zone, ms);
      validUntil = bucket === 'later' ? firstInstantOfDay(zone, messageDay, nowMs) : null;
    }
    return [ms / 1000, days, label, validUntil === null ? null : validUntil / 1000];
  });
  return {
    locale, timeZone: zone, now: nowMs / 1000, nowLocal: localText(zone, nowMs),
    hourCycle: hourCycle ?? null, why, labels,
  };
}

/** The instant `minutes` after the first instant of the local date y-m-d. */
function localInstant(zone, year, month, day, minutes = 0) {
  return firstInstantOfDay(zone, Math.round(Date.UTC(year, month - 1, day) / DAY)) + minutes * MINUTE;
}

function moments(zone, years, why) {
  const out = [];
  for (const year of years) {
    for (const t of transitions(zone, year)) {
      const day = localDay(zone, t);
      out.push([t, `the first instant after a transition (${why})`]);
      out.push([firstInstantOfDay(zone, day + 1) + 30_000, `the day after a transition day (${why})`]);
    }
  }
  out.push([localInstant(zone, 2025, 1, 1, 1), 'one minute into New Year 2025']);
  out.push([localInstant(zone, 2024, 3, 1, 0) + 30_000, 'just after the leap day 2024-02-29']);
  out.push([localInstant(zone, 2023, 3, 1, 12 * 60), 'noon after a 28 February']);
  out.push([localInstant(zone, 2024, 6, 16, 0) - 1000, 'the last second of 2024-06-15']);
  return out;
}

function main() {
  const scenarios = [];
  let next = 0;
  const nextLocale = () => LOCALES[(next++ * 37) % LOCALES.length];

  // Every zone's moments, each in one locale, taking the locales in turn.
  for (const [zone, years, why] of ZONES) {
    for (const [nowMs, moment] of moments(zone, years, why)) {
      scenarios.push(scenario(nextLocale(), zone, nowMs, moment, null, messageInstants(zone, nowMs)));
    }
  }

  // Every locale at home, mid-afternoon on an ordinary day.
  for (const locale of LOCALES) {
    const zone = HOME[new Intl.Locale(locale).maximize().region];
    if (!zone) throw new Error(`no home zone for ${locale}`);
    const nowMs = localInstant(zone, 2022, 1, 31, 15 * 60 + 7);
    scenarios.push(scenario(locale, zone, nowMs, 'at home on an ordinary day', null, messageInstants(zone, nowMs)));
  }

  // Hour cycles: forced by the option, and by -u-hc- in the locale.
  for (const base of Object.keys(TIME_DATA)) {
    const data = TIME_DATA[base];
    const nodePreferred = new Intl.Locale(base).hourCycles[0];
    if ({ h: 'h12', H: 'h23' }[data.preferred] !== nodePreferred) {
      throw new Error(`TIME_DATA[${base}] says ${data.preferred}, Node's CLDR prefers ${nodePreferred}`);
    }
    const zone = HOME[new Intl.Locale(base).maximize().region];
    const nowMs = localInstant(zone, 2024, 5, 14, 23 * 60 + 59) + 30_000;
    const variants = [
      [base, '12'], [base, '24'],
      [`${base}-u-hc-h12`, null], [`${base}-u-hc-h23`, null], [`${base}-u-hc-h11`, null], [`${base}-u-hc-h24`, null],
      [`${base}-u-hc-h23`, '12'],
    ];
    for (const [locale, option] of variants) {
      scenarios.push(scenario(locale, zone, nowMs, 'hour cycle', option, timesOfDay(zone, nowMs)));
    }
  }

  for (const s of scenarios) process.stdout.write(JSON.stringify(s) + '\n');
  const count = scenarios.reduce((n, s) => n + s.labels.length, 0);
  process.stderr.write(
    `${scenarios.length} scenarios, ${count} labels, ${LOCALES.length} locales, ${ZONES.length} zones; ` +
    `node ${process.versions.node}, ICU ${process.versions.icu}, CLDR ${process.versions.cldr}, tzdata ${process.versions.tz}\n`);
}

// ---------------------------------------------------------------------------
// The other date styles, the spoken date and the badge.
//
// One line per scenario: {"locale","timeZone","now","nowLocal","why",
//   "rows":[[instant, days, compact, compactValidUntil, relative, relativeValidUntil, spoken, spokenValidUntil], ...],
//   "badges":[[count, limit, badge], ...]}

function abbreviatedWeekdayLabel(locale, zone, ms) {
  const f = memo(`weekday-short|${locale}|${zone}`, () => new Intl.DateTimeFormat(locale, { weekday: 'short', timeZone: zone }));
  return capitalized(f.format(ms), locale);
}

function monthDayLabel(locale, zone, ms) {
  const f = memo(`month-day|${locale}|${zone}`, () =>
    new Intl.DateTimeFormat(locale, { month: 'short', day: 'numeric', timeZone: zone }));
  return f.format(ms);
}

function longDateLabel(locale, zone, ms) {
  const f = memo(`long|${locale}|${zone}`, () => new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: zone }));
  return f.format(ms);
}

function nowLabel(locale) {
  return memo(`now|${locale}`, () =>
    capitalized(new Intl.RelativeTimeFormat(locale, { numeric: 'auto' }).format(0, 'second'), locale));
}

function minutesAgoLabel(locale, minutes) {
  const f = memo(`minutes|${locale}`, () => new Intl.RelativeTimeFormat(locale, { style: 'short' }));
  return f.format(-minutes, 'minute');
}

/** The year (and era) of the local date of `ms` in the locale's calendar, as text. */
function yearOf(locale, zone, ms) {
  const f = memo(`year|${locale}|${zone}`, () =>
    new Intl.DateTimeFormat(locale, { year: 'numeric', era: 'long', numberingSystem: 'latn', timeZone: zone }));
  return f.format(ms);
}

/**
 * The first local day after `today` in another year of the locale's
 * calendar. A local day number names the same date as that day's noon in
 * UTC, so the dates are read there.
 */
function nextYearDay(locale, today) {
  return memo(`next-year|${locale}|${today}`, () => {
    const year = yearOf(locale, 'UTC', today * DAY + 12 * HOUR);
    let day = today + 1;
    while (yearOf(locale, 'UTC', day * DAY + 12 * HOUR) === year) day += 1;
    return day;
  });
}

function styledRow(locale, zone, nowMs, ms) {
  const today = localDay(zone, nowMs);
  const tomorrow = firstInstantOfDay(zone, today + 1, nowMs);
  const messageDay = localDay(zone, ms);
  const days = today - messageDay;
  const seconds = Math.floor(ms / 1000);
  const nowSeconds = Math.floor(nowMs / 1000);
  const bucket = bucketOf(days);
  const later = bucket === 'later' ? firstInstantOfDay(zone, messageDay, nowMs) : null;
  // The standard words, which every style shares.
  const standard = () => {
    if (bucket === 'time') return [timeLabel(locale, zone, undefined, ms), tomorrow];
    if (bucket === 'yesterday') return [yesterdayLabel(locale), tomorrow];
    if (bucket === 'weekday') return [weekdayLabel(locale, zone, ms), tomorrow];
    return [dateLabel(locale, zone, ms), later];
  };
  let compact;
  if (bucket === 'weekday') compact = [abbreviatedWeekdayLabel(locale, zone, ms), tomorrow];
  else if (bucket === 'date' && yearOf(locale, zone, ms) === yearOf(locale, zone, nowMs)) {
    compact = [monthDayLabel(locale, zone, ms), firstInstantOfDay(zone, nextYearDay(locale, today), nowMs)];
  } else compact = standard();
  // Minute arithmetic on whole seconds.
  const ago = nowSeconds - seconds;
  let relative;
  if (ago >= -60 && ago < 60) relative = [nowLabel(locale), (seconds + 60) * 1000];
  else if (ago >= 60 && ago < 3600) {
    const minutes = Math.floor(ago / 60);
    relative = [minutesAgoLabel(locale, minutes), (seconds + 60 * (minutes + 1)) * 1000];
  } else {
    relative = standard();
    if (ago < -60) relative[1] = relative[1] === null ? (seconds - 60) * 1000 : Math.min(relative[1], (seconds - 60) * 1000);
  }
  const spoken = bucket === 'date' || bucket === 'later' ? [longDateLabel(locale, zone, ms), later] : standard();
  const s = value => (value === null ? null : value / 1000);
  return [ms / 1000, days, compact[0], s(compact[1]), relative[0], s(relative[1]), spoken[0], s(spoken[1])];
}

/** Messages for the styles: the standard set, and the minutes around now. */
function styledInstants(zone, nowMs) {
  const near = [-3 * HOUR, -HOUR - 1000, -HOUR, -HOUR + 1000, -59 * MINUTE - 30_000, -10 * MINUTE - 1000, -61_000,
    -60_000, -59_000, -1000, 0, 30_000, 60_000, 61_000, 90 * MINUTE]
    .map(d => Math.floor((nowMs + d) / 1000) * 1000);
  return [...new Set([...messageInstants(zone, nowMs), ...near])].sort((a, b) => a - b);
}

function badges(locale) {
  const f = new Intl.NumberFormat(locale);
  const out = [];
  for (const [count, limit] of [[1, 99], [7, 99], [42, 99], [99, 99], [100, 99], [1234, 99], [1234, 9999], [98765, 9999], [5, 3]]) {
    out.push([count, limit, count > limit ? f.format(limit) + '+' : f.format(count)]);
  }
  return out;
}

function stylesMain() {
  // ar-SA alone is left out: its default calendar is Umm al-Qura in
  // Foundation's CLDR 46 and Gregorian in Node's CLDR 48 (DIFFERENCES.md,
  // cldr-ar-SA-default-calendar); both calendars are checked by name.
  const locales = LOCALES.filter(locale => locale !== 'ar-SA');
  const scenarios = [];
  let next = 0;
  const nextLocale = () => locales[(next++ * 37) % locales.length];
  const add = (locale, zone, nowMs, why) => {
    // Whole seconds: the rule's now is a whole second.
    nowMs = Math.floor(nowMs / 1000) * 1000;
    scenarios.push({
      locale, timeZone: zone, now: nowMs / 1000, nowLocal: localText(zone, nowMs), why,
      rows: styledInstants(zone, nowMs).map(ms => styledRow(locale, zone, nowMs, ms)), badges: badges(locale),
    });
  };
  // Each zone's first moment (an offset transition where it has one), the
  // locales in turn.
  for (const [zone, years, why] of ZONES) {
    const [nowMs, moment] = moments(zone, years, why)[0];
    add(nextLocale(), zone, nowMs, moment);
  }
  for (const locale of locales) {
    const zone = HOME[new Intl.Locale(locale).maximize().region];
    add(locale, zone, localInstant(zone, 2022, 1, 31, 15 * 60 + 7) + 12_000, 'at home on an ordinary day');
    // Just before the locale's calendar year ends: the compact month and day's expiry.
    const today = localDay(zone, localInstant(zone, 2022, 1, 31));
    const lastDay = nextYearDay(locale, today) - 1;
    add(locale, zone, firstInstantOfDay(zone, lastDay) + 23 * HOUR + 30 * MINUTE, 'the last half hour of its calendar year');
  }
  for (const s of scenarios) process.stdout.write(JSON.stringify(s) + '\n');
  const rows = scenarios.reduce((n, s) => n + s.rows.length, 0);
  const badgeCount = scenarios.reduce((n, s) => n + s.badges.length, 0);
  process.stderr.write(
    `${scenarios.length} scenarios, ${rows} rows (${rows * 3} labels), ${badgeCount} badges, ${locales.length} locales; ` +
    `node ${process.versions.node}, ICU ${process.versions.icu}, CLDR ${process.versions.cldr}, tzdata ${process.versions.tz}\n`);
}

if (process.argv.includes('--styles')) stylesMain(); else main();
