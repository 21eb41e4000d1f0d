import Foundation

@testable import InboxFormat

// Payloads in the shapes of real messaging backends, written from logical
// items, for tests of the mappings in Data/mappings/<shape>.json. What it
// writes is exactly what each mapping reads back, so a test can format
// `payload(items, viewer:)` with
// `Data/mappings/\(shape.rawValue).json` and compare the rows with `items`.
// Benchmarks/make-backend-corpus.py writes the same shapes for benchmarks;
// Data/mappings/SOURCES.md says where each field's name comes from.

/// One logical inbox item, written in each backend's shape by `BackendShape`.
///
/// - `id` reads back verbatim (a JSON number in `post` and `tdlib` when it is
///   an integer literal, as their ids are numbers: compare `description`).
/// - `name` is the other member's display name (empty: no name; the row shows
///   the phone where the shape carries one). Every fourth item (index 3, 7, …)
///   with a name is written as a named group instead of a 1:1 chat.
/// - `message` nil: the conversation has no last message (or no text in it).
///   Intercom carries it as HTML, so keep such texts free of runs of
///   whitespace and newlines, which HTML does not keep.
/// - `unixSeconds`: the last message's time (the conversation's, without one).
/// - `unread`: the viewer's unread count; Intercom keeps only whether it is 0.
struct SampleItem: Sendable, Hashable {
  var id: String
  var name: String
  var phone: String
  var message: String?
  var unixSeconds: Int64
  var unread: Int64

  init(
    id: String, name: String = "", phone: String = "", message: String? = nil,
    unixSeconds: Int64, unread: Int64 = 0
  ) {
    self.id = id
    self.name = name
    self.phone = phone
    self.message = message
    self.unixSeconds = unixSeconds
    self.unread = unread
  }
}

/// A messaging backend's inbox response shape, named as its mapping.
enum BackendShape: String, CaseIterable, Sendable {
  /// This project's own `{"items": [...]}`; the name goes to `firstname`.
  case post
  /// Stream Chat QueryChannels: `{"channels": [{channel, messages, read, members}]}`.
  case streamChat = "stream-chat"
  /// Sendbird `GET /v3/users/{user_id}/my_group_channels?show_member=true`.
  case sendbird
  /// Matrix simplified sliding sync (MSC4186): rooms keyed by room id.
  case matrix
  /// Twilio Conversations `GET /v1/Users/{UserSid}/Conversations`.
  case twilio
  /// Intercom `GET /conversations`.
  case intercom
  /// TDLib: an array of `chat` objects.
  case tdlib
  /// Slack `conversations.list` with each conversation's `latest` and unread counts.
  case slack

  /// The mapping that reads this shape, relative to the repository root.
  var mappingPath: String { "Data/mappings/\(rawValue).json" }

  /// The viewer id the golden payloads in Data/golden/inputs/backends use.
  var defaultViewer: String { self == .matrix ? "@me:example.org" : "me" }

  /// Whether this shape carries the last message's text (Twilio's list does not).
  var carriesPreview: Bool { self != .twilio }

  /// Whether this shape carries the other member's phone number.
  var carriesPhone: Bool { self == .post || self == .sendbird }

  /// Whether the unread state is a count (Intercom's is a `read` flag).
  var unreadIsCount: Bool { self != .intercom }

  /// Whether the display name is carried as `firstname` (with `lastname` ""),
  /// the only way this project's own shape can carry it.
  var carriesNameAsFirstname: Bool { self == .post }

  /// The payload of `items` in this shape, as JSON text, for viewer `viewer`.
  ///
  /// `viewer` must not be an id of the other members written here
  /// (`other<index>`, `@other<index>:example.org`).
  func payload(_ items: [SampleItem], viewer: String) -> String {
    let document: Any =
      switch self {
      case .post: post(items)
      case .streamChat: streamChat(items, viewer: viewer)
      case .sendbird: sendbird(items, viewer: viewer)
      case .matrix: matrix(items, viewer: viewer)
      case .twilio: twilio(items, viewer: viewer)
      case .intercom: intercom(items)
      case .tdlib: tdlib(items)
      case .slack: slack(items)
      }
    // Sorted keys keep the text deterministic; JSONSerialization escapes every
    // string properly (quotes, backslashes, controls) and keeps Unicode as is.
    let data = try! JSONSerialization.data(
      withJSONObject: document, options: [.sortedKeys, .withoutEscapingSlashes])
    return String(decoding: data, as: UTF8.self)
  }
}

// MARK: - Shapes

