#include "referee/seed_holds.h"

#include <string>

namespace cassino::service {

void SeedHolds::Hold(absl::string_view seed, absl::string_view holder) {
  if (seed.empty()) return;
  absl::MutexLock lock(&mu_);
  auto it = holders_.find(seed);
  if (it == holders_.end()) {
    it = holders_.try_emplace(std::string(seed)).first;
  }
  it->second.emplace(holder);
}

void SeedHolds::Release(absl::string_view seed, absl::string_view holder) {
  absl::MutexLock lock(&mu_);
  auto it = holders_.find(seed);
  if (it == holders_.end()) return;
  if (auto h = it->second.find(holder); h != it->second.end()) {
    it->second.erase(h);
  }
  if (it->second.empty()) holders_.erase(it);
}

bool SeedHolds::HeldByOthers(absl::string_view seed,
                             absl::string_view holder) const {
  if (seed.empty()) return false;
  absl::MutexLock lock(&mu_);
  auto it = holders_.find(seed);
  if (it == holders_.end()) return false;
  return it->second.size() > 1 ||
         (it->second.size() == 1 && *it->second.begin() != holder);
}

}  // namespace cassino::service
