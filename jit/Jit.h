// A small wrapper around ORC's LLJIT: create (for the host CPU), add a
// module's object code (optimized at O2 for the host), look up a symbol;
// destroying the Jit removes what it holds. The process has one LLJIT (made
// at the first create, about a millisecond); each Jit is a JITDylib of its
// own in it. Every llvm::Expected is checked and turned into a message at
// this edge; callers see std::string errors only.
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

  // Object code for the module (optimized first), for the host CPU; empty
  // with `error` set on failure.
  std::string emitObject(llvm::Module &module, std::string &error);
  // Links object code made by emitObject into the JIT.
  bool addObject(const std::string &object, std::string &error);
  void *lookup(const std::string &name, std::string &error);
  // What the generated code depends on besides its IR: LLVM's version, the
  // target triple, the CPU and its features.
  std::string targetDescription() const;
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
