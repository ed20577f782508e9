// Zeroed memory for the ring solver's large arrays.
#pragma once

#if !defined(__wasi__)
#include <sys/mman.h>
#endif

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <new>
#include <span>
#include <utility>

namespace ioiwari {

// Anonymous pages aligned to 2 MiB and marked for huge pages where the kernel offers them
// (transparent huge pages in madvise mode), so that the solver's reads all over its table miss
// the TLB far less and a gigabyte is faulted in 500 steps, not 250,000. Where they are not
// offered, the plain pages serve just as correctly. The pages are given by the kernel as they
// are first touched. An array of less than 16 MiB takes plain pages only. Throws std::bad_alloc
// when the address space is refused. In WebAssembly (the page, docs/browser.md), which has no
// pages to map, it is zeroed memory of the module's own.
template <class T>
class LargeArray {
 public:
  static constexpr std::size_t kHuge = std::size_t{2} << 20;
  static constexpr std::size_t kPage = 4096;
  static constexpr std::size_t kSmall = kHuge * 8;  // 16 MiB

  LargeArray() = default;
  explicit LargeArray(std::size_t count) : count_(count) {
    if (count == 0) return;
#if defined(__wasi__)
    data_ = static_cast<T*>(std::calloc(count, sizeof(T)));
    if (data_ == nullptr) throw std::bad_alloc();
    length_ = count * sizeof(T);
#else
    if (count * sizeof(T) < kSmall) {
      // Small: plain pages, as many as it needs (a huge page would be zeroed whole).
      length_ = (count * sizeof(T) + kPage - 1) / kPage * kPage;
      void* mapped =
          ::mmap(nullptr, length_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (mapped == MAP_FAILED) throw std::bad_alloc();
      data_ = static_cast<T*>(mapped);
      return;
    }
    length_ = (count * sizeof(T) + kHuge - 1) / kHuge * kHuge;
    // Map one huge page more than needed, then trim both ends to a 2 MiB boundary.
    void* mapped = ::mmap(nullptr, length_ + kHuge, PROT_READ | PROT_WRITE,
                          MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mapped == MAP_FAILED) throw std::bad_alloc();
    const auto start = reinterpret_cast<std::uintptr_t>(mapped);
    const auto aligned = (start + kHuge - 1) / kHuge * kHuge;
    if (aligned > start) ::munmap(mapped, aligned - start);
    const std::uintptr_t end = start + length_ + kHuge;
    if (end > aligned + length_)
      ::munmap(reinterpret_cast<void*>(aligned + length_), end - aligned - length_);
    data_ = reinterpret_cast<T*>(aligned);
#ifdef MADV_HUGEPAGE
    ::madvise(data_, length_, MADV_HUGEPAGE);  // a hint: refused, the pages stay small
#endif
#endif
  }
  ~LargeArray() {
    release();
  }
  LargeArray(const LargeArray&) = delete;
  LargeArray& operator=(const LargeArray&) = delete;
  LargeArray(LargeArray&& other) noexcept {
    *this = std::move(other);
  }
  LargeArray& operator=(LargeArray&& other) noexcept {
    if (this != &other) {
      release();
      data_ = std::exchange(other.data_, nullptr);
      count_ = std::exchange(other.count_, 0);
      length_ = std::exchange(other.length_, 0);
    }
    return *this;
  }

  T* data() {
    return data_;
  }
  const T* data() const {
    return data_;
  }
  std::size_t size() const {
    return count_;
  }
  std::span<T> span() {
    return {data_, count_};
  }
  std::span<const T> span() const {
    return {data_, count_};
  }

 private:
  void release() {
#if defined(__wasi__)
    std::free(data_);
#else
    if (data_ != nullptr) ::munmap(data_, length_);
#endif
    data_ = nullptr;
  }
  T* data_ = nullptr;
  std::size_t count_ = 0;
  std::size_t length_ = 0;
};

}  // namespace ioiwari
