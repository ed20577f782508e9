// SHA-256: the standard's test vectors, and the two compression functions held equal.
#include <string>
#include <vector>

#include "catch.hpp"
#include "ioiwari/core/random.hpp"
#include "ioiwari/core/sha256.hpp"

using namespace ioiwari;

namespace {

std::string digest_of(const std::string& text, Sha256::Engine engine) {
  Sha256 hash(engine);
  hash.update({reinterpret_cast<const unsigned char*>(text.data()), text.size()});
  return hex(hash.finish());
}

}  // namespace

TEST_CASE("SHA-256 gives the standard's digests, with either engine", "[sha256]") {
  // FIPS 180-4's examples, and the long message of its test suite.
  const std::vector<std::pair<std::string, std::string>> vectors = {
      {"", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
      {"abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
      {"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
       "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
      {"abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlm"
       "nopqrsmnopqrstnopqrstu",
       "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"},
      {std::string(1'000'000, 'a'),
       "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"},
  };
  for (const auto& [text, digest] : vectors) {
    INFO(text.size() << " bytes");
    CHECK(digest_of(text, Sha256::Engine::portable) == digest);
    CHECK(digest_of(text, Sha256::Engine::fastest) == digest);
  }
  if (!Sha256::accelerated()) WARN("no SHA instructions here: both engines are the portable one");
}

TEST_CASE("SHA-256's two compression functions agree on every length and every split", "[sha256]") {
  // Lengths around each block and padding boundary, random bytes, given in random pieces.
  Random random(2001);
  for (std::size_t length = 0; length <= 300; ++length) {
    std::vector<unsigned char> bytes(length);
    for (unsigned char& byte : bytes)
      byte = static_cast<unsigned char>(random.below(256));
    Sha256 portable(Sha256::Engine::portable), fastest(Sha256::Engine::fastest);
    std::size_t at = 0;
    while (at < length) {
      const auto piece =
          std::min<std::size_t>(length - at, static_cast<std::size_t>(random.below(70)) + 1);
      portable.update(std::span(bytes).subspan(at, piece));
      fastest.update(std::span(bytes).subspan(at, piece));
      at += piece;
    }
    const Digest whole = sha256(bytes);
    INFO(length << " bytes");
    CHECK(portable.finish() == whole);
    CHECK(fastest.finish() == whole);
  }
}

TEST_CASE("a digest's text is 64 lowercase hexadecimal digits, and nothing else reads back",
          "[sha256]") {
  const Digest digest = sha256({});
  CHECK(parse_digest(hex(digest)) == digest);
  CHECK_FALSE(parse_digest(hex(digest).substr(1)));
  CHECK_FALSE(parse_digest(hex(digest) + "0"));
  std::string upper = hex(digest);
  upper[0] = 'E';
  CHECK_FALSE(parse_digest(upper));
  CHECK_FALSE(parse_digest(std::string(63, '0') + "g"));
}
