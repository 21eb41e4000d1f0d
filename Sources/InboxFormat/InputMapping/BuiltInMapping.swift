// swift-format-ignore-file
// Generated from Data/mappings/*.json by Scripts/embed-mappings.py; a test
// checks that each document here is the file's text.

/// A mapping that comes with the library: its name and its document.
struct BuiltInMapping: Sendable {
  let name: String
  let document: String

  /// Every built-in mapping, in the order they are listed.
  static let all: [BuiltInMapping] = [post, streamChat, sendbird, matrix, twilio, intercom, tdlib, slack]

  static let post = BuiltInMapping(
    name: "post",
    document: #"""
{
  "description": "This project's own inbox payload (the backend's messages list), {\"items\": [{\"id\", \"firstname\", \"lastname\", \"message\", \"phone_number\": {\"international\"}, \"update_date\", \"unread_count\"}]} (Data/examples/messages.json)",
  "items": "$.items[*]",
  "id": "$.id",
  "firstname": "$.firstname",
  "lastname": "$.lastname",
  "phone": "$.phone_number.international",
  "message": "$.message",
  "date": "$.update_date",
  "unread": "$.unread_count"
}
"""#)

  static let streamChat = BuiltInMapping(
    name: "stream-chat",
    document: #"""
{
  "description": "Stream Chat: POST /channels (QueryChannels, client.queryChannels with state: true), {\"channels\": [ChannelStateResponseFields], \"duration\"}; title: the channel's name, else the other member's user name",
  "items": "$.channels[*]",
  "id": "$.channel.id",
  "name": ["$.channel.name", "$.members[?@.user_id != viewer()].user.name"],
  "message": "$.messages[-1].text",
  "date": ["$.messages[-1].created_at", "$.channel.last_message_at", "$.channel.created_at"],
  "unread": {"path": "$.read[?@.user.id == viewer()].unread_messages", "kind": "count"}
}
"""#)

  static let sendbird = BuiltInMapping(
    name: "sendbird",
    document: #"""
{
  "description": "Sendbird Platform API: GET /v3/users/{user_id}/my_group_channels?show_member=true, {\"channels\": [group channel], \"next\"}; title: the channel's name, else the other member's nickname",
  "items": "$.channels[*]",
  "id": "$.channel_url",
  "name": ["$.name", "$.members[?@.user_id != viewer()].nickname"],
  "phone": "$.members[?@.user_id != viewer()].phone_number",
  "message": {"path": "$.last_message.message", "markup": "text"},
  "date": [{"path": "$.last_message.created_at", "encoding": "unix-ms"}, {"path": "$.created_at", "encoding": "unix-s"}],
  "unread": {"path": "$.unread_message_count", "kind": "count"}
}
"""#)

  static let matrix = BuiltInMapping(
    name: "matrix",
    document: #"""
{
  "description": "Matrix simplified sliding sync (MSC4186): POST /_matrix/client/unstable/org.matrix.simplified_msc3575/sync, {\"pos\", \"lists\", \"rooms\": {room id: room}, \"extensions\"}; title: the room's name, else the other hero's display name; preview and date: the timeline's last m.room.message",
  "items": "$.rooms.*",
  "id": {"member-name": true},
  "name": ["$.name", "$.heroes[?@.user_id != viewer()].displayname"],
  "message": {"path": "$.timeline[?@.type == 'm.room.message'].content.body", "pick": "last"},
  "date": [
    {"path": "$.timeline[?@.type == 'm.room.message'].origin_server_ts", "encoding": "unix-ms", "pick": "last"},
    {"path": "$.timeline[*].origin_server_ts", "encoding": "unix-ms", "pick": "last"}
  ],
  "unread": {"path": "$.notification_count", "kind": "count"}
}
"""#)

  static let twilio = BuiltInMapping(
    name: "twilio",
    document: #"""
{
  "description": "Twilio Conversations: GET /v1/Users/{UserSid}/Conversations (User Conversation resource), {\"conversations\": [...], \"meta\"}; no last-message preview and no other participant's address in this resource",
  "items": "$.conversations[*]",
  "id": "$.conversation_sid",
  "name": ["$.friendly_name", "$.unique_name"],
  "date": ["$.date_updated", "$.date_created"],
  "unread": {"path": "$.unread_messages_count", "kind": "count"}
}
"""#)

  static let intercom = BuiltInMapping(
    name: "intercom",
    document: #"""
{
  "description": "Intercom REST API: GET /conversations (List all conversations), {\"type\": \"conversation.list\", \"conversations\": [...], \"total_count\", \"pages\"}; preview: the conversation's opening message (source.body, HTML)",
  "items": "$.conversations[*]",
  "id": "$.id",
  "name": ["$.title", "$.source.author.name"],
  "message": {"path": "$.source.body", "markup": "html"},
  "date": {"path": "$.updated_at", "encoding": "unix-s"},
  "unread": {"path": "$.read", "kind": "read-flag"}
}
"""#)

  static let tdlib = BuiltInMapping(
    name: "tdlib",
    document: #"""
{
  "description": "TDLib (td_json_client): the chat objects of the main chat list, [chat] as returned by getChat for each id of getChats/loadChats (or collected from updateNewChat); preview: the last message's text, else its caption",
  "items": "$[*]",
  "id": "$.id",
  "name": "$.title",
  "message": ["$.last_message.content.text.text", "$.last_message.content.caption.text"],
  "date": [{"path": "$.last_message.date", "encoding": "unix-s"}, {"path": "$.draft_message.date", "encoding": "unix-s"}],
  "unread": {"path": "$.unread_count", "kind": "count"}
}
"""#)

  static let slack = BuiltInMapping(
    name: "slack",
    document: #"""
{
  "description": "Slack Web API: GET conversations.list?types=public_channel,private_channel,mpim,im (user token) with each conversation's conversations.info state (latest, unread_count, unread_count_display), {\"ok\": true, \"channels\": [...], \"response_metadata\"}; a DM carries only the other user's id, not a name",
  "items": "$.channels[*]",
  "id": "$.id",
  "name": "$.name",
  "message": "$.latest.text",
  "date": [{"path": "$.latest.ts", "encoding": "unix-s"}, {"path": "$.created", "encoding": "unix-s"}],
  "unread": [{"path": "$.unread_count_display", "kind": "count"}, {"path": "$.unread_count", "kind": "count"}]
}
"""#)
}
