// The ring solver's parts: the index (positions and lines), the second copies of the rules that
// speed needs (canonical boards and sowing on packed digits, each held to its first statement
// here), and the layered solve with its exchange and its pieces.
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <barrier>
#include <cstring>
#include <system_error>
#include <thread>
#include <vector>

#include "catch.hpp"
#include "ioiwari/core/board.hpp"
#include "ioiwari/core/packed_sowing.hpp"
#include "ioiwari/core/random.hpp"
#include "ioiwari/core/ring_index.hpp"
#include "ioiwari/core/ring_solver.hpp"
#include "ioiwari/core/ring_table.hpp"
#include "ioiwari/core/sowing.hpp"

using namespace ioiwari;

namespace {

// A random packed board of `ring`.
Packed random_packed(Random& random, Ring ring) {
  Packed packed = 0;
  for (int pit = 0; pit < ring.pits; ++pit)
    packed |= static_cast<Packed>(random.below(ring.capacity + 1)) << (4 * pit);
  return packed;
}

// Every playable ring of 3 to 16 pits, each capacity, called with N as a constant.
template <class Check, int... N>
void for_sizes(Check&& check, std::integer_sequence<int, N...>) {
  (check(std::integral_constant<int, N + kMinPits>{}), ...);
}
template <class Check>
void for_every_size(Check&& check) {
  for_sizes(check, std::make_integer_sequence<int, kMaxPits - kMinPits + 1>{});
}

// Whether this CPU has BMI2, so that the PDEP copy can run.
bool has_bmi2() {
#if defined(__x86_64__) && defined(__GNUC__)
  return __builtin_cpu_supports("bmi2");
#else
  return false;
#endif
}

// Plays `pit` of `packed` both ways; false when the packed copy plays it, and plays it otherwise
// than sow().
template <int N, Select kSelect>
bool sows_alike(Packed packed, int pit, int capacity, int& fallbacks) {
  PackedPits pits{packed};
  const Sown sown = sow(pits, pit, N, capacity, [](SowKind, int, int) {});
  Packed fast = packed;
  int net = 1000;
  if (!sow_packed<N, kSelect>(fast, pit, capacity, net)) {
    ++fallbacks;
    return fast == packed && net == 1000;  // left untouched, for sow()
  }
  return fast == pits.bits && net == sown.mover_gain - sown.opponent_gain;
}

}  // namespace

TEST_CASE("ring index: number_of reads digits in any base from 2 to 10", "[ring-solver]") {
  Random random(3);
  for (int base = 2; base <= 10; ++base) {
    for (int trial = 0; trial < 2000; ++trial) {
      Packed digits = 0;
      std::uint64_t number = 0;
      const int count = 1 + random.below(16);
      for (int place = count - 1; place >= 0; --place) {
        const int d = random.below(base);
        digits |= static_cast<Packed>(d) << (4 * place);
        number = number * static_cast<std::uint64_t>(base) + static_cast<std::uint64_t>(d);
      }
      INFO("base " << base << ", digits " << std::hex << digits);
      REQUIRE(number_of(digits, Radix::of(base)) == number);
    }
  }
  // The largest: sixteen nines.
  CHECK(number_of(0x9999999999999999, Radix::of(10)) == 9999999999999999);
}

TEST_CASE("ring index: the written-out canonical rotation is the looped one, on every size",
          "[ring-solver]") {
  Random random(5);
  for_every_size([&](auto n) {
    constexpr int N = decltype(n)::value;
    for (int capacity = kMinCapacity; capacity <= kMaxCapacity; ++capacity) {
      const Ring ring{N, capacity};
      if (!ring.playable()) continue;
      for (int trial = 0; trial < 500; ++trial) {
        const Packed packed = random_packed(random, ring);
        INFO(ring.describe() << ", board " << std::hex << packed);
        REQUIRE(canonical_packed<N>(packed) == canonical_packed(packed, N));
      }
    }
  });
}

