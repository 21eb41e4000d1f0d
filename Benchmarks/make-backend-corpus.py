#!/usr/bin/env python3
"""Writes N conversations of one logical inbox in a messaging backend's shape.

usage: make-backend-corpus.py SHAPE N [--viewer ID] > corpus.json

SHAPE is one of: post, stream-chat, sendbird, matrix, twilio, intercom, tdlib,
slack -- the names of the mappings in Data/mappings/. Every shape carries the
SAME logical items (seeded, so the output is deterministic), so formatting
the output of two shapes with their mappings and the same --viewer gives the
same rows wherever both shapes carry a field:

- id: a string of digits, written verbatim in every shape (as a JSON number in
  `post` and `tdlib`, whose ids are numbers), so rows can be compared across
  shapes; real backends' ids look different (Slack `C…`, Matrix `!…:server`).
- name: the other member's display name, in many scripts, empty for one item
  in six (the row then shows the phone where the shape carries one). One item
  in four with a name is a named group instead of a 1:1 chat: the group's own
  name is the name and its other members have names of their own.
- phone: carried by `post` and `sendbird` only (the other members' user
  objects of the other backends are not in their conversation lists).
- message: absent for one item in twelve. `twilio` carries no preview;
  `intercom` carries it as HTML (`<p>` + escaped text + `</p>`); `tdlib`
  carries every fifth one as a photo's caption.
- time: whole seconds (Unix) within 30 days before 2022-01-31T12:00:00Z, so
  the shapes with second precision agree with the millisecond ones; Slack's
  `ts` adds its usual 6-digit fraction (a per-message counter below one
  second, which changes no label).
- unread: 0, 1, 3 or 120; `intercom` carries only whether it is 0 (`read`).

Per shape: `slack` writes an item with a name as a channel of that name and
one without as a DM (Slack DMs carry only the other user's id, never a name);
`twilio` writes a 0 unread count as null, as Twilio does without a read
horizon; `matrix` keys the rooms by the id.

`post` is this project's own shape: it has no field for a display name, so
the name is written as `firstname` and `lastname` is "" (a name split at a
space would not read back as the same string for every script).

The viewer (--viewer, default `me`, `@me:example.org` for matrix) is the
member whose read state and membership are written; the "other member" of a
1:1 chat is never the viewer. Output: one compact JSON document, UTF-8.
"""
import json
import random
import sys
from datetime import datetime, timezone
from html import escape

SHAPES = ["post", "stream-chat", "sendbird", "matrix", "twilio", "intercom", "tdlib", "slack"]
NOW = 1643630400  # 2022-01-31T12:00:00Z
FIRST = ["Alexander", "Jessica", "Georges", "Émile", "Zoë", "Мария", "Σωκράτης", "محمد", "مريم", "דוד",
         "小明", "민준", "अनिल", "Jean-Luc", "O'Brien", "Łukasz", "Nguyễn", "Søren", "José", "Ngọc"]
LAST = ["Anderson", "Pitt", "", "Zola", "Ødegaard", "Иванова", "Παπαδόπουλος", "العلي", "כהן", "王",
        "김", "शर्मा", "van Gogh", "Müller", "Trần"]
GROUPS = ["Weekend hike 🥾", "開発チーム", "Famille ❤️", "Проект «Север»", "فريق التسويق", "Book club \"Dune\"",
          "Back\\slash team", "가족", "Ops on-call"]
WORDS = ("hello how are you this is a short message with some more words to make the preview long "
         "enough ça va très bien привет как дела 你好 😀 👍🏽 مرحبا see you tomorrow at the café <3 & co").split()


def logical_items(n):
    """The shape-independent inbox: one dict per conversation."""
    rnd = random.Random(20220131)
    items = []
    for i in range(n):
        group = i % 4 == 3
        name = rnd.choice(GROUPS) if group else (rnd.choice(FIRST) + " " + rnd.choice(LAST)).strip()
        if i % 6 == 5:
            name, group = "", False
        members = [(f"u{i}a", (rnd.choice(FIRST) + " " + rnd.choice(LAST)).strip()),
                   (f"u{i}b", rnd.choice(FIRST))] if group else [(f"u{i}", name)]
        phone = "+%d %d %02d %02d %02d %02d" % (rnd.choice([33, 44, 49, 1, 81, 20]), rnd.randint(1, 9),
                                                 rnd.randint(0, 99), rnd.randint(0, 99), rnd.randint(0, 99),
                                                 rnd.randint(0, 99))
        message = " ".join(rnd.choice(WORDS) for _ in range(rnd.randint(1, 25)))
        if i % 12 == 7:
            message = None
        seconds = NOW - 1 - int(rnd.random() ** 2 * 30 * 86400)
        items.append({"i": i, "id": str(100001 + i), "name": name, "group": group, "members": members,
                      "phone": phone, "message": message, "seconds": seconds,
                      "unread": rnd.choice([0, 0, 1, 3, 120])})
    return items


