// frame_encoder.cc - a capture thread feeding an encoder through std::queue.
//
// Camera::capture() grabs a frame (a std::vector<uint8_t> of 4 KiB) and
// pushes it onto a std::queue guarded by a std::mutex and a
// std::condition_variable; the encoder thread pops frames one at a time and
// runs a (slow) transform over each before dropping it. Nothing limits the
// queue: capture is cheaper than encoding, so frames pile up.
//
// Verdict: missing-backpressure on Camera::capture (each frame allocated by
// the capture thread, freed by the encoder, hundreds waiting).
// Twin: frame_encoder_bounded.cc (push waits while 8 frames are queued).
// SPDX-License-Identifier: GPL-3.0-or-later
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <mutex>
#include <queue>
#include <thread>
#include <vector>

using Frame = std::vector<uint8_t>;

class FrameQueue {
public:
    void push(Frame frame) {
        std::lock_guard<std::mutex> guard(lock_);
        frames_.push(std::move(frame));
        ready_.notify_one();
    }
    bool pop(Frame &frame) {
        std::unique_lock<std::mutex> guard(lock_);
        ready_.wait(guard, [this] { return !frames_.empty() || closed_; });
        if (frames_.empty()) return false;
        frame = std::move(frames_.front());
        frames_.pop();
        return true;
    }
    void close() {
        std::lock_guard<std::mutex> guard(lock_);
        closed_ = true;
        ready_.notify_all();
    }
private:
    std::mutex lock_;
    std::condition_variable ready_;
    std::queue<Frame> frames_;
    bool closed_ = false;
};

class Camera {
public:
    explicit Camera(unsigned seed) : state_(seed) {}
    __attribute__((noinline)) Frame capture() {
        Frame frame(kFrameBytes);
        for (auto &pixel : frame) {
            state_ = state_ * 1664525u + 1013904223u;
            pixel = static_cast<uint8_t>(state_ >> 24);
        }
        return frame;
    }
    static constexpr size_t kFrameBytes = 4096;
private:
    uint32_t state_;
};

// A stand-in for the codec: a few rounds of a DCT-like butterfly over rows.
static uint64_t encode(const Frame &frame) {
    uint64_t bits = 0;
    std::vector<int> row(64);
    for (int round = 0; round < 2; round++)
        for (size_t base = 0; base + 64 <= frame.size(); base += 64) {
            for (int i = 0; i < 64; i++) row[i] = frame[base + i];
            for (int step = 32; step > 0; step /= 2)
                for (int i = 0; i < 64; i++)
                    if ((i & step) == 0) {
                        int a = row[i], b = row[i + step];
                        row[i] = a + b;
                        row[i + step] = a - b;
                    }
            for (int i = 0; i < 64; i++) bits += static_cast<uint64_t>(row[i] * (i + round));
        }
    return bits;
}

int main() {
    FrameQueue queue;
    uint64_t encoded = 0;
    std::thread encoder([&] {
        Frame frame;
        while (queue.pop(frame)) encoded += encode(frame);
    });
    Camera camera(2024);
    for (int i = 0; i < 1000; i++) queue.push(camera.capture());
    queue.close();
    encoder.join();
    std::printf("frame_encoder: 1000 frames, %016llx\n", static_cast<unsigned long long>(encoded));
}