TEST_CASE("ring index: positions follow code order, and board_at() undoes position()",
          "[ring-solver]") {
  for (int pits = kMinPits; pits <= 7; ++pits) {
    for (int capacity = kMinCapacity; capacity <= 5; ++capacity) {
      const Ring ring{pits, capacity};
      const RingIndex index(ring);
      INFO(ring.describe());
      std::uint64_t last = 0, canonical = 0;
      for (Board::Code code = 0; code < ring.code_count(); ++code) {
        const Board board = Board::from_code(code, ring);
        if (board.canonical() != board) continue;
        const Packed packed = pack(board);
        const std::uint64_t position = index.position(packed);
        REQUIRE(position < index.positions());
        REQUIRE((canonical == 0 || position > last));
        REQUIRE(index.board_at(position) == packed);
        REQUIRE(code_of(packed, ring.base()) == code);
        last = position;
        ++canonical;
      }
      CHECK(canonical == RingGeometry(ring).classes());
      CHECK(index.board_at(index.positions()) > packed_of(ring.code_count() - 1, ring));
    }
  }
  // 12 pits of capacity 5: 416 million positions, of 2.2 billion codes.
  CHECK(RingIndex(Ring{12, 5}).positions() == 415'998'681);
}

TEST_CASE(
    "ring index: the necklace walk gives every canonical board of a sum and a range, in order",
    "[ring-solver]") {
  // Against every code of the ring: its canonical boards, in code order, those of each sum apart;
  // each walked whole, and between two of its boards (from the one, to the other left out).
  Random random(0x0ec1ace);
  for (int pits = kMinPits; pits <= 8; ++pits) {
    for (int capacity = kMinCapacity; capacity <= (pits <= 6 ? 6 : 3); ++capacity) {
      const Ring ring{pits, capacity};
      INFO(ring.describe());
      std::vector<std::vector<Packed>> by_sum(static_cast<std::size_t>(ring.max_beads() + 1));
      std::vector<Packed> all;
      for (Board::Code code = 0; code < ring.code_count(); ++code) {
        const Packed packed = packed_of(code, ring);
        if (canonical_packed(packed, pits) != packed) continue;
        all.push_back(packed);
        by_sum[static_cast<std::size_t>(beads_of(packed))].push_back(packed);
      }
      const auto walk = [&](int sum, Packed from, Packed to) {
        std::vector<Packed> found;
        for_each_necklace(pits, capacity, sum, from, to,
                          [&](Packed packed) { found.push_back(packed); });
        return found;
      };
      const auto between = [](const std::vector<Packed>& boards, Packed from, Packed to) {
        std::vector<Packed> kept;
        for (Packed packed : boards) {
          if (packed >= from && packed < to) kept.push_back(packed);
        }
        return kept;
      };
      REQUIRE(walk(-1, 0, ~Packed{0}) == all);
      for (int sum = 0; sum <= ring.max_beads(); ++sum) {
        const auto& boards = by_sum[static_cast<std::size_t>(sum)];
        INFO("sum " << sum);
        REQUIRE(walk(sum, 0, ~Packed{0}) == boards);
        for (int draw = 0; draw < 8; ++draw) {
          const Packed from =
              all[static_cast<std::size_t>(random.below(static_cast<int>(all.size())))];
          const Packed to =
              all[static_cast<std::size_t>(random.below(static_cast<int>(all.size())))];
          REQUIRE(walk(sum, from, to) == between(boards, from, to));
          REQUIRE(walk(-1, from, to) == between(all, from, to));
        }
      }
    }
  }
}

TEST_CASE("ring index: a class's rank counts the canonical codes below it", "[ring-solver]") {
  for (const Ring ring : {Ring{5, 3}, Ring{6, 4}, Ring{7, 2}, Ring{3, 9}}) {
    const auto table = RingTable::solve(RingGeometry::of(ring), {});
    INFO(ring.describe());
    std::uint64_t rank = 0;
    for (Board::Code code = 0; code < ring.code_count(); ++code) {
      const Board board = Board::from_code(code, ring);
      if (board.canonical() != board) continue;
      REQUIRE(raw(table->class_of(board)) == rank);
      ++rank;
    }
    CHECK(rank == table->classes());
    // Every line's counts are what its bits give.
    const auto lines = table->lines();
    for (std::size_t at = 0; at < lines.size(); at += kLineWords)
      REQUIRE(lines[at + 1] == line_counts(lines.data() + at));
  }
}

