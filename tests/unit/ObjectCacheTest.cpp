// The on-disk cache of compiled kernels: entries round-trip, and an entry
// that was tampered with, is not the user's, is writable by others or is a
// symbolic link is never loaded; a second compilation of the same model is
// a cache hit whose kernels compute what the interpreter computes.
#include "TestSupport.h"

#include "driver/Pipeline.h"
#include "jit/CompiledModel.h"
#include "jit/ObjectCache.h"
#include "mechanics/Kernels.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sys/stat.h>
#include <unistd.h>

using namespace mech;
namespace fs = std::filesystem;

namespace {

// A fresh directory under the system's temporary directory, removed at exit.
struct TemporaryDirectory {
  fs::path path;
  TemporaryDirectory() {
    std::string pattern = (fs::temp_directory_path() / "mech-cache-test-XXXXXX").string();
    REQUIRE(mkdtemp(pattern.data()) != nullptr);
    path = pattern;
  }
  ~TemporaryDirectory() {
    std::error_code ignored;
    fs::remove_all(path, ignored);
  }
};

mode_t modeOf(const fs::path &path) {
  struct stat info;
  REQUIRE(stat(path.c_str(), &info) == 0);
  return info.st_mode & 0777;
}

std::string readFile(const fs::path &path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

const std::string kKey = std::string(64, 'a');

} // namespace

TEST_CASE("sha256Hex matches the published test vectors", "[cache]") {
  // FIPS 180-2, appendix B.1.
  CHECK(jit::sha256Hex("abc") ==
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(jit::sha256Hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

TEST_CASE("the cache directory is created private and entries round-trip", "[cache]") {
  TemporaryDirectory temporary;
  std::string why;
  fs::path directory = temporary.path / "nested" / "mech";
  auto cache = jit::ObjectCache::open(directory.string(), why);
  INFO(why);
  REQUIRE(cache);
  CHECK(modeOf(directory) == 0700);
  CHECK_FALSE(cache->load(kKey));
  std::string object("\x7f"
                     "ELF\0binary\nbytes",
                     16);
  REQUIRE(cache->store(kKey, object));
  CHECK(modeOf(cache->entryPath(kKey)) == 0600);
  auto loaded = cache->load(kKey);
  REQUIRE(loaded);
  CHECK(*loaded == object);
  // No temporary files are left behind.
  CHECK(std::distance(fs::directory_iterator(directory), fs::directory_iterator()) == 1);
}

TEST_CASE("an existing cache directory with loose permissions is made private", "[cache]") {
  TemporaryDirectory temporary;
  fs::path directory = temporary.path / "mech";
  fs::create_directory(directory);
  chmod(directory.c_str(), 0777);
  std::string why;
  REQUIRE(jit::ObjectCache::open(directory.string(), why));
  CHECK(modeOf(directory) == 0700);
}

TEST_CASE("tampered, foreign, shared or linked entries are ignored", "[cache]") {
  TemporaryDirectory temporary;
  std::string why;
  auto cache = jit::ObjectCache::open(temporary.path.string(), why);
  REQUIRE(cache);
  std::string object = "object code";
  fs::path entry = cache->entryPath(kKey);

  SECTION("a changed byte of the object") {
    REQUIRE(cache->store(kKey, object));
    std::string content = readFile(entry);
    content.back() ^= 1;
    std::ofstream(entry, std::ios::binary | std::ios::trunc) << content;
    CHECK_FALSE(cache->load(kKey));
  }
  SECTION("a changed hash") {
    REQUIRE(cache->store(kKey, object));
    std::string content = readFile(entry);
    content[20] = content[20] == '0' ? '1' : '0';
    std::ofstream(entry, std::ios::binary | std::ios::trunc) << content;
    CHECK_FALSE(cache->load(kKey));
  }
  SECTION("a truncated entry") {
    REQUIRE(cache->store(kKey, object));
    fs::resize_file(entry, 30);
    CHECK_FALSE(cache->load(kKey));
  }
  SECTION("an entry writable by the group") {
    REQUIRE(cache->store(kKey, object));
    chmod(entry.c_str(), 0620);
    CHECK_FALSE(cache->load(kKey));
  }
  SECTION("a symbolic link to a valid entry") {
    REQUIRE(cache->store("b" + kKey.substr(1), object));
    fs::create_symlink(cache->entryPath("b" + kKey.substr(1)), entry);
    CHECK_FALSE(cache->load(kKey));
  }
  SECTION("an entry owned by another user") {
    REQUIRE(cache->store(kKey, object));
    if (geteuid() != 0) {
      WARN("not root: cannot give the entry to another user");
    } else {
      REQUIRE(chown(entry.c_str(), 4242, 4242) == 0);
      CHECK_FALSE(cache->load(kKey));
      // Storing again replaces it with the user's own entry.
      REQUIRE(cache->store(kKey, object));
      CHECK(cache->load(kKey) == object);
    }
  }
}

TEST_CASE("a cache directory owned by another user is not used", "[cache]") {
  if (geteuid() != 0)
    return; // only root can make one
  TemporaryDirectory temporary;
  fs::path directory = temporary.path / "mech";
  fs::create_directory(directory);
  REQUIRE(chown(directory.c_str(), 4242, 4242) == 0);
  std::string why;
  CHECK_FALSE(jit::ObjectCache::open(directory.string(), why));
  CHECK(why.find("not owned by the user") != std::string::npos);
}

TEST_CASE("the default cache follows XDG_CACHE_HOME, then HOME", "[cache]") {
  TemporaryDirectory temporary;
  std::string savedXdg = std::getenv("XDG_CACHE_HOME") ? std::getenv("XDG_CACHE_HOME") : "";
  std::string savedHome = std::getenv("HOME") ? std::getenv("HOME") : "";
  std::string why;
  setenv("XDG_CACHE_HOME", (temporary.path / "xdg").c_str(), 1);
  auto cache = jit::ObjectCache::openDefault(why);
  REQUIRE(cache);
  CHECK(cache->directory() == (temporary.path / "xdg" / "mech").string());
  // A relative XDG_CACHE_HOME is invalid and ignored.
  setenv("XDG_CACHE_HOME", "relative/dir", 1);
  setenv("HOME", temporary.path.c_str(), 1);
  cache = jit::ObjectCache::openDefault(why);
  REQUIRE(cache);
  CHECK(cache->directory() == (temporary.path / ".cache" / "mech").string());
  savedXdg.empty() ? unsetenv("XDG_CACHE_HOME") : setenv("XDG_CACHE_HOME", savedXdg.c_str(), 1);
  setenv("HOME", savedHome.c_str(), 1);
}

TEST_CASE("a second compilation of a model loads its kernels from the cache", "[cache][jit]") {
  TemporaryDirectory temporary;
  std::string why;
  auto cache = jit::ObjectCache::open(temporary.path.string(), why);
  REQUIRE(cache);
  sema::SearchPath search;
  auto loaded = driver::loadModel(std::string(MECH_SOURCE_ROOT) + "/examples/double_pendulum.mech",
                                  {}, search, true);
  REQUIRE(loaded->derivation);
  auto programs =
      mechanics::KernelPrograms::build(loaded->equations(), loaded->model().params.size());
  auto interpreter = mechanics::interpretedKernels(programs);
  std::vector<double> p = loaded->paramValues(), x = {0.7, -0.4, 1.3, 0.2};

  auto compileAndCheck = [&](bool expectHit) {
    std::string error;
    bool hit = !expectHit;
    auto kernels = jit::compileKernels(programs, error, {.cache = &*cache}, &hit);
    INFO(error);
    REQUIRE(kernels);
    CHECK(hit == expectHit);
    std::vector<double> a(4), b(4);
    REQUIRE(kernels->rhs(0, x.data(), p.data(), a.data()) == 0);
    REQUIRE(interpreter->rhs(0, x.data(), p.data(), b.data()) == 0);
    for (size_t i = 0; i < 4; ++i)
      CHECK(std::abs(a[i] - b[i]) <= 1e-12 * (1 + std::abs(b[i])));
  };
  compileAndCheck(false);
  std::vector<fs::path> entries(fs::directory_iterator(temporary.path), fs::directory_iterator());
  REQUIRE(entries.size() == 1);
  compileAndCheck(true);

  // A corrupted entry is rebuilt, not loaded, and then serves again.
  std::string content = readFile(entries[0]);
  content[content.size() / 2] ^= 0x55;
  std::ofstream(entries[0], std::ios::binary | std::ios::trunc) << content;
  compileAndCheck(false);
  compileAndCheck(true);

  // Other parameter values use the same code; other equations do not.
  auto other =
      driver::loadModel(std::string(MECH_SOURCE_ROOT) + "/examples/chain.mech", {}, search, true);
  REQUIRE(other->derivation);
  auto otherPrograms =
      mechanics::KernelPrograms::build(other->equations(), other->model().params.size());
  std::string error;
  bool hit = true;
  REQUIRE(jit::compileKernels(otherPrograms, error, {.cache = &*cache}, &hit));
  CHECK_FALSE(hit);
}
