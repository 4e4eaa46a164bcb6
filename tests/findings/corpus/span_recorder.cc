// span_recorder.cc - a tracing recorder that reserves room for the worst
// case up front.
//
// A request tracer keeps the spans of one trace in a std::vector<Span>
// and, to never reallocate while recording, its constructor calls
// reserve(kMaxSpans) with kMaxSpans = 262,144: 16 MiB of 64-byte spans.
// A trace of this service has 3,000 spans; they are recorded, sorted by
// start time and exported as text. reserve() only allocates: the unused
// 259,144 slots are never written nor read.
//
// Verdict: oversized-preallocation on SpanRecorder::SpanRecorder: 16 MiB
// reserved for the worst case, 1% of it ever used.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

struct Span {
    uint64_t trace_id, span_id, parent_id;
    uint64_t start_ns, end_ns;
    uint32_t service, operation;
    uint32_t status, flags;
    uint64_t attributes_hash;
};

class SpanRecorder {
public:
    static constexpr size_t kMaxSpans = 262144;
    SpanRecorder() { spans_.reserve(kMaxSpans); }
    void record(const Span& span) { spans_.push_back(span); }
    std::string export_text() {
        std::sort(spans_.begin(), spans_.end(),
                  [](const Span& a, const Span& b) { return a.start_ns < b.start_ns; });
        std::string out;
        char line[160];
        for (const Span& s : spans_) {
            int n = std::snprintf(line, sizeof line, "%016llx %08llx<-%08llx svc=%u op=%u %lluns %s\n",
                                  (unsigned long long)s.trace_id, (unsigned long long)s.span_id,
                                  (unsigned long long)s.parent_id, s.service, s.operation,
                                  (unsigned long long)(s.end_ns - s.start_ns), s.status ? "ERR" : "ok");
            out.append(line, size_t(n));
        }
        return out;
    }

private:
    std::vector<Span> spans_;
};

int main() {
    SpanRecorder recorder;
    uint64_t clock = 1700000000000000000ull;
    for (uint32_t i = 0; i < 3000; i++) {
        Span span{};
        span.trace_id = 0x5eed;
        span.span_id = i + 1;
        span.parent_id = i / 8;
        span.start_ns = clock + (i * 7919u) % 100000;
        span.end_ns = span.start_ns + 1000 + i % 300;
        span.service = i % 12;
        span.operation = i % 40;
        span.status = i % 97 == 0;
        span.attributes_hash = span.span_id * 0x9E3779B97F4A7C15ull;
        recorder.record(span);
    }
    std::string text = recorder.export_text();
    std::printf("span_recorder: exported %zu bytes\n", text.size());
    return 0;
}