extension BackendShape {
  private func post(_ items: [SampleItem]) -> Any {
    let rows: [[String: Any]] = items.map { item in
      var row: [String: Any] = [
        "id": numberOrString(item.id),
        "firstname": item.name,
        "lastname": "",
        "phone_number": ["international": item.phone],
        "update_date": shapeRFC3339(item.unixSeconds),
        "unread_count": item.unread,
      ]
      if let message = item.message { row["message"] = message }
      return row
    }
    return ["items": rows]
  }

  private func streamChat(_ items: [SampleItem], viewer: String) -> Any {
    func user(_ id: String, _ name: String) -> [String: Any] {
      var user: [String: Any] = [
        "id": id, "role": "user", "banned": false, "online": false,
        "created_at": "2021-06-02T10:11:12.123456Z", "updated_at": "2022-01-10T08:00:00.654321Z",
        "image": "https://getstream.io/random_png/?id=\(id)",
      ]
      if !name.isEmpty { user["name"] = name }
      return user
    }
    func member(_ user: [String: Any], role: String) -> [String: Any] {
      [
        "user_id": user["id"]!, "user": user, "role": role, "channel_role": "channel_\(role)",
        "banned": false, "shadow_banned": false, "notifications_muted": false,
        "created_at": "2021-12-01T10:00:00.000000Z", "updated_at": "2021-12-01T10:00:00.000000Z",
      ]
    }
    let me = user(viewer, "Me")
    let channels: [[String: Any]] = items.enumerated().map { index, item in
      let others = otherMembers(item, index).map { user($0.id, $0.name) }
      let cid = "messaging:\(item.id)"
      var channel: [String: Any] = [
        "id": item.id, "type": "messaging", "cid": cid, "created_by": me,
        "created_at": shapeRFC3339(created(item), fraction: ".000000"),
        "updated_at": shapeRFC3339(created(item), fraction: ".000000"),
        "frozen": false, "disabled": false, "member_count": 1 + others.count,
        "config": ["name": "messaging", "read_events": true, "typing_events": true, "max_message_length": 5000],
        "own_capabilities": ["read-events", "send-message", "send-reaction"],
      ]
      if isGroup(item, index) { channel["name"] = item.name }
      var messages: [[String: Any]] = []
      if let text = item.message {
        channel["last_message_at"] = shapeRFC3339(item.unixSeconds, fraction: ".000000")
        messages.append([
          "id": "\(item.id)-1", "text": text, "html": "<p>\(shapeHTMLEscaped(text))</p>\n", "type": "regular",
          "user": others[0], "attachments": [], "latest_reactions": [], "own_reactions": [],
          "reaction_counts": [:], "reply_count": 0, "cid": cid, "mentioned_users": [],
          "created_at": shapeRFC3339(item.unixSeconds, fraction: ".000000"),
          "updated_at": shapeRFC3339(item.unixSeconds, fraction: ".000000"),
          "shadowed": false, "silent": false, "pinned": false,
        ])
      }
      let read: [[String: Any]] =
        [["user": me, "last_read": shapeRFC3339(created(item)), "unread_messages": item.unread]]
        + others.map { ["user": $0, "last_read": shapeRFC3339(item.unixSeconds), "unread_messages": 0] }
      return [
        "channel": channel, "messages": messages, "pinned_messages": [], "threads": [],
        "watcher_count": 0, "read": read,
        "members": [member(me, role: "owner")] + others.map { member($0, role: "member") },
        "membership": member(me, role: "owner"),
      ]
    }
    return ["channels": channels, "duration": "18.27ms"]
  }

  private func sendbird(_ items: [SampleItem], viewer: String) -> Any {
    func user(_ id: String, _ name: String, _ phone: String) -> [String: Any] {
      [
        "user_id": id, "nickname": name, "phone_number": phone,
        "profile_url": name.isEmpty ? "" : "https://static.sendbird.com/sample/profiles/\(id).png",
        "require_auth_for_profile_image": false, "metadata": [String: Any](), "is_active": true,
        "is_online": false, "last_seen_at": Int64(1_643_626_800_000), "state": "joined", "role": "",
      ]
    }
    let channels: [[String: Any]] = items.enumerated().map { index, item in
      // The first other member carries the item's phone: the one the mapping reads.
      let others = otherMembers(item, index).enumerated().map { k, other in
        user(other.id, other.name, k == 0 ? item.phone : "+1 555 0100")
      }
      var lastMessage: Any = NSNull()
      if let text = item.message {
        lastMessage =
          [
            "message_id": 9_000_000 + index, "type": "MESG", "custom_type": "", "channel_url": item.id,
            "user": ["user_id": others[0]["user_id"]!, "nickname": others[0]["nickname"]!],
            "mention_type": "users", "mentioned_users": [], "is_removed": false, "message": text,
            "translations": [:], "data": "", "created_at": item.unixSeconds * 1000, "updated_at": 0,
          ] as [String: Any]
      }
      return [
        "channel_url": item.id, "name": isGroup(item, index) ? item.name : "",
        "cover_url": "https://static.sendbird.com/sample/cover/cover_11.jpg", "custom_type": "", "data": "",
        "is_distinct": !isGroup(item, index), "is_public": false, "is_super": false, "freeze": false,
        "member_count": 1 + others.count, "joined_member_count": 1 + others.count,
        "unread_message_count": item.unread, "unread_mention_count": 0,
        "created_at": created(item), "last_message": lastMessage,
        "members": [user(viewer, "Me", "+33 6 12 34 56 78")] + others,
        "my_member_state": "joined", "hidden_state": "unhidden", "count_preference": "all",
      ]
    }
    return ["channels": channels, "next": ""]
  }

