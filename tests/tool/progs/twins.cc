// Two sites named by the same line: map[key] allocates a tree node and a
// copy of the (long, not small-string) key.  Their callers are the same,
// so the summary tells them apart by the frame that called the allocator:
// "count_words (twins.cc:N), allocated by ...".  200 keys: 200 nodes of 72
// bytes (14,400) and 200 key copies of 32 bytes (31 characters and the NUL:
// 6,400).
#include <map>
#include <string>

static std::map<std::string, int> count_words()
{
   std::map<std::string, int> counts;
   for (int i = 0; i < 200; i++) {
      std::string word = "a-long-word-that-is-heap-" + std::to_string(100000 + i);
      counts[word]++;                             // SITE count
   }
   return counts;
}

int main()
{
   std::map<std::string, int> counts = count_words();
   return counts.size() == 200 ? 0 : 1;
}