TEST_CASE("sowing: the packed copy plays every move as sow() does, or leaves it to sow()",
          "[ring-solver][rules]") {
  // Both ways of selecting, on every move of a board; the moves and the portable copy's
  // fallbacks are counted. Returns false at the first move played otherwise than sow() plays it.
  struct Tally {
    std::uint64_t moves = 0;
    int fallbacks = 0, bmi2_fallbacks = 0;
  };
  const auto all_moves_alike = [](auto n, Packed packed, int capacity, Tally& tally) {
    constexpr int N = decltype(n)::value;
    for (int pit = 0; pit < N; ++pit) {
      if (digit(packed, pit) == 0) continue;
      ++tally.moves;
      const bool alike =
          sows_alike<N, Select::portable>(packed, pit, capacity, tally.fallbacks) &&
          (!has_bmi2() || sows_alike<N, Select::bmi2>(packed, pit, capacity, tally.bmi2_fallbacks));
      if (!alike) {
        FAIL_CHECK("board " << std::hex << packed << std::dec << ", pit " << pit + 1
                            << ", capacity " << capacity);
        return false;
      }
    }
    return true;
  };
  // Every board of a ring; the tally of its moves.
  const auto every_board = [&](auto n, int capacity) {
    const Ring ring{decltype(n)::value, capacity};
    Tally tally;
    for (Board::Code code = 0; code < ring.code_count(); ++code) {
      if (!all_moves_alike(n, packed_of(code, ring), capacity, tally)) break;
    }
    return tally;
  };
  // Every ring of up to 8 pits with at most 2 million boards: all the rings the suite solves
  // board by board (3 to 5 pits, 8 pits of capacity 4, the IOI ring), and more: 47 rings.
  int rings = 0;
  const auto every_small_ring = [&](auto n) {
    for (int capacity = kMinCapacity; capacity <= kMaxCapacity; ++capacity) {
      const Ring ring{decltype(n)::value, capacity};
      if (ring.playable() && ring.code_count() <= 2'000'000) {
        every_board(n, capacity);
        ++rings;
      }
    }
  };
  every_small_ring(std::integral_constant<int, 3>{});
  every_small_ring(std::integral_constant<int, 4>{});
  every_small_ring(std::integral_constant<int, 5>{});
  every_small_ring(std::integral_constant<int, 6>{});
  every_small_ring(std::integral_constant<int, 7>{});
  every_small_ring(std::integral_constant<int, 8>{});
  CHECK(rings == 47);
  // Random boards of every size and capacity.
  Random random(9);
  for_every_size([&](auto n) {
    constexpr int N = decltype(n)::value;
    for (int capacity = kMinCapacity; capacity <= kMaxCapacity; ++capacity) {
      const Ring ring{N, capacity};
      if (!ring.playable()) continue;
      Tally tally;
      for (int trial = 0; trial < 300; ++trial) {
        if (!all_moves_alike(n, random_packed(random, ring), capacity, tally)) break;
      }
    }
  });
  // On the IOI ring the packed copy plays most moves itself: the moves it leaves to sow() are
  // those whose hand comes round past its own pit, and both ways of selecting leave the same.
  const Tally ioi = every_board(std::integral_constant<int, 7>{}, 5);
  CHECK(static_cast<std::uint64_t>(ioi.fallbacks) * 4 < ioi.moves);
  if (has_bmi2()) CHECK(ioi.bmi2_fallbacks == ioi.fallbacks);
}

TEST_CASE("ring solver: a solve cut into many pieces on many threads is byte for byte one thread's",
          "[ring-solver]") {
  const Ring ring{8, 5};
  SolveOptions one;
  one.threads = 1;
  SolveOptions five;
  five.threads = 5;
  const auto alone = RingTable::solve(RingGeometry::of(ring), one);
  const auto shared = RingTable::solve(RingGeometry::of(ring), five);
  REQUIRE(alone->lines().size() == shared->lines().size());
  CHECK(std::equal(alone->lines().begin(), alone->lines().end(), shared->lines().begin()));
  CHECK(std::equal(alone->values().begin(), alone->values().end(), shared->values().begin()));
  // The pieces cover the lines, and their counts by layer are Burnside's.
  const RingGeometry geometry(ring);
  const Pieces pieces(geometry, Share{}, 5);
  CHECK(pieces.size() == geometry.lines());  // fewer lines than 5 threads' pieces: one each
  CHECK(pieces.first_line(0) == 0);
  CHECK(pieces.end_line(pieces.size() - 1) == geometry.lines());
}