  private func matrix(_ items: [SampleItem], viewer: String) -> Any {
    var rooms: [String: Any] = [:]
    for (index, item) in items.enumerated() {
      let sender = "@\(otherMembers(item, index)[0].id):example.org"
      let ms = item.unixSeconds * 1000
      var timeline: [[String: Any]]
      if let text = item.message {
        timeline = [
          [
            "type": "m.room.message", "sender": sender, "origin_server_ts": ms, "event_id": "$m\(index)",
            "content": ["msgtype": "m.text", "body": text],
          ]
        ]
        if index % 3 == 0 {  // a later reaction: the preview and date stay the message's
          timeline.append([
            "type": "m.reaction", "sender": viewer, "origin_server_ts": ms + 1000, "event_id": "$r\(index)",
            "content": ["m.relates_to": ["rel_type": "m.annotation", "event_id": "$m\(index)", "key": "👍"]],
          ])
        }
      } else {
        timeline = [
          [
            "type": "m.room.member", "state_key": sender, "sender": sender, "origin_server_ts": ms,
            "event_id": "$j\(index)", "content": ["membership": "join"],
          ]
        ]
      }
      var room: [String: Any] = [
        "initial": true, "membership": "join", "required_state": [], "timeline": timeline,
        "limited": false, "num_live": 0, "joined_count": 2, "invited_count": 0,
        "notification_count": item.unread, "highlight_count": 0, "bump_stamp": item.unixSeconds,
      ]
      if isGroup(item, index) {
        room["name"] = item.name
      } else {
        var hero: [String: Any] = ["user_id": sender]
        if !item.name.isEmpty { hero["displayname"] = item.name }
        room["heroes"] = [hero]
        room["is_dm"] = true
      }
      rooms[item.id] = room
    }
    return [
      "pos": "s58_224_0_13_10_1_1_16_0_1", "lists": ["all_rooms": ["count": items.count]],
      "rooms": rooms, "extensions": [String: Any](),
    ]
  }

  private func twilio(_ items: [SampleItem], viewer: String) -> Any {
    let conversations: [[String: Any]] = items.map { item in
      [
        "account_sid": "AC" + String(repeating: "a1", count: 16),
        "chat_service_sid": "IS" + String(repeating: "b2", count: 16),
        "conversation_sid": item.id, "user_sid": "US" + String(repeating: "c3", count: 16),
        "friendly_name": item.name.isEmpty ? NSNull() : item.name as Any, "unique_name": NSNull(),
        "conversation_state": "active", "created_by": viewer, "attributes": "{}",
        "date_created": shapeRFC3339(created(item)), "date_updated": shapeRFC3339(item.unixSeconds),
        // Twilio sends null without a read horizon; the mapping reads it as 0.
        "unread_messages_count": item.unread == 0 ? NSNull() : item.unread as Any,
        "last_read_message_index": item.unread == 0 ? NSNull() : 40 as Any,
        "notification_level": "default",
      ]
    }
    return [
      "conversations": conversations,
      "meta": ["page": 0, "page_size": 50, "key": "conversations", "next_page_url": NSNull()],
    ]
  }

  private func intercom(_ items: [SampleItem]) -> Any {
    let conversations: [[String: Any]] = items.enumerated().map { index, item in
      let group = isGroup(item, index)
      let author: [String: Any] = [
        "type": "user", "id": "other\(index)", "email": "other\(index)@example.com",
        "name": group || item.name.isEmpty ? NSNull() : item.name as Any,
      ]
      let body: Any = item.message.map { "<p>\(shapeHTMLEscaped($0))</p>" } ?? NSNull()
      return [
        "type": "conversation", "id": item.id, "title": group ? item.name as Any : NSNull(),
        "created_at": created(item), "updated_at": item.unixSeconds, "open": true, "state": "open",
        "read": item.unread == 0, "priority": "not_priority", "waiting_since": NSNull(),
        "source": [
          "type": "conversation", "id": "\(400_000 + index)", "delivered_as": "customer_initiated",
          "subject": "", "body": body, "author": author, "attachments": [], "redacted": false,
        ] as [String: Any],
        "contacts": ["type": "contact.list", "contacts": [["type": "contact", "id": "other\(index)"]]],
        "tags": ["type": "tag.list", "tags": []],
      ]
    }
    return [
      "type": "conversation.list", "conversations": conversations, "total_count": items.count,
      "pages": ["type": "pages", "page": 1, "per_page": max(items.count, 1), "total_pages": 1],
    ]
  }

