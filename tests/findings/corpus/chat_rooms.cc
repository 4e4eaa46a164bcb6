// chat_rooms.cc - listeners registered with new and forgotten with clear().
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
        Listener *listener = new Listener;
        listener->name = client;
        members_.push_back(listener);
        return listener;
    }
    void leave(Listener *listener) {
        members_.erase(std::remove(members_.begin(), members_.end(), listener), members_.end());
        // BUG: the listener is never deleted.
    }
    void say(const std::string &text) {
        for (Listener *l : members_) l->deliver(text);
    }
private:
    std::vector<Listener *> members_;
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
    std::printf("chat_rooms: 3000 sessions, %llu bytes delivered\n", static_cast<unsigned long long>(traffic));
}
