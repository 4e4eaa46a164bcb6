// dedup_filter_window.cc - dedup_filter.cc with a bounded window of ids.
//
// The same consumer, but DedupFilter::admit keeps the ids of the last 512
// messages only (a std::deque in arrival order next to the set): the oldest
// id is forgotten when a new one arrives. Redeliveries come within a few
// hundred messages, so it drops exactly the same duplicates.
//
// Verdict: no unbounded-growth, no leak (at most 512 ids live, flat after
// the first 512 messages). Twin of dedup_filter.cc, described below.
//
// A message consumer drops redeliveries: DedupFilter::admit keeps the id of
// every message it has seen in a std::unordered_set<std::string> and
// rejects ids it already holds. Redeliveries only ever happen within a few
// hundred messages, but the set is never pruned: it grows with every
// message for as long as the consumer runs (the set is destroyed at exit).
//
// Verdict: unbounded-growth on DedupFilter::admit (its set nodes and id
// strings, allocated throughout, held until the end, one thread).
// Twin: dedup_filter_window.cc (remembers the last 512 ids only).
// SPDX-License-Identifier: GPL-3.0-or-later
#include <cstdint>
#include <cstdio>
#include <deque>
#include <string>
#include <unordered_set>

class DedupFilter {
public:
    __attribute__((noinline)) bool admit(const std::string &id) {
        if (!seen_.insert(id).second) return false;
        order_.push_back(id);
        if (order_.size() > kWindow) {
            seen_.erase(order_.front());
            order_.pop_front();
        }
        return true;
    }
    size_t size() const { return seen_.size(); }
private:
    std::unordered_set<std::string> seen_;
    std::deque<std::string> order_;
    static constexpr size_t kWindow = 512;
};

static std::string message_id(uint32_t n) {
    char id[64];
    std::snprintf(id, sizeof id, "msg-%08x-%04x-tenant-%02u-partition-%02u", n * 2654435761u, n & 0xFFFF,
                  n % 17, n % 5);
    return id;
}

int main() {
    DedupFilter filter;
    uint64_t processed = 0, duplicates = 0;
    for (uint32_t n = 0; n < 12000; n++) {
        // Every tenth message is a redelivery of one from a few hundred ago.
        uint32_t which = (n % 10 == 9 && n > 300) ? n - 1 - (n * 7) % 300 : n;
        if (filter.admit(message_id(which))) processed += which & 0xFF;
        else duplicates++;
    }
    std::printf("dedup_filter_window: %llu processed, %llu duplicates, %zu ids kept\n",
                static_cast<unsigned long long>(processed), static_cast<unsigned long long>(duplicates),
                filter.size());
}