  private func tdlib(_ items: [SampleItem]) -> Any {
    items.enumerated().map { index, item -> [String: Any] in
      let content: [String: Any]
      if let text = item.message {
        content = [
          "@type": "messageText", "text": ["@type": "formattedText", "text": text, "entities": []],
        ]
      } else {
        content = ["@type": "messageContactRegistered"]  // a last message without text
      }
      return [
        "@type": "chat", "id": numberOrString(item.id), "title": item.name,
        "type": isGroup(item, index)
          ? ["@type": "chatTypeBasicGroup", "basic_group_id": index + 1]
          : ["@type": "chatTypePrivate", "user_id": 5_000_000_000 + index],
        "last_message": [
          "@type": "message", "id": 1_048_576, "chat_id": numberOrString(item.id), "is_outgoing": false,
          "sender_id": ["@type": "messageSenderUser", "user_id": 5_000_000_000 + index],
          "date": item.unixSeconds, "edit_date": 0, "content": content,
        ] as [String: Any],
        "unread_count": item.unread, "unread_mention_count": 0, "is_marked_as_unread": false,
        "last_read_inbox_message_id": 0, "last_read_outbox_message_id": 0,
        "draft_message": NSNull(), "client_data": "",
      ]
    }
  }

  private func slack(_ items: [SampleItem]) -> Any {
    let channels: [[String: Any]] = items.map { item in
      var channel: [String: Any] = [
        "id": item.id, "created": created(item), "is_archived": false, "is_open": true, "priority": 0,
        "unread_count": item.unread, "unread_count_display": item.unread,
      ]
      if item.name.isEmpty {
        // A DM: Slack carries only the other user's id, never a name.
        channel.merge(["is_im": true, "user": "U\(item.id)", "is_user_deleted": false]) { $1 }
      } else {
        channel.merge([
          "name": item.name, "name_normalized": item.name.lowercased(), "is_channel": true,
          "is_im": false, "is_mpim": false, "is_private": false, "is_member": true,
        ]) { $1 }
      }
      if let text = item.message {
        // Whole seconds, in Slack's "seconds.micro" string form.
        channel["latest"] = [
          "type": "message", "user": "U\(item.id)", "text": text, "ts": "\(item.unixSeconds).000000",
        ]
      }
      return channel
    }
    return ["ok": true, "channels": channels, "response_metadata": ["next_cursor": ""]]
  }
}

// MARK: - Helpers

extension BackendShape {
  /// Whether the item at `index` is written as a named group (every fourth, named).
  private func isGroup(_ item: SampleItem, _ index: Int) -> Bool {
    index % 4 == 3 && !item.name.isEmpty
  }

  /// The members other than the viewer: the named one of a 1:1 chat, or two of a group.
  private func otherMembers(_ item: SampleItem, _ index: Int) -> [(id: String, name: String)] {
    isGroup(item, index)
      ? [("other\(index)", "Léa Dubois"), ("other\(index)b", "Sam O'Neil")]
      : [("other\(index)", item.name)]
  }

  /// When the conversation was created: at its time without a message, three days before with one.
  private func created(_ item: SampleItem) -> Int64 {
    item.message == nil ? item.unixSeconds : item.unixSeconds - 3 * 86_400
  }

  /// An integer literal as a JSON number, anything else as a string.
  private func numberOrString(_ id: String) -> Any {
    if let number = Int64(id), String(number) == id { return number }
    return id
  }
}

/// `&`, `<` and `>` as HTML character references.
private func shapeHTMLEscaped(_ text: String) -> String {
  var out = ""
  for character in text {
    switch character {
    case "&": out += "&amp;"
    case "<": out += "&lt;"
    case ">": out += "&gt;"
    default: out.append(character)
    }
  }
  return out
}

/// Unix seconds as RFC 3339 in UTC (`2022-01-31T08:45:33Z`), as the
/// library writes instants (``Date/utcText``), with `fraction` before the `Z`.
private func shapeRFC3339(_ seconds: Int64, fraction: String = "") -> String {
  Date(timeIntervalSince1970: TimeInterval(seconds)).utcText.dropLast() + fraction + "Z"
}
