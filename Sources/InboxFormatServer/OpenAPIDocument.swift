// swift-format-ignore-file

/// The OpenAPI 3.1 document of the service, served at `GET /openapi.yaml`.
///
/// Generated from `docs/openapi.yaml` by `Scripts/embed-openapi.py`; a test
/// checks that the two are the same text.
enum OpenAPIDocument {
  static let yaml = #"""
openapi: 3.1.0
info:
  title: inbox-format service
  version: 0.1.0
  summary: An inbox payload in, the rows an inbox screen shows out.
  description: |
    `inbox-format serve`: the same rules and the same bytes as the
    `inbox-format` command. Every error is RFC 9457 problem details.
    Every answer carries `X-Request-Id`: the request's own when it is 1 to
    128 characters of `A-Z a-z 0-9 . _ -`, else one the server made; problem
    details give it as `requestId`, and the access log as `request_id`.
servers:
  - url: http://127.0.0.1:8080
paths:
  /v1/rows:
    post:
      operationId: formatRows
      summary: Format a payload into rows.
      description: |
        The body is a payload exactly as the command reads it: `{"items":[…]}`,
        a bare array of messages, or NDJSON. The answer is the command's output
        byte for byte: a JSON array (with `ETag`, `Cache-Control` and `Expires`),
        or NDJSON when `Accept` prefers it (streamed; the validator and the
        staleness come as trailers). Without `locale`, the locale is negotiated
        from `Accept-Language`, then the server's default.
      parameters:
        - name: locale
          in: query
          description: BCP 47 (`fr-FR`, `en-US-u-hc-h23`) or POSIX (`fr_FR.UTF-8`) locale with CLDR data.
          schema: {type: string, examples: [en-US]}
        - name: timeZone
          in: query
          description: IANA zone (`Europe/Paris`) or fixed offset (`GMT+05:30`).
          schema: {type: string, examples: [Europe/Paris]}
        - name: now
          in: query
          description: The instant labels are relative to, RFC 3339 or `@` and seconds since 1970; the answer then never changes.
          schema: {type: string, examples: ["2022-01-31T12:00:00Z"]}
        - name: hourCycle
          in: query
          description: Force a 12- or 24-hour clock.
          schema: {type: string, enum: ["12", "24"]}
        - name: previewLength
          in: query
          description: Cut previews to this many grapheme clusters, ending in `…`.
          schema: {type: integer, minimum: 1, maximum: 999999999}
        - name: fields
          in: query
          description: >-
            The keys of each row, in order, separated by commas, each at most once; `default` stands for
            `id,initials,title,message,date,isUnread`. The others are `dateValidUntil`, `unreadBadge`,
            `spokenDate`, `titleDirection`, `messageDirection` and `avatarColor`.
          schema: {type: string, examples: ["default,dateValidUntil,unreadBadge"]}
        - name: dateStyle
          in: query
          description: >-
            How `date` is worded: `standard` (`9:45 AM`, `Tuesday`, `1/3/22`), `compact` (`Tue`, `Jan 3`)
            or `relative` (`Now`, `5 min. ago`, whose labels and caching follow the minutes).
          schema: {type: string, enum: [standard, compact, relative]}
        - name: badgeLimit
          in: query
          description: The largest unread count `unreadBadge` shows as it is; above it, this number and `+`.
          schema: {type: integer, minimum: 1, maximum: 999999999}
        - name: skipInvalid
          in: query
          description: Leave out invalid messages, listed in `Inbox-Skipped`, instead of answering 400.
          schema: {type: boolean}
        - name: map
          in: query
          description: |
            How the body is read: a built-in mapping, or a mapping file the
            server was started with (`serve --mappings DIR`, listed by its
            name without `.json`). Default: the server's `--map`, else `post`.
            A path never comes from a request.
          schema: {type: string, enum: [post, stream-chat, sendbird, matrix, twilio, intercom, tdlib, slack]}
        - name: viewer
          in: query
          description: The viewer's user id, which `viewer()` returns in the mapping's queries (1 to 256 bytes).
          schema: {type: string, minLength: 1, maxLength: 64}
        - name: Accept-Language
          in: header
          description: Used for the locale when `locale` is absent (q-values, RFC 4647 lookup).
          schema: {type: string}
        - name: If-None-Match
          in: header
          description: An entity tag from an earlier answer; a match gets 304.
          schema: {type: string}
        - {$ref: "#/components/parameters/RequestID"}
        - {$ref: "#/components/parameters/TraceParent"}
      requestBody:
        required: true
        content:
          application/json:
            schema: {$ref: "#/components/schemas/Payload"}
          application/x-ndjson:
            schema: {type: string, description: "One message object per line."}
      responses:
        "200":
          description: The rows, in input order.
          headers:
            X-Request-Id: {$ref: "#/components/headers/RequestID"}
            Content-Language: {$ref: "#/components/headers/ContentLanguage"}
            Vary: {$ref: "#/components/headers/Vary"}
            ETag:
              description: A strong validator of the JSON answer (a trailer for NDJSON).
              schema: {type: string}
            Cache-Control:
              description: |
                `max-age` to the first instant a label goes stale (a year when none does);
                `public, max-age=31536000, immutable` with `now`; `no-cache` for NDJSON without `now`.
              schema: {type: string}
            Expires:
              description: The same instant as `max-age`, as an HTTP-date (JSON answers).
              schema: {type: string}
            Inbox-Skipped-Count: {$ref: "#/components/headers/InboxSkippedCount"}
            Inbox-Skipped: {$ref: "#/components/headers/InboxSkipped"}
          content:
            application/json:
              schema:
                type: array
                items: {$ref: "#/components/schemas/Row"}
            application/x-ndjson:
              schema: {type: string, description: "One row object per line."}
        "304":
          description: The answer would be the one `If-None-Match` names.
          headers:
            X-Request-Id: {$ref: "#/components/headers/RequestID"}
            ETag: {schema: {type: string}}
            Cache-Control: {schema: {type: string}}
        "400": {$ref: "#/components/responses/Problem"}
        "406": {$ref: "#/components/responses/Problem"}
        "408": {$ref: "#/components/responses/Problem"}
        "413": {$ref: "#/components/responses/Problem"}
        "415": {$ref: "#/components/responses/Problem"}
        "501": {$ref: "#/components/responses/Problem"}
        "503": {$ref: "#/components/responses/Problem"}
        default: {$ref: "#/components/responses/Problem"}
  /healthz:
    get:
      operationId: health
      summary: Whether the process answers.
      parameters:
        - {$ref: "#/components/parameters/RequestID"}
        - {$ref: "#/components/parameters/TraceParent"}
      responses:
        "200":
          description: It does.
          headers:
            X-Request-Id: {$ref: "#/components/headers/RequestID"}
          content:
            application/json:
              schema:
                type: object
                required: [status]
                properties:
                  status: {const: ok}
        default: {$ref: "#/components/responses/Problem"}
  /readyz:
    get:
      operationId: readiness
      summary: Whether the replica takes new work.
      description: |
        200 until the server is asked to stop (SIGTERM or SIGINT); from then on 503,
        while every request is still answered for `--drain-delay` seconds, after which
        the server stops accepting connections. `/healthz` is the liveness check.
      parameters:
        - {$ref: "#/components/parameters/RequestID"}
        - {$ref: "#/components/parameters/TraceParent"}
      responses:
        "200":
          description: It does.
          headers:
            X-Request-Id: {$ref: "#/components/headers/RequestID"}
          content:
            application/json:
              schema:
                type: object
                required: [status]
                properties:
                  status: {const: ready}
        "503": {$ref: "#/components/responses/Problem"}
        default: {$ref: "#/components/responses/Problem"}
  /openapi.yaml:
    get:
      operationId: openAPIDocument
      summary: This document.
      parameters:
        - {$ref: "#/components/parameters/RequestID"}
        - {$ref: "#/components/parameters/TraceParent"}
      responses:
        "200":
          description: The OpenAPI 3.1 document of the service.
          headers:
            X-Request-Id: {$ref: "#/components/headers/RequestID"}
          content:
            application/yaml:
              schema: {type: string}
        default: {$ref: "#/components/responses/Problem"}
  /metrics:
    get:
      operationId: metrics
      summary: The service's counts, for a Prometheus scrape.
      description: |
        The Prometheus text exposition format (0.0.4): requests by route, method and
        status, their durations by route, requests in flight and bytes of bodies held
        against their limits and the 503s of each, the formatter cache, log lines
        dropped, the build and the process. Only counts, sizes and times: nothing from
        a payload, a query string or a header, and no path but the service's own routes
        (any other is `unmatched`). On by default, on the same address as the API; a
        404 like any unknown path when the server runs with `--no-metrics`.
      parameters:
        - {$ref: "#/components/parameters/RequestID"}
        - {$ref: "#/components/parameters/TraceParent"}
      responses:
        "200":
          description: The exposition, as of the request.
          headers:
            X-Request-Id: {$ref: "#/components/headers/RequestID"}
            Cache-Control:
              description: Always `no-store`, so that no cache between answers a scrape.
              schema: {type: string, const: no-store}
          content:
            text/plain:
              schema: {type: string}
        default: {$ref: "#/components/responses/Problem"}
  /:
    get:
      operationId: previewPage
      tags: [preview]
      summary: The preview's page (`inbox-format preview` only).
      description: |
        The Messages screen of the previewed file, one screen per locale; its script
        asks `/events` for what to show. Answered only by `inbox-format preview`, to a
        `Host` naming the address it is bound to, exactly (403 otherwise, and for a
        request with no `Host` or two); `serve` answers 404. With a
        `Content-Security-Policy` that lets the page load its own script, style sheet,
        icon and events, and nothing else.
      responses:
        "200":
          description: The page.
          content:
            text/html:
              schema: {type: string}
        default: {$ref: "#/components/responses/Problem"}
  /preview.css:
    get:
      operationId: previewStyleSheet
      tags: [preview]
      summary: The page's style sheet (`inbox-format preview` only; `serve` answers 404).
      responses:
        "200":
          description: The style sheet.
          content:
            text/css:
              schema: {type: string}
        default: {$ref: "#/components/responses/Problem"}
  /preview.js:
    get:
      operationId: previewScript
      tags: [preview]
      summary: The page's script (`inbox-format preview` only; `serve` answers 404).
      responses:
        "200":
          description: The script.
          content:
            text/javascript:
              schema: {type: string}
        default: {$ref: "#/components/responses/Problem"}
  /favicon.svg:
    get:
      operationId: previewIcon
      tags: [preview]
      summary: The page's icon (`inbox-format preview` only; `serve` answers 404).
      responses:
        "200":
          description: The icon.
          content:
            image/svg+xml:
              schema: {type: string}
        default: {$ref: "#/components/responses/Problem"}
  /events:
    get:
      operationId: previewEvents
      tags: [preview]
      summary: The preview's screens as server-sent events (`inbox-format preview` only).
      description: |
        A `render` event with every screen's rows at once, again after each reading of
        the file, and again when the first label shown goes stale (never on a frozen
        clock). A parameter left out keeps what the command was started with. Answered
        only by `inbox-format preview`, under the page's `Host` rule; a request whose
        `Origin` is another site's gets 403. `serve` answers 404.
      parameters:
        - name: locale
          in: query
          description: One screen per locale, separated by commas (at most 8).
          schema: {type: string, examples: ["en-US,ar-EG"]}
        - name: timeZone
          in: query
          description: IANA zone or fixed offset, as `POST /v1/rows` takes it.
          schema: {type: string}
        - name: hourCycle
          in: query
          description: Force a 12- or 24-hour clock.
          schema: {type: string, enum: ["12", "24"]}
        - name: dateStyle
          in: query
          description: How `date` is worded, as `POST /v1/rows` takes it.
          schema: {type: string, enum: [standard, compact, relative]}
        - name: offset
          in: query
          description: Seconds the page moved the clock, forward or back.
          schema: {type: integer, minimum: -3155760000, maximum: 3155760000}
        - name: start
          in: query
          description: The first row of the window asked for.
          schema: {type: integer, minimum: 0, maximum: 2147483647}
        - name: count
          in: query
          description: How many rows the window holds.
          schema: {type: integer, minimum: 1, maximum: 500}
      responses:
        "200":
          description: The event stream, until the client goes or the server stops.
          content:
            text/event-stream:
              schema: {type: string}
        default: {$ref: "#/components/responses/Problem"}
components:
  parameters:
    RequestID:
      name: X-Request-Id
      in: header
      description: >-
        The client's id for the request, kept when it is 1 to 128 characters of `A-Z a-z 0-9 . _ -`;
        otherwise (or without one) the server makes one.
      schema: {type: string}
    TraceParent:
      name: traceparent
      in: header
      description: W3C Trace Context; a valid one has its trace id logged as `trace_id`. It changes nothing in the answer.
      schema: {type: string}
  headers:
    RequestID:
      description: The request's id, the client's own or one the server made, as the problem's `requestId` and the log's `request_id`.
      schema: {type: string, pattern: "^[A-Za-z0-9._-]{1,128}$"}
    ContentLanguage:
      description: The locale used, as a BCP 47 tag.
      schema: {type: string}
    Vary:
      description: Always `Accept, Accept-Language`.
      schema: {type: string}
    InboxSkippedCount:
      description: With `skipInvalid=true`, how many messages were left out (absent when none).
      schema: {type: integer, minimum: 1}
    InboxSkipped:
      description: |
        With `skipInvalid=true`, the messages left out, each as the command words it:
        an RFC 8941 list of strings (the first 50, at most 8 KiB).
      schema: {type: string}
  responses:
    Problem:
      description: RFC 9457 problem details.
      headers:
        X-Request-Id: {$ref: "#/components/headers/RequestID"}
      content:
        application/problem+json:
          schema: {$ref: "#/components/schemas/Problem"}
  schemas:
    Payload:
      oneOf:
        - type: object
          required: [items]
          properties:
            items:
              type: array
              items: {$ref: "#/components/schemas/Message"}
        - type: array
          items: {$ref: "#/components/schemas/Message"}
    Message:
      type: object
      required: [id, update_date]
      properties:
        id:
          oneOf:
            - {type: integer, minimum: -9223372036854775808, maximum: 9223372036854775807}
            - {type: string}
        update_date: {type: string, format: date-time}
        firstname: {type: [string, "null"]}
        lastname: {type: [string, "null"]}
        message: {type: [string, "null"]}
        phone_number:
          type: [object, "null"]
          properties:
            international: {type: [string, "null"]}
        unread_count: {type: [integer, "null"]}
    Row:
      type: object
      description: The keys `fields` names, in its order; without it `id, initials, title, message, date, isUnread`.
      additionalProperties: false
      properties:
        id: {type: [integer, string]}
        initials: {type: string}
        title: {type: string}
        message: {type: string}
        date: {type: string}
        isUnread: {type: boolean}
        dateValidUntil:
          type: [string, "null"]
          description: The first instant `date` stops being true, RFC 3339 in UTC (`2022-01-31T23:00:00Z`); null when it never does.
        unreadBadge: {type: string, description: "The unread count in the locale's digits, `99+` above `badgeLimit`; empty when none."}
        spokenDate: {type: string, description: "What a screen reader should say for `date`."}
        titleDirection: {type: string, enum: [ltr, rtl, neutral]}
        messageDirection: {type: string, enum: [ltr, rtl, neutral]}
        avatarColor: {type: integer, minimum: 0, maximum: 7}
    Problem:
      type: object
      required: [type, title, status, detail]
      properties:
        type: {type: string}
        title: {type: string}
        status: {type: integer}
        detail: {type: string, description: "One line; for a payload, the command's own message."}
        line: {type: integer, minimum: 1}
        column: {type: integer, minimum: 1}
        path: {type: string, description: "The JSON path of the problem, e.g. items[3].update_date."}
        id: {type: [integer, string], description: "The message's id, when it has a usable one."}
        parameter: {type: string, description: "The query parameter that is wrong."}
        mapping: {type: string, description: "The built-in mapping the body looks like, when the one in use does not read it."}
        requestId: {type: string, pattern: "^[A-Za-z0-9._-]{1,128}$", description: "The request's id, as its answer's `X-Request-Id`."}

"""#
}
