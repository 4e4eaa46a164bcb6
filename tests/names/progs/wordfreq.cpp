// wordfreq.cpp - word counts of a generated text, written the way one
// writes it: std::string built by +=, std::unordered_map<std::string, int>
// by operator[], std::map of vectors, a sorted vector of pairs resized.
// g++ -O2 -g and g++ -O0 -g.
//
// Every site is named by the function of this file that made the call
// (count_words, group_by_count, top_words, make_text), never by a libstdc++
// internal. count_words's map holds 600 distinct words (10 words x 200
// numbers, i % 200 and the word chosen by i: each pair occurs), one hash
// node each: a pair<const std::string, int> (40 bytes) with the next
// pointer and the cached hash, 56 bytes. libstdc++'s emergency exception
// pool (allocated before main) is the runtime's: ranked after every site
// of the program.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <algorithm>
#include <cstdio>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

static std::string make_text(int words)
{
    static const char *vocab[] = {"alpha", "beta", "gamma", "delta", "epsilon",
                                  "zeta", "eta", "theta", "iota", "kappa"};
    std::string text;
    for (int i = 0; i < words; i++) {
        text += vocab[(i * 7 + i / 3) % 10];
        text += std::to_string(i % 200);
        text += ' ';
    }
    return text;
}

static std::unordered_map<std::string, int> count_words(const std::string &text)
{
    std::unordered_map<std::string, int> counts;
    std::string word;
    for (char c : text) {
        if (c == ' ') {
            if (!word.empty()) counts[word]++;
            word.clear();
        } else {
            word.push_back(c);
        }
    }
    return counts;
}

static std::map<int, std::vector<std::string>> group_by_count(
    const std::unordered_map<std::string, int> &counts)
{
    std::map<int, std::vector<std::string>> groups;
    for (const auto &entry : counts)
        groups[entry.second].push_back(entry.first);
    return groups;
}

static std::vector<std::pair<std::string, int>> top_words(
    const std::unordered_map<std::string, int> &counts, size_t n)
{
    std::vector<std::pair<std::string, int>> sorted;
    for (const auto &entry : counts)
        sorted.emplace_back(entry.first, entry.second);
    std::sort(sorted.begin(), sorted.end(),
              [](const auto &a, const auto &b) { return a.second > b.second; });
    sorted.resize(std::min(n, sorted.size()));
    return sorted;
}

int main()
{
    std::string text = make_text(20000);
    auto counts = count_words(text);
    auto groups = group_by_count(counts);
    auto top = top_words(counts, 5);
    std::printf("%zu words, %zu distinct, %zu groups, top %s\n", text.size(),
                counts.size(), groups.size(), top[0].first.c_str());
    return 0;
}