TEST_CASE("ring solver: where the system gives no thread, the solve is the same on one",
          "[ring-solver]") {
  // CMS runs a task's manager in a box that lets it run one process (isolate's --processes=1,
  // a limit on the processes of the box's user): every thread the solve asks for is refused.
  // The child becomes such a process: a user of no other process (root is not limited), and
  // at most one process for that user.
  const Ring ring{8, 5};
  SolveOptions one;
  one.threads = 1;
  const auto alone = RingTable::solve(RingGeometry::of(ring), one);
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    if (::geteuid() == 0 && (::setgid(65534) != 0 || ::setuid(65534) != 0)) ::_exit(3);
    const rlimit one_process{1, 1};
    if (::setrlimit(RLIMIT_NPROC, &one_process) != 0) ::_exit(3);
    try {
      std::thread([] {}).join();
      ::_exit(4);  // a thread was made: this is no test of a box without them
    } catch (const std::system_error&) {
    }
    try {
      SolveOptions four;
      four.threads = 4;
      const auto solved = RingTable::solve(RingGeometry::of(ring), four);
      const bool same =
          std::equal(alone->lines().begin(), alone->lines().end(), solved->lines().begin()) &&
          std::equal(alone->values().begin(), alone->values().end(), solved->values().begin());
      ::_exit(same ? 0 : 5);
    } catch (...) {
      ::_exit(6);  // the solve failed: the child never returns to the test runner
    }
  }
  int status = 0;
  REQUIRE(::waitpid(child, &status, 0) == child);
  REQUIRE(WIFEXITED(status));
  // 3: no box could be made; 4: threads ran; 5: another table; 6: the solve failed
  CHECK(WEXITSTATUS(status) == 0);
}

namespace {

// An exchange that answers from the solving process's own memory, as the local one does, but
// runs on one thread and asks for more rounds than the batches need, as a process of a
// distributed solve does when another process has more: the extra rounds come with nothing.
class PaddedExchange final : public Exchange {
 public:
  PaddedExchange(const RingPart& part, std::size_t depth) : local_(part), depth_(depth) {}
  bool concurrent() const override { return false; }
  // Depth 0: not pipelined; else rounds finished `depth` batches after their start.
  bool pipelined() const override { return depth_ > 0; }
  std::size_t depth() const override { return depth_; }
  void start(std::span<std::uint64_t> positions) override {
    ++started_;
    Exchange::start(positions);
  }
  void finish(std::span<std::int8_t> values) override {
    ++finished_;
    // After this one, the depth in flight at most: the rounds started after it.
    CHECK(started_ - finished_ <= depth_);
    Exchange::finish(values);
  }
  std::uint64_t rounds(int, std::uint64_t batches) override {
    expected_ += batches + 2;
    return batches + 2;
  }
  void values(std::span<std::uint64_t> positions, std::span<std::int8_t> values) override {
    ++calls_;
    if (positions.empty()) ++empty_;
    local_.values(positions, values);
  }
  std::uint64_t expected_ = 0, calls_ = 0, empty_ = 0, started_ = 0, finished_ = 0;

 private:
  LocalExchange local_;
  std::size_t depth_;
};

}  // namespace

