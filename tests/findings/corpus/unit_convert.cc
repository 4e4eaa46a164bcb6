// unit_convert.cc - a small C++ program with iostreams and exceptions
// (innocent).
//
// Converts 2,000 "value unit" strings with std::istringstream, throwing
// std::invalid_argument for unknown units and catching it in main. Any
// program linked with libstdc++ gets its ~71 KiB emergency exception pool,
// allocated by the dynamic loader before main (call_init, no function of
// the program on the stack); in this small program it is most of the peak
// and none of it is ever used. It is the runtime's, not the program's:
// nothing here could change it.
//
// Verdict: no oversized-preallocation and no unused-capacity anywhere (the
// pool's site is checked to exist: a site with a frame in libstdc++).
// SPDX-License-Identifier: GPL-3.0-or-later
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>

static double to_metres(const std::string &text) {
    std::istringstream in(text);
    double value;
    std::string unit;
    if (!(in >> value >> unit)) throw std::invalid_argument("unreadable: " + text);
    if (unit == "m") return value;
    if (unit == "km") return value * 1000;
    if (unit == "ft") return value * 0.3048;
    if (unit == "mi") return value * 1609.344;
    throw std::invalid_argument("unknown unit in \"" + text + "\"");
}

int main() {
    const char *units[] = {"m", "km", "ft", "mi", "furlongs"};
    double total = 0;
    int rejected = 0;
    for (int i = 0; i < 2000; i++) {
        std::ostringstream text;
        text << (i % 97) * 1.5 << ' ' << units[i % 5];
        try {
            total += to_metres(text.str());
        } catch (const std::invalid_argument &) {
            rejected++;
        }
    }
    std::cout << "unit_convert: " << static_cast<long long>(total) << " m, " << rejected << " rejected\n";
}
