// Files written whole or not at all (support/OutputFile.h): what a folder
// holds after a commit, a discard and a failed write, the permissions of a
// replaced file, and file identity.
#include "support/OutputFile.h"
#include "support/TemporaryFolder.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace fs = std::filesystem;

namespace {

std::vector<std::string> names(const fs::path &folder) {
  std::vector<std::string> found;
  for (const auto &entry : fs::directory_iterator(folder))
    found.push_back(entry.path().filename().string());
  std::sort(found.begin(), found.end());
  return found;
}

std::string contents(const fs::path &path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

} // namespace

TEST_CASE("an output file appears only when committed", "[output]") {
  mech::TemporaryFolder folder("mech-output-test");
  std::string path = (folder.path() / "out.csv").string(), error;
  {
    mech::OutputFile file(path);
    REQUIRE(file.open(error));
    file.stream() << "t,x\n";
    CHECK(names(folder.path()).size() == 1); // the temporary file
    CHECK(!fs::exists(path));
  }
  CHECK(names(folder.path()).empty());
  mech::OutputFile file(path);
  REQUIRE(file.open(error));
  file.stream() << "t,x\n0,1\n";
  REQUIRE(file.commit(error));
  CHECK(names(folder.path()) == std::vector<std::string>{"out.csv"});
  CHECK(contents(path) == "t,x\n0,1\n");
}

TEST_CASE("a replaced file keeps its permissions and a discarded one its bytes", "[output]") {
  mech::TemporaryFolder folder("mech-output-test");
  std::string path = (folder.path() / "model.mech").string(), error;
  std::ofstream(path) << "old";
  chmod(path.c_str(), 0640);
  {
    mech::OutputFile file(path);
    REQUIRE(file.open(error));
    file.stream() << "new";
    file.discard();
  }
  CHECK(contents(path) == "old");
  REQUIRE(mech::writeOutputFile(path, "new", error));
  CHECK(contents(path) == "new");
  struct stat info;
  REQUIRE(stat(path.c_str(), &info) == 0);
  CHECK((info.st_mode & 0777) == 0640);
}

TEST_CASE("a write error names the path and the reason", "[output]") {
  std::string error;
  CHECK(!mech::writeOutputFile("/dev/full", std::string(100000, 'x'), error));
  CHECK(error == "cannot write '/dev/full': No space left on device");
  mech::TemporaryFolder folder("mech-output-test");
  std::string missing = (folder.path() / "none" / "x.svg").string();
  CHECK(!mech::writeOutputFile(missing, "x", error));
  CHECK(error == "cannot write '" + missing + "': No such file or directory");
  CHECK(!mech::writeOutputFile(folder.path().string(), "x", error));
  CHECK(error.find("Is a directory") != std::string::npos);
  CHECK(names(folder.path()).empty());
}

TEST_CASE("file identity: inodes for files, normalized paths otherwise", "[output]") {
  mech::TemporaryFolder folder("mech-output-test");
  fs::path a = folder.path() / "a.mech", b = folder.path() / "b.mech";
  std::ofstream(a) << "a";
  std::ofstream(b) << "b";
  fs::create_hard_link(a, folder.path() / "hard.mech");
  fs::create_directory(folder.path() / "sub");
  CHECK(mech::sameFile(a.string(), (folder.path() / "hard.mech").string()));
  CHECK(mech::sameFile(a.string(), (folder.path() / "sub" / ".." / "a.mech").string()));
  CHECK(!mech::sameFile(a.string(), b.string()));
  std::string fresh = (folder.path() / "fresh.svg").string();
  CHECK(mech::sameFile(fresh, (folder.path() / "sub" / ".." / "fresh.svg").string()));
  CHECK(!mech::sameFile(fresh, (folder.path() / "sub" / "fresh.svg").string()));
}