TEST_CASE(
    "ring solver: one thread makes exactly the rounds its exchange asks for, pipelined or not",
    "[ring-solver]") {
  const Ring ring{7, 4};
  const auto reference = RingTable::solve(RingGeometry::of(ring), {});
  const RingGeometry geometry(ring);
  for (const std::size_t depth : {0, 1, 3}) {
    INFO("rounds in flight: " << depth);
    std::vector<std::uint64_t> lines(geometry.lines() * kLineWords, 0);
    std::vector<std::int8_t> values(geometry.classes(), 0);
    SolveOptions options;
    options.threads = 1;
    LayeredSolve solve(geometry, Share{}, options);
    CHECK(solve.index(lines) == geometry.classes());
    CHECK(solve.pieces().total() == geometry.classes());
    RingPart part;
    part.geometry = &geometry;
    part.classes = geometry.classes();
    part.lines = lines.data();
    part.values = values.data();
    PaddedExchange exchange(part, depth);
    solve.solve(part, exchange, values);
    CHECK(exchange.calls_ == exchange.expected_);
    CHECK(exchange.started_ == (depth == 0 ? 0 : exchange.expected_));
    CHECK(exchange.finished_ == exchange.started_);
    // Two padding rounds a layer, and the batch of layer 0 (the empty board, which has no move).
    CHECK(exchange.empty_ == 2 * static_cast<std::uint64_t>(ring.max_beads() + 1) + 1);
    CHECK(std::equal(values.begin(), values.end(), reference->values().begin()));
    CHECK(std::equal(lines.begin(), lines.end(), reference->lines().begin()));
    // A check of the solved values finds nothing wrong; one changed value is found.
    CHECK_FALSE(solve.check(part, exchange).has_value());
    values[1234] = static_cast<std::int8_t>(values[1234] + 1);
    const std::optional<Rank> wrong = solve.check(part, exchange);
    REQUIRE(wrong.has_value());
    CHECK(raw(*wrong) == 1234);
  }
}

namespace {

// The parts of a job of several processes, played by threads of this one: each thread solves its
// own share, and the exchange answers each position from the part that holds it. The rounds of a
// layer are agreed as MPI's would be: every thread waits at a barrier with its count of batches,
// and all take the largest; so no part reads a layer before every part has solved the layers
// below it.
class Job {
 public:
  explicit Job(int processes)
      : parts_(static_cast<std::size_t>(processes)),
        batches_(parts_.size(), 0),
        barrier_(processes) {}

  RingPart& part(int p) { return parts_[static_cast<std::size_t>(p)]; }

  class Member final : public Exchange {
   public:
    Member(Job& job, int me) : job_(job), me_(me), asked_of(job.parts_.size(), 0) {}
    bool concurrent() const override { return false; }
    // Pipelined, as MPI's is: a round is finished two batches after it started.
    bool pipelined() const override { return true; }
    std::size_t depth() const override { return 2; }
    std::uint64_t rounds(int, std::uint64_t batches) override {
      job_.batches_[static_cast<std::size_t>(me_)] = batches;
      job_.barrier_.arrive_and_wait();
      const std::uint64_t most = *std::max_element(job_.batches_.begin(), job_.batches_.end());
      job_.barrier_.arrive_and_wait();  // every member has read the counts
      return most;
    }
    void values(std::span<std::uint64_t> positions, std::span<std::int8_t> values) override {
      for (std::size_t i = 0; i < positions.size(); ++i) {
        const RingPart& holder =
            job_.part(job_.part(me_).share.owner(positions[i] / kLinePositions));
        values[i] = holder.values[holder.rank(positions[i])];
        ++asked_of[static_cast<std::size_t>(holder.share.me)];
      }
    }

   private:
    Job& job_;
    int me_;

   public:
    std::vector<std::uint64_t> asked_of;  // the positions asked of each part
  };

 private:
  std::vector<RingPart> parts_;
  std::vector<std::uint64_t> batches_;
  std::barrier<> barrier_;
};

}  // namespace

TEST_CASE("ring solver: a share finds each line's process and place without a division, exactly",
          "[ring-solver]") {
  // owner() and local() multiply by a reciprocal; here they are held to the division they stand
  // for, for jobs of 1 to 70 processes and stripes of 1 to 4,096 lines, on lines from the first to
  // past the last of the largest ring (16 pits: fewer than 2^31 lines).
  Random random(0x5eed);
  for (int processes = 1; processes <= 70; ++processes) {
    for (int shift : {0, 5, 12}) {
      Share share;
      share.processes = processes;
      share.stripe_shift = shift;
      share.reciprocal = Share::reciprocal_for(processes);
      const auto each = static_cast<std::uint64_t>(processes);
      const auto check = [&](std::uint64_t line) {
        const std::uint64_t stripe = line >> shift;
        INFO(processes << " processes, stripes of 2^" << shift << " lines, line " << line);
        REQUIRE(share.owner(line) == static_cast<int>(stripe % each));
        REQUIRE(share.local(line) ==
                ((stripe / each) << shift | (line & ((std::uint64_t{1} << shift) - 1))));
      };
      for (std::uint64_t line = 0; line < 5000; ++line)
        check(line);
      for (int draw = 0; draw < 5000; ++draw)
        check(random.next() >> 33);
      check((std::uint64_t{1} << 31) - 1);
    }
  }
  // Share::of() makes the reciprocal its owner() and local() use.
  const RingGeometry geometry(Ring{9, 5});
  for (int processes : {1, 2, 3, 7}) {
    const Share share = Share::of(geometry, processes, 0);
    for (std::uint64_t line = 0; line < geometry.lines(); ++line) {
      const std::uint64_t stripe = line >> share.stripe_shift;
      REQUIRE(share.owner(line) ==
              static_cast<int>(stripe % static_cast<std::uint64_t>(processes)));
    }
  }
}

