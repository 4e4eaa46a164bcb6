// particles.cc - a particle system constructed for its maximum capacity.
//
// ParticleSystem's constructor allocates its pool for the engine's limit,
// new Particle[100000] (each Particle default-initialised: 32 bytes, 3.2 MB
// written at construction), "so that spawning never allocates". The scene
// this program runs spawns at most ~300 live particles; the other 99,700
// slots are written once by the constructor and never read again.
//
// Verdict: oversized-preallocation on ParticleSystem::ParticleSystem.
// Twin: particles_fixed.cc (a std::vector that grows to what is spawned).
// SPDX-License-Identifier: GPL-3.0-or-later
#include <cstdint>
#include <cstdio>
#include <memory>

struct Particle {
    float x = 0, y = 0, vx = 0, vy = 0;
    float life = 0, size = 1;
    uint32_t color = 0xFFFFFFFF;
    uint32_t alive = 0;
};

class ParticleSystem {
public:
    __attribute__((noinline)) explicit ParticleSystem(size_t capacity = 100000)
        : pool_(new Particle[capacity]), capacity_(capacity) {}

    void spawn(float x, float y, float vx, float vy) {
        for (size_t i = 0; i < used_ + 1 && i < capacity_; i++)
            if (!pool_[i].alive) {
                pool_[i] = Particle{x, y, vx, vy, 2.0f, 1.0f, 0xFF8800FF, 1};
                if (i == used_) used_++;
                return;
            }
    }

    void step(float dt) {
        for (size_t i = 0; i < used_; i++) {
            Particle &p = pool_[i];
            if (!p.alive) continue;
            p.x += p.vx * dt;
            p.y += p.vy * dt;
            p.vy -= 9.81f * dt;
            p.life -= dt;
            if (p.life <= 0) p.alive = 0;
        }
    }

    double energy() const {
        double e = 0;
        for (size_t i = 0; i < used_; i++)
            if (pool_[i].alive) e += pool_[i].vx * pool_[i].vx + pool_[i].vy * pool_[i].vy;
        return e;
    }

private:
    std::unique_ptr<Particle[]> pool_;
    size_t capacity_;
    size_t used_ = 0;
};

int main() {
    ParticleSystem fountain;
    double total = 0;
    for (int frame = 0; frame < 600; frame++) {
        for (int k = 0; k < 5; k++)
            fountain.spawn(0, 0, (frame * 7 + k * 13) % 21 - 10.0f, 20.0f + k);
        fountain.step(1.0f / 60);
        total += fountain.energy();
    }
    std::printf("particles: 600 frames, energy %.1f\n", total);
}