def rfc3339(seconds, fraction=""):
    return datetime.fromtimestamp(seconds, timezone.utc).strftime("%Y-%m-%dT%H:%M:%S") + fraction + "Z"


def created(item):
    """When the conversation was created: its time when it has no message, else earlier."""
    return item["seconds"] if item["message"] is None else item["seconds"] - 86400 * (3 + item["i"] % 40)


# --- post: this project's own {"items": [...]} ------------------------------------------------
def post(items, viewer):
    out = []
    for it in items:
        m = {"id": int(it["id"]), "firstname": it["name"], "lastname": ""}
        if it["message"] is not None:
            m["message"] = it["message"]
        m["phone_number"] = {"international": it["phone"]}
        m["update_date"] = rfc3339(it["seconds"])
        m["unread_count"] = it["unread"]
        out.append(m)
    return {"items": out}


# --- Stream Chat: QueryChannels ----------------------------------------------------------------
STREAM_CONFIG = {"name": "messaging", "typing_events": True, "read_events": True, "connect_events": True,
                 "search": True, "reactions": True, "replies": True, "quotes": True, "mutes": True,
                 "uploads": True, "url_enrichment": True, "custom_events": True, "push_notifications": True,
                 "message_retention": "infinite", "max_message_length": 5000, "automod": "disabled",
                 "automod_behavior": "flag", "commands": [{"name": "giphy", "set": "fun_set"}]}


def stream_user(uid, name):
    user = {"id": uid, "role": "user", "created_at": "2021-06-02T10:11:12.123456Z",
            "updated_at": "2022-01-10T08:00:00.654321Z", "banned": False, "online": False,
            "image": f"https://getstream.io/random_png/?id={uid}"}
    if name:
        user["name"] = name
    return user


def stream_member(user, role):
    return {"user_id": user["id"], "user": user, "created_at": "2021-12-01T10:00:00.000000Z",
            "updated_at": "2021-12-01T10:00:00.000000Z", "banned": False, "shadow_banned": False,
            "role": role, "channel_role": "channel_" + role, "notifications_muted": False}


def stream_chat(items, viewer):
    me = stream_user(viewer, "Me")
    channels = []
    for it in items:
        others = [stream_user(uid, name) for uid, name in it["members"]]
        cid = "messaging:" + it["id"]
        channel = {"id": it["id"], "type": "messaging", "cid": cid, "created_at": rfc3339(created(it), ".000000"),
                   "updated_at": rfc3339(created(it), ".000000"), "created_by": me, "frozen": False,
                   "disabled": False, "member_count": 1 + len(others), "config": STREAM_CONFIG,
                   "own_capabilities": ["read-events", "send-message", "send-reaction", "upload-file"]}
        if it["group"]:
            channel["name"] = it["name"]
        messages = []
        if it["message"] is not None:
            channel["last_message_at"] = rfc3339(it["seconds"], ".000000")
            author = others[0]
            messages.append({"id": f"{it['id']}-1", "text": it["message"], "html": "<p>" + escape(it["message"]) + "</p>\n",
                             "type": "regular", "user": author, "attachments": [], "latest_reactions": [],
                             "own_reactions": [], "reaction_counts": {}, "reply_count": 0, "cid": cid,
                             "created_at": rfc3339(it["seconds"], ".000000"),
                             "updated_at": rfc3339(it["seconds"], ".000000"), "shadowed": False,
                             "mentioned_users": [], "silent": False, "pinned": False})
        read = [{"user": me, "last_read": rfc3339(created(it), ".000000"), "unread_messages": it["unread"]}] + \
               [{"user": o, "last_read": rfc3339(it["seconds"], ".000000"), "unread_messages": 0} for o in others]
        members = [stream_member(me, "owner")] + [stream_member(o, "member") for o in others]
        channels.append({"channel": channel, "messages": messages, "pinned_messages": [], "threads": [],
                         "watcher_count": 0, "read": read, "members": members,
                         "membership": stream_member(me, "owner")})
    return {"channels": channels, "duration": "18.27ms"}


