// ingest_bounded.cc - an ingestion service: one receiver, three parser
// threads, a bounded std::deque work queue under pressure (innocent).
//
// The receiver (main) reads requests (receive_request: a std::string
// reserved to 640 bytes, filled with ~600) and pushes them into a BoundedQueue<std::string> of
// capacity 200: a std::deque with a mutex and two condition variables,
// where push waits while the queue is full. Three worker threads pop
// requests and parse them (field splitting and a digest: about six times
// the receiver's cost per request, so the three together parse at half
// the pace requests arrive), then drop them. 3,000 requests.
//
// It looks alarming: every request is freed by another thread, about 200
// wait at once for the whole run, each behind 200 others. But the queue's
// capacity is the bound: the receiver waits whenever the parsers fall
// behind, and the queue sits at its capacity until the input ends.
//
// Verdict: no missing-backpressure, leak or unbounded-growth on
// receive_request.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

template <typename T>
class BoundedQueue {
public:
    explicit BoundedQueue(size_t capacity) : capacity_(capacity) {}
    void push(T item) {
        std::unique_lock<std::mutex> lock(mutex_);
        not_full_.wait(lock, [this] { return items_.size() < capacity_; });
        items_.push_back(std::move(item));
        not_empty_.notify_one();
    }
    std::optional<T> pop() {
        std::unique_lock<std::mutex> lock(mutex_);
        not_empty_.wait(lock, [this] { return !items_.empty() || closed_; });
        if (items_.empty()) return std::nullopt;
        T item = std::move(items_.front());
        items_.pop_front();
        not_full_.notify_one();
        return item;
    }
    void close() {
        std::lock_guard<std::mutex> lock(mutex_);
        closed_ = true;
        not_empty_.notify_all();
    }

private:
    std::mutex mutex_;
    std::condition_variable not_full_, not_empty_;
    std::deque<T> items_;
    size_t capacity_;
    bool closed_ = false;
};

static std::string receive_request(unsigned n) {
    std::string request = "POST /ingest HTTP/1.1\r\nHost: metrics.local\r\nContent-Type: text/csv\r\n\r\n";
    request.reserve(640);   // room for the body: one allocation per request
    uint32_t value = n * 2654435761u;
    while (request.size() < 600) {
        value = value * 1103515245u + 12345u;
        request += std::to_string(value % 100000);
        request += ',';
    }
    return request;
}

static uint64_t parse_request(const std::string& request) {
    uint64_t digest = 1469598103934665603ull;
    size_t body = request.find("\r\n\r\n");
    for (int pass = 0; pass < 12; pass++) {   // split fields, validate, digest
        size_t start = body + 4;
        while (start < request.size()) {
            size_t comma = request.find(',', start);
            if (comma == std::string::npos) comma = request.size();
            for (size_t i = start; i < comma; i++)
                digest = (digest ^ uint8_t(request[i])) * 1099511628211ull;
            start = comma + 1;
        }
    }
    return digest;
}

int main() {
    BoundedQueue<std::string> queue(200);
    std::vector<std::thread> workers;
    std::vector<uint64_t> digests(3);
    for (int w = 0; w < 3; w++)
        workers.emplace_back([&queue, &digests, w] {
            while (auto request = queue.pop()) digests[size_t(w)] ^= parse_request(*request);
        });
    for (unsigned n = 0; n < 3000; n++) queue.push(receive_request(n));
    queue.close();
    for (auto& worker : workers) worker.join();
    std::printf("ingest_bounded: 3000 requests, digest %016llx\n",
                (unsigned long long)(digests[0] ^ digests[1] ^ digests[2]));
    return 0;
}
