// The parse floor of a mapped payload: simdjson On-Demand reads, from a
// backend's real shape, every field the built-in mapping of that backend
// reads (Data/mappings/NAME.json), and nothing is formatted or written. Run on
// the same items in the post's shape, it gives the floor's own ratio between
// the shapes: what any reader that looks at every byte once pays for the
// larger payload. Benchmarks/compare-mappings.py builds and times it.
//
// usage: mapped-floor post|sendbird|stream-chat FILE [VIEWER]   (VIEWER: "me")
// build: g++ -O3 -march=native mapped-floor.cpp -lsimdjson -o mapped-floor
//
// Each mapping's paths, read in the document's order (On-Demand reads
// forward only):
// - post: every member of each item, as ../shared/peers/simdjson-floor.cpp.
// - sendbird: channel_url, name, unread_message_count, last_message.message
//   and .created_at, created_at, and of members[*] the user_id, and the
//   nickname and phone_number of those not the viewer.
// - stream-chat: channel.id, .name, .created_at, .last_message_at; of
//   messages[*] the text and created_at (the mapping takes the last, which
//   only a reader that has passed the others can find); of read[*] the
//   user.id, and unread_messages of the viewer's; of members[*] the user_id,
//   and user.name of those not the viewer.
// Prints the number of items and a checksum of what was read, so that nothing
// read can be optimized away.
#include <simdjson.h>
#include <cstdio>
#include <cstring>
#include <string_view>
using namespace simdjson;

static size_t total = 0;

static void take(ondemand::value v) {
  std::string_view s;
  int64_t x;
  if (v.type() == ondemand::json_type::string) {
    if (!v.get_string().get(s)) total += s.size();
  } else if (v.type() == ondemand::json_type::number) {
    if (!v.get_int64().get(x)) total += size_t(x);
  }
}

static void post(ondemand::object item) {
  for (auto field : item) {
    std::string_view key = field.unescaped_key();
    ondemand::value v = field.value();
    if (key == "phone_number") {
      std::string_view s;
      if (!v["international"].get_string().get(s)) total += s.size();
    } else {
      take(v);
    }
  }
}

static void sendbird(ondemand::object channel, std::string_view viewer) {
  for (auto field : channel) {
    std::string_view key = field.unescaped_key();
    ondemand::value v = field.value();
    if (key == "channel_url" || key == "name" || key == "unread_message_count" || key == "created_at") {
      take(v);
    } else if (key == "last_message") {
      if (v.is_null()) continue;
      for (auto m : v.get_object()) {
        std::string_view k = m.unescaped_key();
        if (k == "message" || k == "created_at") take(m.value());
      }
    } else if (key == "members") {
      for (auto member : v.get_array()) {
        bool other = true;
        for (auto m : member.get_object()) {
          std::string_view k = m.unescaped_key();
          if (k == "user_id") {
            std::string_view id;
            if (!m.value().get_string().get(id)) other = id != viewer;
          } else if (other && (k == "nickname" || k == "phone_number")) {
            take(m.value());
          }
        }
      }
    }
  }
}

static void stream_chat(ondemand::object channel, std::string_view viewer) {
  for (auto field : channel) {
    std::string_view key = field.unescaped_key();
    ondemand::value v = field.value();
    if (key == "channel") {
      for (auto c : v.get_object()) {
        std::string_view k = c.unescaped_key();
        if (k == "id" || k == "name" || k == "created_at" || k == "last_message_at") take(c.value());
      }
    } else if (key == "messages") {
      for (auto message : v.get_array()) {
        for (auto m : message.get_object()) {
          std::string_view k = m.unescaped_key();
          if (k == "text" || k == "created_at") take(m.value());
        }
      }
    } else if (key == "read") {
      for (auto read : v.get_array()) {
        bool mine = false;
        for (auto r : read.get_object()) {
          std::string_view k = r.unescaped_key();
          if (k == "user") {
            std::string_view id;
            if (!r.value()["id"].get_string().get(id)) mine = id == viewer;
          } else if (mine && k == "unread_messages") {
            take(r.value());
          }
        }
      }
    } else if (key == "members") {
      for (auto member : v.get_array()) {
        bool other = true;
        for (auto m : member.get_object()) {
          std::string_view k = m.unescaped_key();
          if (k == "user_id") {
            std::string_view id;
            if (!m.value().get_string().get(id)) other = id != viewer;
          } else if (other && k == "user") {
            std::string_view name;
            if (!m.value()["name"].get_string().get(name)) total += name.size();
          }
        }
      }
    }
  }
}

int main(int argc, char** argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: mapped-floor post|sendbird|stream-chat FILE [VIEWER]\n");
    return 64;
  }
  std::string_view shape = argv[1];
  std::string_view viewer = argc > 3 ? argv[3] : "me";
  padded_string json = padded_string::load(argv[2]);
  ondemand::parser parser;
  ondemand::document doc = parser.iterate(json);
  size_t n = 0;
  for (auto item : doc[shape == "post" ? "items" : "channels"]) {
    ondemand::object o = item.get_object();
    if (shape == "post") post(o);
    else if (shape == "sendbird") sendbird(o, viewer);
    else stream_chat(o, viewer);
    n++;
  }
  printf("%zu %zu\n", n, total);
}