# --- Sendbird: GET /v3/users/{user_id}/my_group_channels?show_member=true -----------------------
def sendbird_user(uid, name, phone):
    return {"user_id": uid, "nickname": name, "phone_number": phone,
            "profile_url": f"https://static.sendbird.com/sample/profiles/{uid}.png" if name else "",
            "require_auth_for_profile_image": False, "metadata": {}, "is_active": True, "is_online": False,
            "last_seen_at": (NOW - 3600) * 1000, "state": "joined", "role": ""}


def sendbird(items, viewer):
    channels = []
    for it in items:
        # The item's phone is the first other member's: the one the mapping reads.
        others = [sendbird_user(uid, name, it["phone"] if k == 0 else "+1 555 0100")
                  for k, (uid, name) in enumerate(it["members"])]
        last = None
        if it["message"] is not None:
            o = others[0]
            last = {"message_id": 9000000 + it["i"], "type": "MESG", "custom_type": "", "channel_url": it["id"],
                    "user": {"user_id": o["user_id"], "nickname": o["nickname"], "profile_url": o["profile_url"],
                             "metadata": {}},
                    "mention_type": "users", "mentioned_users": [], "is_removed": False, "message": it["message"],
                    "translations": {}, "data": "", "created_at": it["seconds"] * 1000, "updated_at": 0, "file": {}}
        channels.append({"channel_url": it["id"], "name": it["name"] if it["group"] else "",
                         "cover_url": "https://static.sendbird.com/sample/cover/cover_11.jpg", "custom_type": "",
                         "data": "", "is_distinct": not it["group"], "is_public": False, "is_super": False,
                         "is_ephemeral": False, "freeze": False, "member_count": 1 + len(others),
                         "joined_member_count": 1 + len(others), "max_length_message": 5000,
                         "unread_message_count": it["unread"], "unread_mention_count": 0,
                         "created_at": created(it), "created_by": {"user_id": viewer, "nickname": "Me"},
                         "last_message": last,
                         "members": [sendbird_user(viewer, "Me", "+33 6 12 34 56 78")] + others,
                         "operators": [], "my_role": "", "is_hidden": False, "hidden_state": "unhidden",
                         "my_member_state": "joined", "is_muted": False, "count_preference": "all",
                         "is_push_enabled": True, "push_trigger_option": "default"})
    return {"channels": channels, "next": "YXEZR1VVQVdYWUVGR0NEGF9WDBBBWl9BWBNRUlRb"}


# --- Matrix: simplified sliding sync (MSC4186) -------------------------------------------------
def matrix_user(uid):
    return f"@{uid}:example.org"


def matrix(items, viewer):
    rooms = {}
    for it in items:
        sender = matrix_user(it["members"][0][0])
        ms = it["seconds"] * 1000
        if it["message"] is None:
            timeline = [{"type": "m.room.member", "state_key": sender, "sender": sender, "origin_server_ts": ms,
                         "event_id": f"$j{it['id']}", "content": {"membership": "join"}}]
        else:
            timeline = [{"type": "m.room.message", "sender": sender, "origin_server_ts": ms,
                         "event_id": f"$m{it['id']}", "content": {"msgtype": "m.text", "body": it["message"]}}]
            if it["i"] % 3 == 0:  # a reaction after the message: the preview stays the message
                timeline.append({"type": "m.reaction", "sender": viewer, "origin_server_ts": ms + 1000,
                                 "event_id": f"$r{it['id']}", "content": {"m.relates_to": {
                                     "rel_type": "m.annotation", "event_id": f"$m{it['id']}", "key": "👍"}}})
        room = {}
        if it["group"]:
            room["name"] = it["name"]
        else:
            hero = {"user_id": sender}
            if it["name"]:
                hero["displayname"] = it["name"]
            room["heroes"] = [hero]
            room["is_dm"] = True
        room.update({"initial": True, "membership": "join", "required_state": [], "timeline": timeline,
                     "prev_batch": f"t{it['i']}-1_2_3", "limited": False, "num_live": 0,
                     "joined_count": 1 + len(it["members"]), "invited_count": 0,
                     "notification_count": it["unread"], "highlight_count": 0, "bump_stamp": it["seconds"]})
        rooms[it["id"]] = room
    return {"pos": "s58_224_0_13_10_1_1_16_0_1", "lists": {"all_rooms": {"count": len(items)}}, "rooms": rooms,
            "extensions": {}}


