// How large the caches grow (jit/CacheSize.h): MECH_CACHE_SIZE is read as
// bytes with binary suffixes; a store removes the least recently used
// entries past the limit, where loading an entry counts as a use; and a
// cache folder is created only in a folder of the user's.
#include "jit/CacheSize.h"
#include "jit/ObjectCache.h"
#include "support/TemporaryFolder.h"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

using namespace mech;
namespace fs = std::filesystem;

namespace {

// MECH_CACHE_SIZE set to `value` while this lives (unset for nullptr).
struct CacheSizeSetting {
  std::string saved;
  bool had;
  explicit CacheSizeSetting(const char *value) {
    const char *old = std::getenv("MECH_CACHE_SIZE");
    had = old != nullptr;
    saved = had ? old : "";
    value ? setenv("MECH_CACHE_SIZE", value, 1) : unsetenv("MECH_CACHE_SIZE");
  }
  ~CacheSizeSetting() {
    had ? setenv("MECH_CACHE_SIZE", saved.c_str(), 1) : unsetenv("MECH_CACHE_SIZE");
  }
};

std::string key(char c) {
  return std::string(64, c);
}

// Sets an entry's modification time to `seconds` after the epoch, as if it
// had last been used then.
void usedAt(const std::string &path, time_t seconds) {
  struct timespec times[2] = {{seconds, 0}, {seconds, 0}};
  REQUIRE(utimensat(AT_FDCWD, path.c_str(), times, 0) == 0);
}

} // namespace

TEST_CASE("MECH_CACHE_SIZE is a number of bytes with K, M, G or T", "[cache]") {
  CHECK(jit::parseCacheSize("0") == uint64_t(0));
  CHECK(jit::parseCacheSize("12345") == uint64_t(12345));
  CHECK(jit::parseCacheSize("500M") == uint64_t(500) * 1024 * 1024);
  CHECK(jit::parseCacheSize("2G") == uint64_t(2) << 30);
  CHECK(jit::parseCacheSize("2g") == uint64_t(2) << 30);
  CHECK(jit::parseCacheSize("1.5G") == uint64_t(3) << 29);
  CHECK(jit::parseCacheSize("64KiB") == uint64_t(64) * 1024);
  CHECK(jit::parseCacheSize("1T") == uint64_t(1) << 40);
  for (const char *bad :
       {"", "M", "-1", "1.2.3", "5X", "1GG", "1 G", ".5G", "5.", "1e9", "G1", "99999999999T"})
    CHECK_FALSE(jit::parseCacheSize(bad));
  {
    CacheSizeSetting unset(nullptr);
    std::string why;
    CHECK(jit::cacheSizeLimit(why) == jit::kDefaultCacheSize);
  }
  CacheSizeSetting bad("lots");
  std::string why;
  CHECK_FALSE(jit::cacheSizeLimit(why));
  CHECK(why.find("MECH_CACHE_SIZE='lots' is not a size") != std::string::npos);
  TemporaryFolder temporary("mech-size-test");
  REQUIRE(!temporary.path().empty());
  CHECK_FALSE(jit::ObjectCache::open((temporary.path() / "mech").string(), why));
  CHECK(why.find("MECH_CACHE_SIZE") != std::string::npos);
}

TEST_CASE("a store keeps the folder under the limit, least recently used first", "[cache]") {
  TemporaryFolder temporary("mech-size-test");
  REQUIRE(!temporary.path().empty());
  const std::string object(1000, 'x'); // each entry a little over 1000 bytes
  CacheSizeSetting limit("3500");
  std::string why;
  auto cache = jit::ObjectCache::open(temporary.path().string(), why);
  REQUIRE(cache);
  for (char c : {'a', 'b', 'c'}) {
    REQUIRE(cache->store(key(c), "sig", object, why));
    usedAt(cache->entryPath(key(c)), 1000 + c); // a oldest, then b, then c
  }
  // Loading a counts as a use: b is now the least recently used.
  REQUIRE(cache->load(key('a'), "sig").state == jit::CacheEntry::State::Valid);
  REQUIRE(cache->store(key('d'), "sig", object, why));
  CHECK(fs::exists(cache->entryPath(key('a'))));
  CHECK_FALSE(fs::exists(cache->entryPath(key('b'))));
  CHECK(fs::exists(cache->entryPath(key('c'))));
  CHECK(fs::exists(cache->entryPath(key('d'))));
  // Files that are not entries are neither counted nor removed.
  fs::create_directory(temporary.path() / "notes");
  { std::ofstream(temporary.path() / "readme.txt") << std::string(5000, 'r'); }
  usedAt(cache->entryPath(key('c')), 10);
  REQUIRE(cache->store(key('e'), "sig", object, why));
  CHECK_FALSE(fs::exists(cache->entryPath(key('c'))));
  CHECK(fs::exists(temporary.path() / "readme.txt"));
  CHECK(fs::exists(temporary.path() / "notes"));
  size_t entries = 0;
  for (const auto &item : fs::directory_iterator(temporary.path()))
    entries += item.path().extension() == ".o";
  CHECK(entries == 3);
}

TEST_CASE("a cache folder is created only in a folder of the user's", "[cache]") {
  TemporaryFolder temporary("mech-size-test");
  REQUIRE(!temporary.path().empty());
  std::string why;
  // Missing folders in a folder of the user's are made, mode 0700.
  auto cache =
      jit::ObjectCache::open((temporary.path() / "home" / ".cache" / "mech").string(), why);
  REQUIRE(cache);
  if (geteuid() != 0) {
    WARN("skipped: not root, so no folder can be given to another user");
    return;
  }
  // Root with another user's HOME (sudo -E): nothing is made in that
  // user's folders, and the run goes without a cache, quietly.
  fs::path home = temporary.path() / "other";
  fs::create_directory(home);
  REQUIRE(chown(home.c_str(), 4242, 4242) == 0);
  CHECK_FALSE(jit::ObjectCache::open((home / ".cache" / "mech").string(), why));
  CHECK(why.empty());
  CHECK_FALSE(fs::exists(home / ".cache"));
  fs::create_directory(home / ".cache");
  REQUIRE(chown((home / ".cache").c_str(), 4242, 4242) == 0);
  CHECK_FALSE(jit::ObjectCache::open((home / ".cache" / "mech").string(), why));
  CHECK(why.empty());
  CHECK_FALSE(fs::exists(home / ".cache" / "mech"));
}
