// market_feed.cc - a quote feed fanned out to subscribers as
// std::shared_ptr, one subscriber too slow.
//
// The feed thread (main) decodes quotes (Feed::publish: a 512-byte Quote
// with its order book levels, made with std::make_shared) and hands the
// same shared_ptr to every subscriber's inbox: a std::deque guarded by a
// mutex and a condition variable, one per subscriber. The ticker thread
// only reads the best bid and drops its reference at once; the risk thread
// revalues a portfolio against every quote (many times the cost of
// decoding). A quote is freed when its last reference goes, in the risk
// thread; the inboxes have no bound, so quotes pile up in the risk
// thread's inbox for as long as the feed runs.
//
// Verdict: missing-backpressure on Feed::publish (allocated by the feed
// thread, freed by another thread, hundreds waiting); the shared_ptr's
// control block shares the Quote's allocation, so it is one site.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>

struct Quote {
    uint64_t sequence;
    char symbol[8];
    double bid[30], ask[30];
};

class Inbox {
public:
    void push(std::shared_ptr<const Quote> quote) {
        std::lock_guard<std::mutex> lock(mutex_);
        quotes_.push_back(std::move(quote));
        ready_.notify_one();
    }
    std::shared_ptr<const Quote> pop() {
        std::unique_lock<std::mutex> lock(mutex_);
        ready_.wait(lock, [this] { return !quotes_.empty() || closed_; });
        if (quotes_.empty()) return nullptr;
        auto quote = std::move(quotes_.front());
        quotes_.pop_front();
        return quote;
    }
    void close() {
        std::lock_guard<std::mutex> lock(mutex_);
        closed_ = true;
        ready_.notify_all();
    }

private:
    std::mutex mutex_;
    std::condition_variable ready_;
    std::deque<std::shared_ptr<const Quote>> quotes_;
    bool closed_ = false;
};

class Feed {
public:
    Feed(Inbox& ticker, Inbox& risk) : ticker_(ticker), risk_(risk) {}
    void publish(uint64_t sequence) {
        auto quote = std::make_shared<Quote>();
        quote->sequence = sequence;
        std::snprintf(quote->symbol, sizeof quote->symbol, "SYM%u", unsigned(sequence % 40));
        double mid = 100.0 + double(sequence % 997) / 100.0;
        for (int level = 0; level < 30; level++) {
            quote->bid[level] = mid - 0.01 * (level + 1);
            quote->ask[level] = mid + 0.01 * (level + 1);
        }
        ticker_.push(quote);
        risk_.push(std::move(quote));
    }

private:
    Inbox& ticker_;
    Inbox& risk_;
};

int main() {
    const uint64_t quotes = 3000;
    Inbox ticker_inbox, risk_inbox;
    double last_bid = 0, exposure = 0;
    std::thread ticker([&] {
        while (auto quote = ticker_inbox.pop()) last_bid = quote->bid[0];
    });
    std::thread risk([&] {
        while (auto quote = risk_inbox.pop()) {
            // Revalue 40 positions against every level of the book.
            for (int position = 0; position < 40; position++)
                for (int level = 0; level < 30; level++)
                    exposure += (quote->bid[level] + quote->ask[level]) * 0.5 * (position + 1) / (level + 1);
        }
    });
    Feed feed(ticker_inbox, risk_inbox);
    for (uint64_t sequence = 0; sequence < quotes; sequence++) feed.publish(sequence);
    ticker_inbox.close();
    risk_inbox.close();
    ticker.join();
    risk.join();
    std::printf("market_feed: %llu quotes, last bid %.2f, exposure %.0f\n", (unsigned long long)quotes, last_bid,
                exposure);
    return 0;
}
