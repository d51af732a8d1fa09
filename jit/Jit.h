// A small wrapper around ORC's LLJIT: create (for the host CPU), add an
// optimized module, look up a symbol. Every llvm::Expected is checked and
// turned into a message at this edge; callers see std::string errors only.
#pragma once

#include <memory>
#include <string>

namespace llvm {
class Module;
class LLVMContext;
} // namespace llvm

namespace mech::jit {

class Jit {
public:
  // Null with `error` set when LLVM cannot target this host.
  static std::unique_ptr<Jit> create(std::string &error);
  ~Jit();

  // Optimizes the module at O2 for the host, then hands it to the JIT.
  bool add(std::unique_ptr<llvm::Module> module, std::unique_ptr<llvm::LLVMContext> context,
           std::string &error);
  void *lookup(const std::string &name, std::string &error);
  // Optimizes without adding (for --dump=llvm).
  void optimize(llvm::Module &module);
  // Sets the module's data layout and triple to the JIT's.
  void prepare(llvm::Module &module);

private:
  struct State;
  explicit Jit(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

} // namespace mech::jit