# --- Twilio Conversations: GET /v1/Users/{UserSid}/Conversations -------------------------------
def twilio(items, viewer):
    conversations = []
    for it in items:
        sid = it["id"]
        conversations.append({
            "account_sid": "AC" + "a1" * 16, "chat_service_sid": "IS" + "b2" * 16, "conversation_sid": sid,
            "participant_sid": "MB" + f"{it['i']:032x}", "user_sid": "US" + "c3" * 16,
            "friendly_name": it["name"] or None, "unique_name": None, "conversation_state": "active",
            "created_by": viewer, "attributes": "{}", "timers": {}, "date_created": rfc3339(created(it)),
            "date_updated": rfc3339(it["seconds"]),
            "last_read_message_index": None if it["unread"] == 0 else 40,
            "unread_messages_count": it["unread"] or None,  # Twilio sends null without a read horizon
            "notification_level": "default",
            "url": f"https://conversations.twilio.com/v1/Users/{viewer}/Conversations/{sid}",
            "links": {"conversation": f"https://conversations.twilio.com/v1/Conversations/{sid}"}})
    return {"conversations": conversations, "meta": {
        "page": 0, "page_size": 50, "key": "conversations", "previous_page_url": None, "next_page_url": None,
        "first_page_url": f"https://conversations.twilio.com/v1/Users/{viewer}/Conversations?PageSize=50&Page=0",
        "url": f"https://conversations.twilio.com/v1/Users/{viewer}/Conversations?PageSize=50&Page=0"}}


# --- Intercom: GET /conversations -------------------------------------------------------------
def intercom(items, viewer):
    conversations = []
    for it in items:
        uid = it["members"][0][0]
        author = {"type": "user", "id": uid, "name": None if it["group"] else (it["name"] or None),
                  "email": f"{uid}@example.com"}
        body = None if it["message"] is None else "<p>" + escape(it["message"], quote=False) + "</p>"
        conversations.append({
            "type": "conversation", "id": it["id"], "title": it["name"] if it["group"] else None,
            "created_at": created(it), "updated_at": it["seconds"], "waiting_since": None, "snoozed_until": None,
            "open": True, "state": "open", "read": it["unread"] == 0, "priority": "not_priority",
            "admin_assignee_id": 814860, "team_assignee_id": None, "tags": {"type": "tag.list", "tags": []},
            "source": {"type": "conversation", "id": str(400000 + it["i"]), "delivered_as": "customer_initiated",
                       "subject": "", "body": body, "author": author, "attachments": [], "url": None,
                       "redacted": False},
            "contacts": {"type": "contact.list", "contacts": [{"type": "contact", "id": uid, "external_id": None}]},
            "teammates": {"type": "admin.list", "admins": []}, "custom_attributes": {},
            "first_contact_reply": None, "sla_applied": None, "statistics": None})
    return {"type": "conversation.list", "conversations": conversations, "total_count": len(items),
            "pages": {"type": "pages", "page": 1, "per_page": len(items), "total_pages": 1}}


