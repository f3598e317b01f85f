// Mt19937_64: the 64-bit Mersenne Twister of std::mt19937_64, with the same
// seeding and exactly the same output, but twisting its state one word at a
// time as the words are drawn instead of all 312 at once.
//
// Why: a random playout seeds a new generator per game and draws about 50
// words per round, so the batch twist of std::mt19937_64 computed six times
// the words a round uses. Twisting word i just before it is output reads
// the same words as the batch loop does at step i (word i+1 and word i+156,
// each already twisted or not in both), so the two give the same sequence.
//
// The seeding is lazy too: word i of the seeded state is computed only when
// a draw first needs it (output k reads words k, k+1 and k+156), so a
// generator that draws a few dozen words computes about half of the 312.
//
// A UniformRandomBitGenerator, usable with the <random> distributions.

#ifndef CASSINO_TOOLS_PLAYOUT_MT19937_64_H_
#define CASSINO_TOOLS_PLAYOUT_MT19937_64_H_

#include <array>
#include <cstdint>
#include <limits>

namespace cassino {

class Mt19937_64 {
 public:
  using result_type = uint64_t;
  static constexpr result_type default_seed = 5489u;

  explicit Mt19937_64(result_type seed = default_seed) { x_[0] = seed; }

  static constexpr result_type min() { return 0; }
  static constexpr result_type max() {
    return std::numeric_limits<result_type>::max();
  }

  result_type operator()() {
    const int next = i_ + 1 == kN ? 0 : i_ + 1;
    const int far = i_ + kM < kN ? i_ + kM : i_ + kM - kN;
    if (seeded_ < kN) Seed(i_ < kM ? far : kN - 1);
    const uint64_t y = (x_[i_] & kUpper) | (x_[next] & kLower);
    x_[i_] = x_[far] ^ (y >> 1) ^ ((y & 1) ? kA : 0);
    uint64_t z = x_[i_];
    i_ = next;
    z ^= (z >> 29) & 0x5555555555555555ULL;
    z ^= (z << 17) & 0x71d67fffeda60000ULL;
    z ^= (z << 37) & 0xfff7eee000000000ULL;
    z ^= z >> 43;
    return z;
  }

 private:
  static constexpr int kN = 312;
  static constexpr int kM = 156;
  static constexpr uint64_t kA = 0xb5026f5aa96619e9ULL;
  static constexpr uint64_t kF = 6364136223846793005ULL;
  static constexpr uint64_t kUpper = ~uint64_t{0} << 31;
  static constexpr uint64_t kLower = ~kUpper;

  // Computes the seeded words up to x_[last].
  void Seed(int last) {
    for (int i = seeded_; i <= last; ++i) {
      x_[i] = kF * (x_[i - 1] ^ (x_[i - 1] >> 62)) + static_cast<uint64_t>(i);
    }
    if (last >= seeded_) seeded_ = last + 1;
  }

  std::array<uint64_t, kN> x_;
  int seeded_ = 1;  // x_[0, seeded_) hold the seeded (or twisted) words
  int i_ = 0;       // the next word to twist and output
};

}  // namespace cassino

#endif  // CASSINO_TOOLS_PLAYOUT_MT19937_64_H_
