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

#include <algorithm>
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
const std::string kSignature = "mech kernels, layout 1\nmodel Test\n";
using State = jit::CacheEntry::State;

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
  CHECK(cache->load(kKey, kSignature).state == State::Absent);
  std::string object("\x7f"
                     "ELF\0binary\nbytes",
                     16);
  REQUIRE(cache->store(kKey, kSignature, object, why));
  CHECK(modeOf(cache->entryPath(kKey)) == 0600);
  jit::CacheEntry loaded = cache->load(kKey, kSignature);
  REQUIRE(loaded.state == State::Valid);
  CHECK(loaded.object == object);
  // No temporary files are left behind.
  CHECK(std::distance(fs::directory_iterator(directory), fs::directory_iterator()) == 1);
}

TEST_CASE("a cache directory writable by others is refused, not repaired", "[cache]") {
  TemporaryDirectory temporary;
  fs::path directory = temporary.path / "mech";
  fs::create_directory(directory);
  for (mode_t mode : {0777, 0770, 0722, 01777}) {
    chmod(directory.c_str(), mode);
    std::string why;
    CHECK_FALSE(jit::ObjectCache::open(directory.string(), why));
    CHECK(why.find("is writable by others") != std::string::npos);
    CHECK(modeOf(directory) == (mode & 0777));
  }
  // Readable by others is no risk: such a directory is used as it is.
  chmod(directory.c_str(), 0755);
  std::string why;
  CHECK(jit::ObjectCache::open(directory.string(), why));
  CHECK(modeOf(directory) == 0755);
}

TEST_CASE("a symbolic link as the cache directory is refused", "[cache]") {
  TemporaryDirectory temporary;
  fs::create_directory(temporary.path / "real");
  fs::create_directory_symlink(temporary.path / "real", temporary.path / "mech");
  std::string why;
  CHECK_FALSE(jit::ObjectCache::open((temporary.path / "mech").string(), why));
  CHECK(why.find("symbolic link") != std::string::npos);
}

TEST_CASE("tampered, foreign, shared, linked or misplaced entries are not loaded", "[cache]") {
  TemporaryDirectory temporary;
  std::string why;
  auto cache = jit::ObjectCache::open(temporary.path.string(), why);
  REQUIRE(cache);
  std::string object = "object code";
  fs::path entry = cache->entryPath(kKey);
  auto expect = [&](State state, const char *reason) {
    jit::CacheEntry loaded = cache->load(kKey, kSignature);
    INFO(loaded.why);
    CHECK(loaded.state == state);
    CHECK(loaded.object.empty());
    CHECK(loaded.why.find(reason) != std::string::npos);
    CHECK(loaded.why.find(entry.string()) != std::string::npos);
    // Storing again replaces it with a good entry.
    REQUIRE(cache->store(kKey, kSignature, object, why));
    CHECK(cache->load(kKey, kSignature).object == object);
  };
  REQUIRE(cache->store(kKey, kSignature, object, why));

  SECTION("a changed byte of the object") {
    std::string content = readFile(entry);
    content.back() ^= 1;
    std::ofstream(entry, std::ios::binary | std::ios::trunc) << content;
    expect(State::Invalid, "corrupt");
  }
  SECTION("a changed checksum") {
    std::string content = readFile(entry);
    content[20] = content[20] == '0' ? '1' : '0';
    std::ofstream(entry, std::ios::binary | std::ios::trunc) << content;
    expect(State::Invalid, "corrupt");
  }
  SECTION("a truncated entry") {
    fs::resize_file(entry, 30);
    expect(State::Invalid, "corrupt");
  }
  SECTION("an entry of the first format") {
    std::ofstream(entry, std::ios::binary | std::ios::trunc)
        << "mech-object 1 " << jit::sha256Hex(object) << "\n"
        << object;
    expect(State::Invalid, "corrupt");
  }
  SECTION("a valid entry copied under another key") {
    std::string other = "b" + kKey.substr(1);
    REQUIRE(cache->store(other, kSignature, "other code", why));
    fs::copy_file(cache->entryPath(other), entry, fs::copy_options::overwrite_existing);
    expect(State::Invalid, "another key");
  }
  SECTION("an entry compiled for another model") {
    REQUIRE(cache->store(kKey, "mech kernels, layout 1\nmodel Other\n", object, why));
    expect(State::Invalid, "another model");
  }
  SECTION("an entry writable by the group") {
    chmod(entry.c_str(), 0620);
    expect(State::Refused, "writable by others");
  }
  SECTION("a symbolic link to a valid entry") {
    std::string other = "b" + kKey.substr(1);
    REQUIRE(cache->store(other, kSignature, object, why));
    fs::remove(entry);
    fs::create_symlink(cache->entryPath(other), entry);
    expect(State::Refused, "symbolic link");
  }
  SECTION("a FIFO in an entry's place is refused without blocking") {
    fs::remove(entry);
    REQUIRE(mkfifo(entry.c_str(), 0600) == 0);
    expect(State::Refused, "not a regular file");
  }
  SECTION("a directory in an entry's place") {
    fs::remove(entry);
    fs::create_directory(entry);
    CHECK(cache->load(kKey, kSignature).state == State::Refused);
    CHECK_FALSE(cache->store(kKey, kSignature, object, why));
    CHECK(why.find(entry.string()) != std::string::npos);
  }
  SECTION("an entry owned by another user") {
    if (geteuid() != 0) {
      WARN("skipped: not root, so no entry can be given to another user");
    } else {
      REQUIRE(chown(entry.c_str(), 4242, 4242) == 0);
      expect(State::Refused, "not by the user");
    }
  }
}