# --- TDLib: [chat] ---------------------------------------------------------------------------
def tdlib(items, viewer):
    chats = []
    for it in items:
        chat_id = int(it["id"])
        if it["message"] is None:
            content = {"@type": "messageContactRegistered"}
        elif it["i"] % 5 == 4:
            content = {"@type": "messagePhoto", "photo": {"@type": "photo", "has_stickers": False, "sizes": []},
                       "caption": {"@type": "formattedText", "text": it["message"], "entities": []},
                       "show_caption_above_media": False, "has_spoiler": False, "is_secret": False}
        else:
            content = {"@type": "messageText", "text": {"@type": "formattedText", "text": it["message"], "entities": []},
                       "link_preview": None}
        chat_type = ({"@type": "chatTypeBasicGroup", "basic_group_id": chat_id} if it["group"]
                     else {"@type": "chatTypePrivate", "user_id": chat_id})
        chats.append({
            "@type": "chat", "id": chat_id, "type": chat_type, "title": it["name"], "photo": None,
            "accent_color_id": it["i"] % 7, "background_custom_emoji_id": "0",
            "last_message": {"@type": "message", "id": 1048576 * (1 + it["i"] % 50), "chat_id": chat_id,
                             "sender_id": {"@type": "messageSenderUser", "user_id": 5000000000 + it["i"]},
                             "is_outgoing": False, "is_pinned": False, "can_be_saved": True,
                             "date": it["seconds"], "edit_date": 0, "reply_to": None, "message_thread_id": 0,
                             "content": content, "reply_markup": None},
            "positions": [{"@type": "chatPosition", "list": {"@type": "chatListMain"},
                           "order": str(9221294780217032704 - it["i"]), "is_pinned": False, "source": None}],
            "is_marked_as_unread": False, "has_scheduled_messages": False, "can_be_deleted_only_for_self": True,
            "can_be_deleted_for_all_users": not it["group"], "can_be_reported": False,
            "default_disable_notification": False, "unread_count": it["unread"],
            "last_read_inbox_message_id": 0, "last_read_outbox_message_id": 0, "unread_mention_count": 0,
            "unread_reaction_count": 0,
            "notification_settings": {"@type": "chatNotificationSettings", "use_default_mute_for": True,
                                      "mute_for": 0, "use_default_show_preview": True, "show_preview": False},
            "message_auto_delete_time": 0, "theme_name": "", "action_bar": None, "video_chat": None,
            "pending_join_requests": None, "reply_markup_message_id": 0, "draft_message": None, "client_data": ""})
    return chats


# --- Slack: conversations.list with conversations.info state ---------------------------------------
def slack(items, viewer):
    team = "T012AB3C4"
    channels = []
    for it in items:
        c = {"id": it["id"], "created": created(it), "is_archived": False, "is_org_shared": False,
             "context_team_id": team, "updated": created(it) * 1000, "priority": 0, "is_open": True,
             "last_read": "%d.000100" % created(it)}
        if it["name"]:  # a channel: Slack names channels, never DMs
            c.update({"name": it["name"], "name_normalized": it["name"].lower(), "is_channel": not it["group"],
                      "is_group": False, "is_im": False, "is_mpim": False, "is_private": it["group"],
                      "is_general": False, "unlinked": 0, "is_shared": False, "is_ext_shared": False,
                      "is_member": True, "creator": "U0VIEWER", "shared_team_ids": [team],
                      "topic": {"value": "", "creator": "", "last_set": 0},
                      "purpose": {"value": "", "creator": "", "last_set": 0}, "previous_names": []})
        else:  # a DM: only the other user's id
            c.update({"is_im": True, "user": "U" + it["id"], "is_user_deleted": False})
        if it["message"] is not None:
            ts = "%d.%06d" % (it["seconds"], (it["i"] * 7919) % 1000000)
            c["latest"] = {"type": "message", "user": "U" + it["id"], "text": it["message"], "ts": ts, "team": team}
        c["unread_count"] = it["unread"]
        c["unread_count_display"] = it["unread"]
        channels.append(c)
    return {"ok": True, "channels": channels, "response_metadata": {"next_cursor": ""}}


WRITERS = {"post": post, "stream-chat": stream_chat, "sendbird": sendbird, "matrix": matrix, "twilio": twilio,
           "intercom": intercom, "tdlib": tdlib, "slack": slack}


def main():
    args = sys.argv[1:]
    viewer = None
    if "--viewer" in args:
        k = args.index("--viewer")
        viewer = args[k + 1]
        del args[k:k + 2]
    if len(args) != 2 or args[0] not in WRITERS or not args[1].isdigit():
        sys.exit(__doc__.split("\n\n")[1] + "\nSHAPE: " + ", ".join(SHAPES))
    shape, n = args[0], int(args[1])
    if viewer is None:
        viewer = "@me:example.org" if shape == "matrix" else "me"
    doc = WRITERS[shape](logical_items(n), viewer)
    sys.stdout.write(json.dumps(doc, ensure_ascii=False, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main()
