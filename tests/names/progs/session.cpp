// session.cpp - C++ allocation sites named by class: a constructor, a
// template member, one helper called from two lines. g++ -O2 -g.
//
// Sites, known by construction (8 sessions):
//   Session::Session    new char[65536] per session (8 blocks)
//   Cache<int>::insert  a std::vector<int> grown by push_back, per session
//   make_buffer         called from two lines of main: 100 and 200 bytes
// SPDX-License-Identifier: GPL-3.0-or-later
#include <cstdio>
#include <vector>

namespace net {

class Session {
public:
    explicit Session(int id) : id_(id), buffer_(new char[65536]) { buffer_[0] = (char)id; }
    ~Session() { delete[] buffer_; }
    int id_;
    char *buffer_;
};

template <typename T> class Cache {
public:
    void insert(const T &value) { items_.push_back(value); }
    std::vector<T> items_;
};

} // namespace net

static char *make_buffer(unsigned bytes)
{
    char *buffer = new char[bytes];
    buffer[0] = 1;
    return buffer;
}

int main()
{
    std::vector<net::Session *> sessions;
    std::vector<net::Cache<int> *> caches;
    std::vector<char *> buffers;
    sessions.reserve(8);
    caches.reserve(8);
    buffers.reserve(16);
    for (int i = 0; i < 8; i++) {
        sessions.push_back(new net::Session(i));
        net::Cache<int> *cache = new net::Cache<int>;
        for (int k = 0; k < 100; k++)
            cache->insert(k);
        caches.push_back(cache);
        buffers.push_back(make_buffer(100));
        buffers.push_back(make_buffer(200));
    }
    long sum = 0;
    for (auto *s : sessions) sum += s->id_ + s->buffer_[0];
    for (auto *c : caches) sum += (long)c->items_.size();
    for (auto *b : buffers) sum += b[0];
    std::printf("%ld\n", sum);
    for (auto *s : sessions) delete s;
    for (auto *c : caches) delete c;
    for (auto *b : buffers) delete[] b;
    return 0;
}
