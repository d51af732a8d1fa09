// Emission of the kernels' linear algebra: M q'' = f by LDL^T (unrolled
// into straight-line code for small systems, loops over memory for large
// ones) and the first-kind equations with constraints. The algorithms mirror
// runtime::solveLdlt and runtime::solveConstrained, which the
// interpreter runs, so that both back ends give one answer.
#include "jit/Emitter.h"

#include "mechanics/Kernels.h"
#include "symbolic/MatrixFunctions.h"

#include <limits>

namespace mech::jit {

// Unrolled LDL^T solve of M y = f; returns the status (0 or 1) as i32.
llvm::Value *Emitter::solveUnrolled(size_t n, std::vector<llvm::Value *> M,
                                    std::vector<llvm::Value *> &y) {
  llvm::Value *largest = constant(0);
  for (size_t j = 0; j < n; ++j)
    largest = b_.CreateBinaryIntrinsic(llvm::Intrinsic::maxnum, largest,
                                       unaryIntrinsic(llvm::Intrinsic::fabs, M[j * n + j]));
  llvm::Value *tolerance = b_.CreateFMul(constant(1e-13), largest);
  llvm::Value *bad = b_.getFalse();
  std::vector<llvm::Value *> d(n);
  for (size_t j = 0; j < n; ++j) {
    llvm::Value *dj = M[j * n + j];
    for (size_t k = 0; k < j; ++k)
      dj = b_.CreateFSub(dj, b_.CreateFMul(b_.CreateFMul(M[j * n + k], M[j * n + k]), d[k]));
    d[j] = dj;
    bad = b_.CreateOr(bad, b_.CreateFCmpULE(dj, tolerance));
    for (size_t i = j + 1; i < n; ++i) {
      llvm::Value *s = M[i * n + j];
      for (size_t k = 0; k < j; ++k)
        s = b_.CreateFSub(s, b_.CreateFMul(b_.CreateFMul(M[i * n + k], M[j * n + k]), d[k]));
      M[i * n + j] = b_.CreateFDiv(s, dj);
    }
  }
  for (size_t i = 0; i < n; ++i)
    for (size_t k = 0; k < i; ++k)
      y[i] = b_.CreateFSub(y[i], b_.CreateFMul(M[i * n + k], y[k]));
  for (size_t i = 0; i < n; ++i)
    y[i] = b_.CreateFDiv(y[i], d[i]);
  for (size_t i = n; i-- > 0;)
    for (size_t k = i + 1; k < n; ++k)
      y[i] = b_.CreateFSub(y[i], b_.CreateFMul(M[k * n + i], y[k]));
  return b_.CreateZExt(bad, b_.getInt32Ty());
}

// for (i = from; i < to; ++i) body(i), with i64 induction.
void Emitter::loop(llvm::Value *from, llvm::Value *to,
                   const std::function<void(llvm::Value *)> &body) {
  llvm::Function *f = b_.GetInsertBlock()->getParent();
  llvm::BasicBlock *before = b_.GetInsertBlock();
  llvm::BasicBlock *header = llvm::BasicBlock::Create(context_, "loop", f);
  llvm::BasicBlock *inside = llvm::BasicBlock::Create(context_, "body", f);
  llvm::BasicBlock *after = llvm::BasicBlock::Create(context_, "done", f);
  b_.CreateBr(header);
  b_.SetInsertPoint(header);
  llvm::PHINode *i = b_.CreatePHI(b_.getInt64Ty(), 2);
  i->addIncoming(from, before);
  b_.CreateCondBr(b_.CreateICmpSLT(i, to), inside, after);
  b_.SetInsertPoint(inside);
  body(i);
  llvm::Value *next = b_.CreateAdd(i, b_.getInt64(1));
  i->addIncoming(next, b_.GetInsertBlock());
  b_.CreateBr(header);
  b_.SetInsertPoint(after);
}

llvm::Value *Emitter::at(llvm::Value *base, llvm::Value *index) {
  return b_.CreateInBoundsGEP(f64(), base, index);
}

llvm::Value *Emitter::element(llvm::Value *base, llvm::Value *row, llvm::Value *column, size_t n) {
  return at(base, b_.CreateAdd(b_.CreateMul(row, b_.getInt64(n)), column));
}

// LDL^T in place of the n*n matrix A in memory (row-major); the status
// (i32 1) when a pivot is not above relativeTolerance times the largest
// diagonal entry. Mirrors runtime::solveLdlt.
llvm::Value *Emitter::factorLoops(size_t n, llvm::Value *A, double relativeTolerance) {
  llvm::Value *zero = b_.getInt64(0), *size = b_.getInt64(n);
  llvm::Value *status = stackSlot(b_.getInt32Ty());
  b_.CreateStore(b_.getInt32(0), status);
  llvm::Value *tolerance =
      b_.CreateFMul(constant(relativeTolerance), largestDiagonalLoops(n, A, /*magnitude=*/true));
  llvm::Value *acc = stackSlot(f64());
  loop(zero, size, [&](llvm::Value *j) {
    b_.CreateStore(b_.CreateLoad(f64(), element(A, j, j, n)), acc);
    loop(zero, j, [&](llvm::Value *k) {
      llvm::Value *l = b_.CreateLoad(f64(), element(A, j, k, n));
      llvm::Value *dk = b_.CreateLoad(f64(), element(A, k, k, n));
      b_.CreateStore(
          b_.CreateFSub(b_.CreateLoad(f64(), acc), b_.CreateFMul(b_.CreateFMul(l, l), dk)), acc);
    });
    llvm::Value *dj = b_.CreateLoad(f64(), acc);
    b_.CreateStore(dj, element(A, j, j, n));
    llvm::Value *bad = b_.CreateZExt(b_.CreateFCmpULE(dj, tolerance), b_.getInt32Ty());
    b_.CreateStore(b_.CreateOr(b_.CreateLoad(b_.getInt32Ty(), status), bad), status);
    loop(b_.CreateAdd(j, b_.getInt64(1)), size, [&](llvm::Value *i) {
      b_.CreateStore(b_.CreateLoad(f64(), element(A, i, j, n)), acc);
      loop(zero, j, [&](llvm::Value *k) {
        llvm::Value *term = b_.CreateFMul(b_.CreateFMul(b_.CreateLoad(f64(), element(A, i, k, n)),
                                                        b_.CreateLoad(f64(), element(A, j, k, n))),
                                          b_.CreateLoad(f64(), element(A, k, k, n)));
        b_.CreateStore(b_.CreateFSub(b_.CreateLoad(f64(), acc), term), acc);
      });
      b_.CreateStore(b_.CreateFDiv(b_.CreateLoad(f64(), acc), dj), element(A, i, j, n));
    });
  });
  return b_.CreateLoad(b_.getInt32Ty(), status);
}

// S mu = r for the Schur complement S (m*m in memory), r in place:
// runtime::solveRegularizedSchur, operation for operation.
void Emitter::regularizedSchurLoops(size_t m, llvm::Value *S, llvm::Value *r) {
  llvm::Value *zero = b_.getInt64(0), *size = b_.getInt64(m);
  llvm::Value *R = stackSlot(f64(), m * m), *kept = stackSlot(f64(), m * m);
  llvm::Value *dependent = stackSlot(f64(), m), *order = stackSlot(b_.getInt64Ty(), m);
  llvm::Value *mu = stackSlot(f64(), m), *residual = stackSlot(f64(), m);
  copyLoops(m * m, S, R);
  factorPivotedLoops(m, R, order, mechanics::kDependentRowTolerance, dependent);
  llvm::Value *largest = largestDiagonalLoops(m, S, /*magnitude=*/false);
  auto isDependent = [&](llvm::Value *i) {
    return b_.CreateFCmpUNE(b_.CreateLoad(f64(), at(dependent, i)), constant(0));
  };
  // The kept rows' S and r (the dependent rows' residual is 0 throughout).
  auto keptResidual = [&](llvm::Value *i) {
    return b_.CreateSelect(isDependent(i), constant(0), b_.CreateLoad(f64(), at(r, i)));
  };
  loop(zero, size, [&](llvm::Value *i) {
    loop(zero, size, [&](llvm::Value *j) {
      llvm::Value *out = b_.CreateOr(isDependent(i), isDependent(j));
      b_.CreateStore(b_.CreateSelect(out, constant(0), b_.CreateLoad(f64(), element(S, i, j, m))),
                     element(kept, i, j, m));
    });
    b_.CreateStore(keptResidual(i), at(residual, i));
    b_.CreateStore(constant(0), at(mu, i));
  });
  copyLoops(m * m, kept, R);
  llvm::Value *eps = b_.CreateFMul(constant(mechanics::kSchurRegularization), largest);
  loop(zero, size, [&](llvm::Value *i) {
    llvm::Value *diagonal = element(R, i, i, m);
    b_.CreateStore(b_.CreateFAdd(b_.CreateLoad(f64(), diagonal), eps), diagonal);
  });
  llvm::Value *bad = factorLoops(m, R, 0);
  for (int pass = 0; pass <= mechanics::kSchurRefinements; ++pass) {
    substituteLoops(m, R, residual); // the correction
    loop(zero, size, [&](llvm::Value *i) {
      b_.CreateStore(
          b_.CreateFAdd(b_.CreateLoad(f64(), at(mu, i)), b_.CreateLoad(f64(), at(residual, i))),
          at(mu, i));
    });
    loop(zero, size, [&](llvm::Value *i) {
      b_.CreateStore(keptResidual(i), at(residual, i));
      loop(zero, size, [&](llvm::Value *j) {
        llvm::Value *term = b_.CreateFMul(b_.CreateLoad(f64(), element(kept, i, j, m)),
                                          b_.CreateLoad(f64(), at(mu, j)));
        b_.CreateStore(b_.CreateFSub(b_.CreateLoad(f64(), at(residual, i)), term), at(residual, i));
      });
    });
  }
  llvm::Value *failed = b_.CreateICmpNE(bad, b_.getInt32(0));
  loop(zero, size, [&](llvm::Value *i) {
    b_.CreateStore(b_.CreateSelect(failed, constant(std::numeric_limits<double>::quiet_NaN()),
                                   b_.CreateLoad(f64(), at(mu, i))),
                   at(r, i));
  });
}

llvm::Value *Emitter::largestDiagonalLoops(size_t n, llvm::Value *A, bool magnitude) {
  llvm::Value *largest = stackSlot(f64());
  b_.CreateStore(constant(0), largest);
  loop(b_.getInt64(0), b_.getInt64(n), [&](llvm::Value *j) {
    llvm::Value *diagonal = b_.CreateLoad(f64(), element(A, j, j, n));
    if (magnitude)
      diagonal = unaryIntrinsic(llvm::Intrinsic::fabs, diagonal);
    b_.CreateStore(
        b_.CreateBinaryIntrinsic(llvm::Intrinsic::maxnum, b_.CreateLoad(f64(), largest), diagonal),
        largest);
  });
  return b_.CreateLoad(f64(), largest);
}

void Emitter::copyLoops(size_t count, llvm::Value *from, llvm::Value *to) {
  loop(b_.getInt64(0), b_.getInt64(count),
       [&](llvm::Value *i) { b_.CreateStore(b_.CreateLoad(f64(), at(from, i)), at(to, i)); });
}

// P A P^T = L D L^T in place with symmetric pivoting, dependent rows
// dropped and marked 1 in dependentRows (n doubles, else 0):
// runtime::factorPivotedLdlt, operation for operation (selects where it has
// conditionals, so that both back ends give the same bits).
void Emitter::factorPivotedLoops(size_t n, llvm::Value *A, llvm::Value *order,
                                 double relativeTolerance, llvm::Value *dependentRows) {
  llvm::Value *zero = b_.getInt64(0), *size = b_.getInt64(n);
  llvm::Value *best = stackSlot(b_.getInt64Ty());
  loop(zero, size,
       [&](llvm::Value *j) { b_.CreateStore(j, b_.CreateInBoundsGEP(b_.getInt64Ty(), order, j)); });
  llvm::Value *tolerance =
      b_.CreateFMul(constant(relativeTolerance), largestDiagonalLoops(n, A, /*magnitude=*/true));
  loop(zero, size, [&](llvm::Value *j) {
    b_.CreateStore(j, best);
    loop(b_.CreateAdd(j, b_.getInt64(1)), size, [&](llvm::Value *i) {
      llvm::Value *p = b_.CreateLoad(b_.getInt64Ty(), best);
      llvm::Value *better = b_.CreateFCmpOGT(b_.CreateLoad(f64(), element(A, i, i, n)),
                                             b_.CreateLoad(f64(), element(A, p, p, n)));
      b_.CreateStore(b_.CreateSelect(better, i, p), best);
    });
    llvm::Value *pivot = b_.CreateLoad(b_.getInt64Ty(), best);
    swapSlots(b_.getInt64Ty(), b_.CreateInBoundsGEP(b_.getInt64Ty(), order, j),
              b_.CreateInBoundsGEP(b_.getInt64Ty(), order, pivot));
    loop(zero, size,
         [&](llvm::Value *k) { swapSlots(f64(), element(A, j, k, n), element(A, pivot, k, n)); });
    loop(zero, size,
         [&](llvm::Value *k) { swapSlots(f64(), element(A, k, j, n), element(A, k, pivot, n)); });
    llvm::Value *d = b_.CreateLoad(f64(), element(A, j, j, n));
    llvm::Value *dependent = b_.CreateFCmpULE(d, tolerance);
    b_.CreateStore(b_.CreateSelect(dependent, constant(0), d), element(A, j, j, n));
    llvm::Value *row =
        b_.CreateLoad(b_.getInt64Ty(), b_.CreateInBoundsGEP(b_.getInt64Ty(), order, j));
    b_.CreateStore(b_.CreateSelect(dependent, constant(1), constant(0)), at(dependentRows, row));
    llvm::Value *next = b_.CreateAdd(j, b_.getInt64(1));
    loop(next, size, [&](llvm::Value *i) {
      loop(next, size, [&](llvm::Value *k) {
        llvm::Value *term = b_.CreateFDiv(b_.CreateFMul(b_.CreateLoad(f64(), element(A, i, j, n)),
                                                        b_.CreateLoad(f64(), element(A, j, k, n))),
                                          d);
        llvm::Value *target = element(A, i, k, n);
        b_.CreateStore(b_.CreateFSub(b_.CreateLoad(f64(), target),
                                     b_.CreateSelect(dependent, constant(0), term)),
                       target);
      });
    });
    loop(next, size, [&](llvm::Value *i) {
      llvm::Value *target = element(A, i, j, n);
      llvm::Value *l = b_.CreateFDiv(b_.CreateLoad(f64(), target), d);
      b_.CreateStore(b_.CreateSelect(dependent, constant(0), l), target);
    });
  });
}

void Emitter::swapSlots(llvm::Type *type, llvm::Value *a, llvm::Value *b) {
  llvm::Value *first = b_.CreateLoad(type, a), *second = b_.CreateLoad(type, b);
  b_.CreateStore(second, a);
  b_.CreateStore(first, b);
}

// Forward substitution, diagonal, back substitution with a factored A; y
// (n doubles in memory) in place.
void Emitter::substituteLoops(size_t n, llvm::Value *A, llvm::Value *y) {
  llvm::Value *zero = b_.getInt64(0), *size = b_.getInt64(n);
  loop(zero, size, [&](llvm::Value *i) {
    loop(zero, i, [&](llvm::Value *k) {
      llvm::Value *yi = b_.CreateLoad(f64(), at(y, i));
      llvm::Value *term =
          b_.CreateFMul(b_.CreateLoad(f64(), element(A, i, k, n)), b_.CreateLoad(f64(), at(y, k)));
      b_.CreateStore(b_.CreateFSub(yi, term), at(y, i));
    });
  });
  loop(zero, size, [&](llvm::Value *i) {
    b_.CreateStore(
        b_.CreateFDiv(b_.CreateLoad(f64(), at(y, i)), b_.CreateLoad(f64(), element(A, i, i, n))),
        at(y, i));
  });
  loop(zero, size, [&](llvm::Value *step) {
    llvm::Value *i = b_.CreateSub(b_.getInt64(n - 1), step);
    loop(b_.CreateAdd(i, b_.getInt64(1)), size, [&](llvm::Value *k) {
      llvm::Value *yi = b_.CreateLoad(f64(), at(y, i));
      llvm::Value *term =
          b_.CreateFMul(b_.CreateLoad(f64(), element(A, k, i, n)), b_.CreateLoad(f64(), at(y, k)));
      b_.CreateStore(b_.CreateFSub(yi, term), at(y, i));
    });
  });
}

// LDL^T solve of M y = f with loops over memory; M overwritten.
llvm::Value *Emitter::solveLoops(size_t n, llvm::Value *M, llvm::Value *y) {
  llvm::Value *status = factorLoops(n, M, mechanics::kPivotTolerance);
  substituteLoops(n, M, y);
  return status;
}

// s = max diag(M) / max |C_i|^2 (1 for a zero C; diag 0 counts as 1), as
// runtime::constraintScale.
llvm::Value *Emitter::constraintScaleLoops(size_t n, size_t m, llvm::Value *M, llvm::Value *C) {
  llvm::Value *zero = b_.getInt64(0), *nn = b_.getInt64(n), *mm = b_.getInt64(m);
  llvm::Value *inertia = stackSlot(f64()), *rows = stackSlot(f64()), *acc = stackSlot(f64());
  b_.CreateStore(constant(0), inertia);
  b_.CreateStore(constant(0), rows);
  loop(zero, nn, [&](llvm::Value *j) {
    llvm::Value *d =
        unaryIntrinsic(llvm::Intrinsic::fabs, b_.CreateLoad(f64(), element(M, j, j, n)));
    b_.CreateStore(
        b_.CreateBinaryIntrinsic(llvm::Intrinsic::maxnum, b_.CreateLoad(f64(), inertia), d),
        inertia);
  });
  loop(zero, mm, [&](llvm::Value *i) {
    b_.CreateStore(constant(0), acc);
    loop(zero, nn, [&](llvm::Value *k) {
      llvm::Value *c = b_.CreateLoad(f64(), element(C, i, k, n));
      b_.CreateStore(b_.CreateFAdd(b_.CreateLoad(f64(), acc), b_.CreateFMul(c, c)), acc);
    });
    b_.CreateStore(b_.CreateBinaryIntrinsic(llvm::Intrinsic::maxnum, b_.CreateLoad(f64(), rows),
                                            b_.CreateLoad(f64(), acc)),
                   rows);
  });
  llvm::Value *I = b_.CreateLoad(f64(), inertia), *R = b_.CreateLoad(f64(), rows);
  llvm::Value *numerator = b_.CreateSelect(b_.CreateFCmpOGT(I, constant(0)), I, constant(1));
  llvm::Value *s =
      b_.CreateSelect(b_.CreateFCmpOEQ(R, constant(0)), constant(1), b_.CreateFDiv(numerator, R));
  return s;
}

// The first-kind equations from the buffer M (n*n), f (n), C (m*n),
// gamma (m), as runtime::solveConstrained (read that for the method);
// q'' into qdd and the multipliers into lambda (memory). Returns the
// status: 0, kStatusSingularMassMatrix or kStatusRedundantConstraints.
llvm::Value *Emitter::solveConstrainedLoops(size_t n, size_t m, llvm::Value *Mf, llvm::Value *qdd,
                                            llvm::Value *lambda) {
  llvm::Value *M = Mf, *f = offset(Mf, n * n), *C = offset(Mf, n * n + n),
              *gamma = offset(Mf, n * n + n + m * n);
  llvm::Value *zero = b_.getInt64(0), *nn = b_.getInt64(n), *mm = b_.getInt64(m);
  llvm::Value *s = constraintScaleLoops(n, m, M, C);
  llvm::Value *acc = stackSlot(f64());
  // M += s C^T C, y = f + s C^T gamma.
  llvm::Value *y = stackSlot(f64(), n);
  loop(zero, nn, [&](llvm::Value *j) { b_.CreateStore(b_.CreateLoad(f64(), at(f, j)), at(y, j)); });
  loop(zero, mm, [&](llvm::Value *i) {
    llvm::Value *gi = b_.CreateLoad(f64(), at(gamma, i));
    loop(zero, nn, [&](llvm::Value *j) {
      llvm::Value *cij = b_.CreateLoad(f64(), element(C, i, j, n));
      llvm::Value *scj = b_.CreateFMul(s, cij); // (s C_ij) gamma_i, as the runtime rounds it
      b_.CreateStore(b_.CreateFAdd(b_.CreateLoad(f64(), at(y, j)), b_.CreateFMul(scj, gi)),
                     at(y, j));
      loop(zero, nn, [&](llvm::Value *k) {
        llvm::Value *target = element(M, j, k, n);
        llvm::Value *term = b_.CreateFMul(scj, b_.CreateLoad(f64(), element(C, i, k, n)));
        b_.CreateStore(b_.CreateFAdd(b_.CreateLoad(f64(), target), term), target);
      });
    });
  });
  llvm::Value *status = stackSlot(b_.getInt32Ty());
  b_.CreateStore(factorLoops(n, M, mechanics::kPivotTolerance), status);
  substituteLoops(n, M, y);
  // Z = (M + s C^T C)^-1 C^T by rows of C; S = C Z^T; r = C y - gamma.
  llvm::Value *Z = stackSlot(f64(), m * n), *S = stackSlot(f64(), m * m), *r = lambda;
  loop(zero, mm, [&](llvm::Value *i) {
    loop(zero, nn, [&](llvm::Value *k) {
      b_.CreateStore(b_.CreateLoad(f64(), element(C, i, k, n)), element(Z, i, k, n));
    });
    substituteLoops(n, M, element(Z, i, zero, n));
  });
  loop(zero, mm, [&](llvm::Value *i) {
    b_.CreateStore(b_.CreateFNeg(b_.CreateLoad(f64(), at(gamma, i))), acc);
    loop(zero, nn, [&](llvm::Value *k) {
      llvm::Value *term =
          b_.CreateFMul(b_.CreateLoad(f64(), element(C, i, k, n)), b_.CreateLoad(f64(), at(y, k)));
      b_.CreateStore(b_.CreateFAdd(b_.CreateLoad(f64(), acc), term), acc);
    });
    b_.CreateStore(b_.CreateLoad(f64(), acc), at(r, i));
    loop(zero, mm, [&](llvm::Value *j) {
      b_.CreateStore(constant(0), acc);
      loop(zero, nn, [&](llvm::Value *k) {
        llvm::Value *term = b_.CreateFMul(b_.CreateLoad(f64(), element(C, i, k, n)),
                                          b_.CreateLoad(f64(), element(Z, j, k, n)));
        b_.CreateStore(b_.CreateFAdd(b_.CreateLoad(f64(), acc), term), acc);
      });
      b_.CreateStore(b_.CreateLoad(f64(), acc), element(S, i, j, m));
    });
  });
  regularizedSchurLoops(m, S, r); // r = mu = -lambda
  loop(zero, nn, [&](llvm::Value *k) {
    b_.CreateStore(b_.CreateLoad(f64(), at(y, k)), acc);
    loop(zero, mm, [&](llvm::Value *i) {
      llvm::Value *term =
          b_.CreateFMul(b_.CreateLoad(f64(), element(Z, i, k, n)), b_.CreateLoad(f64(), at(r, i)));
      b_.CreateStore(b_.CreateFSub(b_.CreateLoad(f64(), acc), term), acc);
    });
    b_.CreateStore(b_.CreateLoad(f64(), acc), at(qdd, k));
  });
  loop(zero, mm, [&](llvm::Value *i) {
    b_.CreateStore(b_.CreateFNeg(b_.CreateLoad(f64(), at(r, i))), at(r, i));
  });
  llvm::Value *previous = b_.CreateLoad(b_.getInt32Ty(), status);
  return b_.CreateSelect(b_.CreateICmpNE(previous, b_.getInt32(0)),
                         b_.getInt32(mechanics::kStatusSingularMassMatrix), b_.getInt32(0));
}

llvm::Value *Emitter::emitMatrixFunction(const std::vector<sym::Instruction> &code,
                                         const sym::Operand *o, size_t i,
                                         const std::vector<llvm::Value *> &v,
                                         std::map<size_t, llvm::Value *> &inverses) {
  const sym::Instruction &instr = code[i];
  if (instr.fn == sym::Fn::Det) // the packed matrix's value
    return v[o[0].value];
  if (instr.fn == sym::Fn::InvEntry) {
    uint32_t matrix = o[2].value;
    return load(inverses.at(matrix), instr.scratch - code[matrix].scratch);
  }
  size_t entries = instr.count, n = sym::packedSide(entries);
  llvm::Value *A = stackSlot(f64(), entries), *inverse = stackSlot(f64(), entries);
  for (size_t k = 0; k < entries; ++k)
    store(v[o[k].value], A, k);
  inverses[i] = inverse;
  return invertLoops(n, A, inverse);
}

llvm::Value *Emitter::invertLoops(size_t n, llvm::Value *A, llvm::Value *inverse) {
  llvm::Value *zero = b_.getInt64(0), *size = b_.getInt64(n);
  loop(zero, b_.getInt64(n * n),
       [&](llvm::Value *k) { b_.CreateStore(constant(0), at(inverse, k)); });
  loop(zero, size, [&](llvm::Value *k) { b_.CreateStore(constant(1), element(inverse, k, k, n)); });
  llvm::Value *det = stackSlot(f64()), *singular = stackSlot(b_.getInt1Ty());
  llvm::Value *best = stackSlot(f64()), *pivotRow = stackSlot(b_.getInt64Ty());
  b_.CreateStore(constant(1), det);
  b_.CreateStore(b_.getFalse(), singular);
  auto magnitude = [&](llvm::Value *address) {
    return unaryIntrinsic(llvm::Intrinsic::fabs, b_.CreateLoad(f64(), address));
  };
  loop(zero, size, [&](llvm::Value *k) {
    // The row of the largest entry in column k at or below the diagonal.
    b_.CreateStore(k, pivotRow);
    b_.CreateStore(magnitude(element(A, k, k, n)), best);
    loop(b_.CreateAdd(k, b_.getInt64(1)), size, [&](llvm::Value *r) {
      llvm::Value *a = magnitude(element(A, r, k, n)), *b = b_.CreateLoad(f64(), best);
      llvm::Value *larger = b_.CreateFCmpOGT(a, b);
      b_.CreateStore(b_.CreateSelect(larger, a, b), best);
      b_.CreateStore(b_.CreateSelect(larger, r, b_.CreateLoad(b_.getInt64Ty(), pivotRow)),
                     pivotRow);
    });
    b_.CreateStore(b_.CreateOr(b_.CreateLoad(b_.getInt1Ty(), singular),
                               b_.CreateFCmpOEQ(b_.CreateLoad(f64(), best), constant(0))),
                   singular);
    llvm::Value *p = b_.CreateLoad(b_.getInt64Ty(), pivotRow);
    loop(zero, size, [&](llvm::Value *j) { // swap rows k and p (a no-op when p == k)
      for (llvm::Value *M : {A, inverse}) {
        llvm::Value *x = element(M, k, j, n), *y = element(M, p, j, n);
        llvm::Value *xv = b_.CreateLoad(f64(), x), *yv = b_.CreateLoad(f64(), y);
        b_.CreateStore(yv, x);
        b_.CreateStore(xv, y);
      }
    });
    llvm::Value *d = b_.CreateLoad(f64(), det);
    d = b_.CreateSelect(b_.CreateICmpNE(p, k), b_.CreateFNeg(d), d);
    llvm::Value *pivot = b_.CreateLoad(f64(), element(A, k, k, n));
    b_.CreateStore(b_.CreateFMul(d, pivot), det);
    llvm::Value *reciprocal = b_.CreateFDiv(constant(1), pivot);
    loop(zero, size, [&](llvm::Value *j) {
      for (llvm::Value *M : {A, inverse}) {
        llvm::Value *x = element(M, k, j, n);
        b_.CreateStore(b_.CreateFMul(b_.CreateLoad(f64(), x), reciprocal), x);
      }
    });
    // Every other row loses its multiple of row k.
    auto eliminate = [&](llvm::Value *r) {
      llvm::Value *f = b_.CreateLoad(f64(), element(A, r, k, n));
      loop(zero, size, [&](llvm::Value *j) {
        for (llvm::Value *M : {A, inverse}) {
          llvm::Value *x = element(M, r, j, n);
          llvm::Value *pivotEntry = b_.CreateLoad(f64(), element(M, k, j, n));
          b_.CreateStore(b_.CreateFSub(b_.CreateLoad(f64(), x), b_.CreateFMul(f, pivotEntry)), x);
        }
      });
    };
    loop(zero, k, eliminate);
    loop(b_.CreateAdd(k, b_.getInt64(1)), size, eliminate);
  });
  return b_.CreateSelect(b_.CreateLoad(b_.getInt1Ty(), singular), constant(0),
                         b_.CreateLoad(f64(), det));
}

} // namespace mech::jit