TEST_CASE("a cache directory owned by another user is not used", "[cache]") {
  if (geteuid() != 0) {
    WARN("skipped: not root, so no directory can be given to another user");
    return;
  }
  TemporaryDirectory temporary;
  fs::path directory = temporary.path / "mech";
  fs::create_directory(directory);
  chmod(directory.c_str(), 0700);
  REQUIRE(chown(directory.c_str(), 4242, 4242) == 0);
  std::string why;
  CHECK_FALSE(jit::ObjectCache::open(directory.string(), why));
  CHECK(why.find("not by the user") != std::string::npos);
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

namespace {

// A model's kernel programs, with the interpreter's kernels to compare with.
struct ModelPrograms {
  std::unique_ptr<driver::LoadedModel> loaded;
  mechanics::KernelPrograms programs;
  std::string signature;
  explicit ModelPrograms(const std::string &example) {
    sema::SearchPath search;
    loaded =
        driver::loadModel(std::string(MECH_SOURCE_ROOT) + "/examples/" + example, {}, search, true);
    REQUIRE(loaded->derivation);
    programs = mechanics::KernelPrograms::build(loaded->equations(), loaded->model().params.size());
    std::string error;
    signature = jit::signatureText({}, programs, {}, error);
    REQUIRE(!signature.empty());
  }
};

// The one entry file in `directory` whose name is not in `others`.
fs::path newEntry(const fs::path &directory, const std::vector<fs::path> &others = {}) {
  std::vector<fs::path> found;
  for (const auto &file : fs::directory_iterator(directory))
    if (std::find(others.begin(), others.end(), file.path()) == others.end())
      found.push_back(file.path());
  REQUIRE(found.size() == 1);
  return found[0];
}

} // namespace

TEST_CASE("a second compilation of a model loads its kernels from the cache", "[cache][jit]") {
  TemporaryDirectory temporary;
  std::string why;
  auto cache = jit::ObjectCache::open(temporary.path.string(), why);
  REQUIRE(cache);
  ModelPrograms pendulum("double_pendulum.mech"), chain("chain.mech");
  auto interpreter = mechanics::interpretedKernels(pendulum.programs);
  jit::CompileOptions cached;
  cached.cache = &*cache;
  std::vector<double> p = pendulum.loaded->paramValues(), x = {0.7, -0.4, 1.3, 0.2};

  // Compiles the pendulum, expects `outcome` (and a warning containing
  // `warning`), and checks its rhs against the interpreter's.
  auto compileAndCheck = [&](const std::string &outcome, const std::string &warning = "") {
    std::string error;
    jit::CacheReport report;
    auto kernels = jit::compileKernels(pendulum.programs, error, cached, &report);
    INFO(error << " / " << report.warning);
    REQUIRE(kernels);
    CHECK(report.outcome == outcome);
    CHECK(report.warning.find(warning) != std::string::npos);
    CHECK(warning.empty() == report.warning.empty());
    std::vector<double> a(4), b(4);
    REQUIRE(kernels->rhs(0, x.data(), p.data(), a.data()) == 0);
    REQUIRE(interpreter->rhs(0, x.data(), p.data(), b.data()) == 0);
    for (size_t i = 0; i < 4; ++i)
      CHECK(std::abs(a[i] - b[i]) <= 1e-12 * (1 + std::abs(b[i])));
  };
  compileAndCheck("miss");
  fs::path entry = newEntry(temporary.path);
  std::string key = entry.stem().string();
  compileAndCheck("hit");

  // A corrupted entry is reported and replaced, and then serves again.
  std::string content = readFile(entry);
  content[content.size() / 2] ^= 0x55;
  std::ofstream(entry, std::ios::binary | std::ios::trunc) << content;
  compileAndCheck("miss, entry replaced", "corrupt");
  compileAndCheck("hit");

  // Other parameter values use the same code; other equations do not.
  std::string error;
  jit::CacheReport report;
  REQUIRE(jit::compileKernels(chain.programs, error, cached, &report));
  CHECK(report.outcome == "miss");
  fs::path chainEntry = newEntry(temporary.path, {entry});
  std::string chainKey = chainEntry.stem().string();

  SECTION("another model's entry copied under this model's key") {
    fs::copy_file(chainEntry, entry, fs::copy_options::overwrite_existing);
    compileAndCheck("miss, entry replaced", "another key");
    compileAndCheck("hit");
  }
  SECTION("another model's object code behind a header forged for this model") {
    jit::CacheEntry chainCode = cache->load(chainKey, chain.signature);
    REQUIRE(chainCode.state == jit::CacheEntry::State::Valid);
    REQUIRE(cache->store(key, pendulum.signature, chainCode.object, why));
    compileAndCheck("miss, entry replaced", "another model");
    compileAndCheck("hit");
  }
  SECTION("an entry whose object code does not link") {
    REQUIRE(cache->store(key, pendulum.signature,
                         "\x7f"
                         "ELF not really",
                         why));
    compileAndCheck("miss, entry replaced", "does not load");
    compileAndCheck("hit");
  }
  SECTION("a FIFO in the entry's place") {
    fs::remove(entry);
    REQUIRE(mkfifo(entry.c_str(), 0600) == 0);
    compileAndCheck("miss, entry replaced", "not a regular file");
    compileAndCheck("hit");
  }
}

TEST_CASE("a kernel signature whose counts are not the equations' is refused", "[cache][jit]") {
  ModelPrograms pendulum("double_pendulum.mech");
  jit::KernelSignature signature{"DoublePendulum", {"th1"}, {}, {}, {}};
  std::string error;
  CHECK(jit::signatureText(signature, pendulum.programs, {}, error).empty());
  CHECK(error.find("internal error") != std::string::npos);
  signature.coordinates = {"th1", "th2"};
  std::string text = jit::signatureText(signature, pendulum.programs, {}, error);
  CHECK(text.find("model DoublePendulum\ncoordinates 2: th1 th2\nparams 5:\n") !=
        std::string::npos);
}
