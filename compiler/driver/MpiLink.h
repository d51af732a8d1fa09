// The processes of an MPI job, as a sweep split over them needs them
// (driver/SweepOnRanks.h). mech does not link MPI: the calls are in
// libmech_mpi.so (tools/mech/mpi), loaded from beside the executable (or
// from ../lib/mech when installed) only when the launcher's environment
// says this process is one of several.
#pragma once

#include <memory>
#include <string>

namespace mech::driver {

// This process's place in a job, as mpirun or srun tell it in the
// environment: size 1 when it was not started as one of several.
struct MpiLaunch {
  size_t rank = 0, size = 1;
  size_t onThisMachine = 1; // the job's processes on this machine, this one included
};
MpiLaunch mpiLaunch();

class MpiLink {
public:
  // Loads the MPI module; null with `error` set when there is none (mech
  // was built without Open MPI) or it cannot be loaded.
  static std::unique_ptr<MpiLink> load(std::string &error);
  ~MpiLink();
  MpiLink(const MpiLink &) = delete;
  MpiLink &operator=(const MpiLink &) = delete;

  // MPI_Init; false with `error` set when MPI does not start.
  bool start(std::string &error);
  bool started() const { return started_; }
  size_t rank() const { return rank_; }
  size_t size() const { return size_; }

  // One message to or from another rank; false on an MPI error. A send
  // returns once the receiver has begun to receive.
  bool send(const std::string &bytes, size_t to);
  bool receive(size_t from, std::string &bytes);

  // Whether this rank has sent or received every message it will: only
  // then can it finish without a rank left waiting on it.
  void markSettled() { settled_ = true; }
  bool settled() const { return settled_; }

  void finish();                       // MPI_Finalize
  [[noreturn]] void abort(int status); // ends the whole job

private:
  struct Module;
  explicit MpiLink(std::unique_ptr<Module> module);

  std::unique_ptr<Module> module_;
  size_t rank_ = 0, size_ = 1;
  bool started_ = false, settled_ = false;
};

} // namespace mech::driver
