// chat_rooms_fixed.cc - chat_rooms.cc with owning pointers.
//
// The same server, but the room owns its listeners through
// std::unique_ptr: leave() erases the member and that deletes it.
//
// Verdict: no leak, no growth (at most a few listeners per room live).
// Twin of chat_rooms.cc, described below.
//
// A chat server: every time a client joins a room, Room::join registers a
// Listener allocated with new (the client's name, a 256-byte outgoing
// buffer). When the client leaves, Room::leave erases the raw pointer from
// the room's vector - but never deletes the listener. The room objects are
// fine; every join leaks one Listener for as long as the server runs.
//
// Verdict: leak on Room::join (listeners allocated all through the run,
// none freed, all live at exit).
// Twin: chat_rooms_fixed.cc (std::vector<std::unique_ptr<Listener>>).
// SPDX-License-Identifier: GPL-3.0-or-later
#include <algorithm>
#include <cstdint>
#include <memory>
#include <cstdio>
#include <string>
#include <vector>

struct Listener {
    std::string name;
    char outgoing[256];
    uint64_t delivered = 0;
    void deliver(const std::string &text) {
        size_t n = std::min(text.size(), sizeof outgoing - 1);
        text.copy(outgoing, n);
        outgoing[n] = 0;
        delivered += n;
    }
};

class Room {
public:
    __attribute__((noinline)) Listener *join(const std::string &client) {
        members_.push_back(std::make_unique<Listener>());
        members_.back()->name = client;
        return members_.back().get();
    }
    void leave(Listener *listener) {
        members_.erase(std::remove_if(members_.begin(), members_.end(),
                                      [&](const std::unique_ptr<Listener> &m) { return m.get() == listener; }),
                       members_.end());
    }
    void say(const std::string &text) {
        for (auto &l : members_) l->deliver(text);
    }
private:
    std::vector<std::unique_ptr<Listener>> members_;
};

int main() {
    std::vector<Room> rooms(8);
    uint64_t traffic = 0;
    for (int session = 0; session < 3000; session++) {
        Room &room = rooms[session % rooms.size()];
        Listener *me = room.join("client-" + std::to_string(session) + "@chat.example.org");
        for (int line = 0; line < 6; line++)
            room.say("message " + std::to_string(line) + " from session " + std::to_string(session)
                     + ": the quick brown fox jumps over the lazy dog");
        traffic += me->delivered;
        room.leave(me);
    }
    std::printf("chat_rooms_fixed: 3000 sessions, %llu bytes delivered\n", static_cast<unsigned long long>(traffic));
}
