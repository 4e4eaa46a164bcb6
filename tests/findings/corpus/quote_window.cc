// quote_window.cc - a temporary vector per tick for a moving average.
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

__attribute__((noinline)) double moving_average(const std::vector<double> &prices) {
    std::vector<double> window(prices.end() - kWindow, prices.end());
    double sum = 0;
    for (double p : window) sum += p;
    return sum / window.size();
}

int main() {
    std::vector<double> prices;
    prices.reserve(40000 + kWindow);
    for (size_t i = 0; i < kWindow; i++) prices.push_back(100.0);
    int signals = 0;
    double last = 0;
    for (int tick = 0; tick < 40000; tick++) {
        prices.push_back(100.0 + ((tick * 7919) % 200 - 100) / 50.0);
        double average = moving_average(prices);
        if ((prices.back() > average) != (last > average)) signals++;
        last = prices.back();
    }
    std::printf("quote_window: %d signals\n", signals);
}
