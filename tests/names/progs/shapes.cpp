// shapes.cpp - a scene of polymorphic shapes (std::unique_ptr, make_unique,
// make_shared), an event log (std::list, std::deque), callbacks in
// std::function holding lambdas, a description by std::ostringstream.
// g++ -O2 -g and g++ -O0 -g.
//
// Sites, known by construction: 4 textures of 64 x 64 unsigned (16 KiB
// each, Texture::Texture); 200 Rect objects (vtable pointer and two
// doubles, 24 bytes, Scene::add_rect); 500 events kept in the list (one
// every second tick of 1000), each node the two list pointers and an
// Event (int and std::string: 40 bytes), 56 bytes (EventLog::record); the
// 500 event names made by the first lambda, "prefix + to_string(t)"
// (main::{lambda(int)#1}).
// SPDX-License-Identifier: GPL-3.0-or-later
#include <cstdio>
#include <deque>
#include <functional>
#include <list>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

struct Shape {
    virtual ~Shape() = default;
    virtual double area() const = 0;
};
struct Circle : Shape {
    explicit Circle(double r) : r_(r) {}
    double area() const override { return 3.14159 * r_ * r_; }
    double r_;
};
struct Rect : Shape {
    Rect(double w, double h) : w_(w), h_(h) {}
    double area() const override { return w_ * h_; }
    double w_, h_;
};

struct Texture {
    explicit Texture(int size) : pixels(size * size) {}
    std::vector<unsigned> pixels;
};

class Scene {
public:
    void add_circle(double r) { shapes_.push_back(std::make_unique<Circle>(r)); }
    void add_rect(double w, double h) { shapes_.emplace_back(new Rect(w, h)); }
    std::shared_ptr<Texture> load_texture(int size)
    {
        auto texture = std::make_shared<Texture>(size);
        textures_.push_back(texture);
        return texture;
    }
    double total_area() const
    {
        double sum = 0;
        for (const auto &s : shapes_) sum += s->area();
        return sum;
    }
    std::vector<std::unique_ptr<Shape>> shapes_;
    std::vector<std::shared_ptr<Texture>> textures_;
};

class EventLog {
public:
    void record(int id, const std::string &what)
    {
        events_.push_back(Event{id, what});
        recent_.push_back(id);
        if (recent_.size() > 64) recent_.pop_front();
    }
    struct Event { int id; std::string what; };
    std::list<Event> events_;
    std::deque<int> recent_;
};

class Scheduler {
public:
    void every(int ticks, std::function<void(int)> job) { jobs_.push_back({ticks, std::move(job)}); }
    void run(int ticks)
    {
        for (int t = 1; t <= ticks; t++)
            for (auto &j : jobs_)
                if (t % j.first == 0) j.second(t);
    }
    std::vector<std::pair<int, std::function<void(int)>>> jobs_;
};

static std::string describe(const Scene &scene)
{
    std::ostringstream out;
    out << "scene of " << scene.shapes_.size() << " shapes, area " << scene.total_area()
        << ", " << scene.textures_.size() << " textures";
    return out.str();
}

int main()
{
    Scene scene;
    EventLog log;
    for (int i = 0; i < 200; i++) {
        scene.add_circle(i);
        scene.add_rect(i, i + 1);
    }
    for (int i = 0; i < 4; i++) scene.load_texture(64);
    Scheduler sched;
    std::string prefix = "tick number for a long enough event name ";
    sched.every(2, [&log, prefix](int t) { log.record(t, prefix + std::to_string(t)); });
    sched.every(5, [&scene](int t) { if (t % 50 == 0) scene.add_circle(t); });
    sched.run(1000);
    std::string text = describe(scene);
    std::printf("%s, %zu events\n", text.c_str(), log.events_.size());
    return 0;
}
