// quote_window_running.cc - quote_window.cc with a running sum.
//
// The same signal; MovingAverage keeps the last 32 prices in a ring
// allocated once and a running sum: no allocation per tick.
//
// Verdict: no short-lived-churn. Twin of quote_window.cc, described below.
//
// A trading signal computes, for every price tick, the average of the last
// 32 prices: moving_average copies them into a fresh std::vector<double>
// (256 bytes), averages it and lets it go. 40,000 ticks, 40,000 short-lived
// vectors, where a running sum (or one reused window) needs none.
//
// Verdict: short-lived-churn on moving_average.
// Twin: quote_window_running.cc (a running sum over a ring buffer).
// SPDX-License-Identifier: GPL-3.0-or-later
#include <cstdio>
#include <vector>

constexpr size_t kWindow = 32;

class MovingAverage {
public:
    __attribute__((noinline)) explicit MovingAverage(double initial) : ring_(kWindow, initial), sum_(initial * kWindow) {}
    double add(double price) {
        sum_ += price - ring_[next_];
        ring_[next_] = price;
        next_ = (next_ + 1) % kWindow;
        return sum_ / kWindow;
    }
private:
    std::vector<double> ring_;
    double sum_;
    size_t next_ = 0;
};

int main() {
    std::vector<double> prices;
    prices.reserve(40000 + kWindow);
    for (size_t i = 0; i < kWindow; i++) prices.push_back(100.0);
    MovingAverage moving(100.0);
    int signals = 0;
    double last = 0;
    for (int tick = 0; tick < 40000; tick++) {
        prices.push_back(100.0 + ((tick * 7919) % 200 - 100) / 50.0);
        double average = moving.add(prices.back());
        if ((prices.back() > average) != (last > average)) signals++;
        last = prices.back();
    }
    std::printf("quote_window_running: %d signals\n", signals);
}
