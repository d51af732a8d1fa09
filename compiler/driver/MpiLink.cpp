// Loading libmech_mpi.so and calling it (driver/MpiLink.h).
#include "driver/MpiLink.h"

#include <algorithm>
#include <cstdlib>
#include <dlfcn.h>
#include <filesystem>
#include <vector>

namespace mech::driver {

namespace {

// A whole number from the environment, or `fallback`.
size_t environmentNumber(const char *name, size_t fallback) {
  const char *text = std::getenv(name);
  if (text == nullptr || *text == '\0')
    return fallback;
  char *end = nullptr;
  unsigned long long value = std::strtoull(text, &end, 10);
  return *end == '\0' ? static_cast<size_t>(value) : fallback;
}

// Where the module may be: beside the executable (the build tree), then
// in the installed library folder.
std::vector<std::filesystem::path> modulePlaces() {
  std::error_code error;
  std::filesystem::path executable = std::filesystem::read_symlink("/proc/self/exe", error);
  if (error)
    return {};
  std::filesystem::path folder = executable.parent_path();
  return {folder / "libmech_mpi.so", folder.parent_path() / "lib" / "mech" / "libmech_mpi.so"};
}

} // namespace

MpiLaunch mpiLaunch() {
  MpiLaunch launch;
  // Open MPI's mpirun, then the PMI of MPICH's and Slurm's launchers.
  for (auto [size, rank] :
       {std::pair{"OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_RANK"},
        std::pair{"PMI_SIZE", "PMI_RANK"}, std::pair{"SLURM_STEP_NUM_TASKS", "PMIX_RANK"}}) {
    if (std::getenv(size) != nullptr && std::getenv(rank) != nullptr) {
      launch.size = environmentNumber(size, 1);
      launch.rank = environmentNumber(rank, 0);
      break;
    }
  }
  for (const char *local : {"OMPI_COMM_WORLD_LOCAL_SIZE", "MPI_LOCALNRANKS"})
    if (std::getenv(local) != nullptr) {
      launch.onThisMachine = std::max<size_t>(1, environmentNumber(local, 1));
      break;
    }
  return launch;
}

struct MpiLink::Module {
  void *handle = nullptr;
  int (*start)(int *, int *) = nullptr;
  int (*send)(const void *, long, int) = nullptr;
  long (*probe)(int) = nullptr;
  int (*receive)(void *, long, int) = nullptr;
  void (*finish)() = nullptr;
  void (*abort)(int) = nullptr;

  ~Module() {
    if (handle)
      dlclose(handle);
  }

  template <typename F> bool find(F &function, const char *name) {
    function = reinterpret_cast<F>(dlsym(handle, name));
    return function != nullptr;
  }
};

std::unique_ptr<MpiLink> MpiLink::load(std::string &error) {
  auto module = std::make_unique<Module>();
  std::string failure;
  for (const std::filesystem::path &place : modulePlaces()) {
    if (!std::filesystem::exists(place))
      continue;
    // Global: Open MPI's own plugins look for libmpi's symbols.
    module->handle = dlopen(place.c_str(), RTLD_NOW | RTLD_GLOBAL);
    if (module->handle)
      break;
    failure = dlerror();
  }
  if (!module->handle) {
    error = failure.empty() ? "this mech was built without MPI (no libmech_mpi.so beside it: "
                              "install libopenmpi-dev and build again)"
                            : "the MPI module cannot be loaded: " + failure;
    return nullptr;
  }
  const int *interface = static_cast<const int *>(dlsym(module->handle, "mech_mpi_interface"));
  if (!interface || *interface != 1 || !module->find(module->start, "mech_mpi_start") ||
      !module->find(module->send, "mech_mpi_send") ||
      !module->find(module->probe, "mech_mpi_probe") ||
      !module->find(module->receive, "mech_mpi_receive") ||
      !module->find(module->finish, "mech_mpi_finish") ||
      !module->find(module->abort, "mech_mpi_abort")) {
    error = "the MPI module libmech_mpi.so is not the one this mech was built with";
    return nullptr;
  }
  return std::unique_ptr<MpiLink>(new MpiLink(std::move(module)));
}

MpiLink::MpiLink(std::unique_ptr<Module> module) : module_(std::move(module)) {}

// The module stays loaded: Open MPI cannot be unloaded once it started.
MpiLink::~MpiLink() {
  if (started_)
    module_->handle = nullptr;
}

bool MpiLink::start(std::string &error) {
  int rank = 0, size = 1;
  if (module_->start(&rank, &size) != 0) {
    error = "MPI did not start (MPI_Init_thread failed or cannot give MPI_THREAD_FUNNELED)";
    return false;
  }
  started_ = true;
  rank_ = static_cast<size_t>(rank);
  size_ = static_cast<size_t>(size);
  return true;
}

bool MpiLink::send(const std::string &bytes, size_t to) {
  return module_->send(bytes.data(), static_cast<long>(bytes.size()), static_cast<int>(to)) == 0;
}

bool MpiLink::receive(size_t from, std::string &bytes) {
  long size = module_->probe(static_cast<int>(from));
  if (size < 0)
    return false;
  bytes.resize(static_cast<size_t>(size));
  return module_->receive(bytes.data(), size, static_cast<int>(from)) == 0;
}

void MpiLink::finish() {
  module_->finish();
}

void MpiLink::abort(int status) {
  module_->abort(status);
  std::_Exit(status); // MPI_Abort does not return; should it, end this rank
}

} // namespace mech::driver