TEST_CASE("ring solver: shares dealt in stripes to three processes make the one table, evenly",
          "[ring-solver]") {
  const Ring ring{9, 5};
  const RingGeometry geometry(ring);
  const auto whole = RingTable::solve(RingGeometry::of(ring), {});
  constexpr int kProcesses = 3;
  Job job(kProcesses);
  std::vector<std::vector<std::uint64_t>> lines(kProcesses);
  std::vector<std::vector<std::int8_t>> values(kProcesses);
  std::vector<LayeredSolve> solves;
  SolveOptions one;
  one.threads = 1;
  std::uint64_t held = 0, classes = 0;
  for (int p = 0; p < kProcesses; ++p) {
    RingPart& part = job.part(p);
    part.geometry = &geometry;
    part.share = Share::of(geometry, kProcesses, p);
    CHECK(part.share.stripe_lines() * 64 * kProcesses <= geometry.lines());
    lines[p].assign(part.share.lines_held(geometry.lines()) * kLineWords, 0);
    held += part.share.lines_held(geometry.lines());
    solves.emplace_back(geometry, part.share, one);
    part.classes = solves.back().index(lines[p]);
    classes += part.classes;
    values[p].assign(part.classes, 0);
    part.lines = lines[p].data();
    part.values = values[p].data();
  }
  CHECK(held == geometry.lines());
  REQUIRE(classes == geometry.classes());
  // Each share holds a third of the classes, give or take 2%.
  for (int p = 0; p < kProcesses; ++p) {
    INFO("process " << p << ": " << job.part(p).classes << " classes");
    CHECK(job.part(p).classes * 100 > classes * 98 / kProcesses);
    CHECK(job.part(p).classes * 100 < classes * 102 / kProcesses);
  }
  std::vector<Job::Member> members;
  for (int p = 0; p < kProcesses; ++p)
    members.emplace_back(job, p);
  {
    std::vector<std::jthread> processes;
    for (int p = 0; p < kProcesses; ++p) {
      processes.emplace_back([&, p] {
        solves[static_cast<std::size_t>(p)].solve(job.part(p), members[static_cast<std::size_t>(p)],
                                                  values[static_cast<std::size_t>(p)]);
      });
    }
  }
  // Every class's value is the one table's, found through the stripes.
  const auto table_lines = whole->lines();
  for (std::uint64_t line = 0; line < geometry.lines(); ++line) {
    const RingPart& part = job.part(Share::of(geometry, kProcesses, 0).owner(line));
    const std::uint64_t* mine = part.lines + kLineWords * part.share.local(line);
    for (int word = 1; word < kLineWords; ++word)
      REQUIRE(mine[word] == table_lines[kLineWords * line + word]);
    for (std::uint64_t bit = 0; bit < kLinePositions; ++bit) {
      if ((mine[2 + bit / 64] >> (bit % 64) & 1) == 0) continue;
      REQUIRE(part.values[line_rank(mine, bit)] ==
              whole->values()[line_rank(table_lines.data() + kLineWords * line, bit)]);
    }
  }
  // Every process asks each of them, itself included, for about a third of its successors.
  for (const Job::Member& member : members) {
    const std::uint64_t asked = member.asked_of[0] + member.asked_of[1] + member.asked_of[2];
    for (const std::uint64_t of : member.asked_of) {
      CHECK(of * 100 > asked * 90 / kProcesses);
      CHECK(of * 100 < asked * 110 / kProcesses);
    }
  }
}
