/* The MPI module of mech (libmech_mpi.so): the few MPI calls a sweep split
 * over the ranks of a job makes (compiler/driver/MpiLink.h), in a library of
 * its own that mech loads only when it was started as one of several
 * processes of a job. Linking libmpi into mech itself would cost every
 * command, MPI or not, the few milliseconds of loading Open MPI. */
#include <mpi.h>
#include <stddef.h>

#define MECH_MPI_EXPORT __attribute__((visibility("default")))

/* What the loader checks before it calls anything else. */
MECH_MPI_EXPORT const int mech_mpi_interface = 1;

/* Starts MPI with MPI calls from the calling thread only (the sweep's
 * workers never call MPI); 0 when it started. */
MECH_MPI_EXPORT int mech_mpi_start(int *rank, int *size) {
  int provided = 0;
  if (MPI_Init_thread(NULL, NULL, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS)
    return 1;
  if (provided < MPI_THREAD_FUNNELED)
    return 2;
  MPI_Comm_rank(MPI_COMM_WORLD, rank);
  MPI_Comm_size(MPI_COMM_WORLD, size);
  return 0;
}

/* A synchronous send: it returns once `to` has begun receiving, so a rank
 * never runs more than one message ahead of the rank that writes. */
MECH_MPI_EXPORT int mech_mpi_send(const void *data, long bytes, int to) {
  if (bytes < 0 || bytes > 0x7fffffffL)
    return 1;
  return MPI_Ssend(data, (int)bytes, MPI_BYTE, to, 0, MPI_COMM_WORLD) != MPI_SUCCESS;
}

/* The size in bytes of the next message from `from`, waiting for it; -1
 * on an error. */
MECH_MPI_EXPORT long mech_mpi_probe(int from) {
  MPI_Status status;
  int count = 0;
  if (MPI_Probe(from, 0, MPI_COMM_WORLD, &status) != MPI_SUCCESS ||
      MPI_Get_count(&status, MPI_BYTE, &count) != MPI_SUCCESS)
    return -1;
  return count;
}

MECH_MPI_EXPORT int mech_mpi_receive(void *data, long bytes, int from) {
  return MPI_Recv(data, (int)bytes, MPI_BYTE, from, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE) !=
         MPI_SUCCESS;
}

MECH_MPI_EXPORT void mech_mpi_finish(void) {
  MPI_Finalize();
}

/* Ends every process of the job; the launcher exits with `status`. */
MECH_MPI_EXPORT void mech_mpi_abort(int status) {
  MPI_Abort(MPI_COMM_WORLD, status);
}
