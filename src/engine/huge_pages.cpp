// Transparent huge pages for long chains' arrays (huge_pages.hpp).
#include "chaindem/engine/huge_pages.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>

namespace chaindem {

void advise_huge_pages(const void* data, std::size_t bytes) {
  constexpr std::uintptr_t huge = std::uintptr_t{2} << 20;
  const auto at = reinterpret_cast<std::uintptr_t>(data);
  const std::uintptr_t begin = (at + huge - 1) & ~(huge - 1), end = (at + bytes) & ~(huge - 1);
  // Advice: a kernel without transparent huge pages refuses it, and nothing changes.
  if (end > begin) (void)madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
}

void zero_untouched(void* data, std::size_t bytes) {
  const std::uintptr_t page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
  const auto at = reinterpret_cast<std::uintptr_t>(data);
  const std::uintptr_t begin = (at + page - 1) & ~(page - 1), end = (at + bytes) & ~(page - 1);
  // MADV_DONTNEED on private anonymous memory: the pages read as zeros from now on. Where it
  // does not apply (or fails), zeros are written.
  if (end <= begin || madvise(reinterpret_cast<void*>(begin), end - begin, MADV_DONTNEED) != 0) {
    std::memset(data, 0, bytes);
    return;
  }
  std::memset(data, 0, begin - at);
  std::memset(reinterpret_cast<void*>(end), 0, at + bytes - end);
}

}  // namespace chaindem
