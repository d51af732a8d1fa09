// Named common subexpressions for large displays: uses counted on the DAG,
// names given children first, substitution through the canonical factories.
#include "symbolic/SharedTerms.h"

#include "symbolic/Subs.h"

#include <set>
#include <string>
#include <unordered_map>

namespace mech::sym {

namespace {

// Distinct nodes reachable from e.
size_t dagSize(const Expr &e) {
  std::unordered_map<const Node *, bool> seen;
  std::vector<const Node *> stack = {e.node()};
  while (!stack.empty()) {
    const Node *n = stack.back();
    stack.pop_back();
    if (!seen.emplace(n, true).second)
      continue;
    for (const Node *child : n->ops)
      stack.push_back(child);
  }
  return seen.size();
}

// det(A1) and inv(A1)[i, j] read short once their matrix is named.
bool worthNaming(const Node *n) {
  return n->kind != Kind::Symbol && n->kind != Kind::Number && n->treeSize >= 12 &&
         !(n->kind == Kind::Func && (n->fn == Fn::Det || n->fn == Fn::InvEntry));
}

// Every symbol name in the expressions, so that x1, x2, ... do not clash.
void collectNames(const Node *n, std::set<std::string> &names,
                  std::unordered_map<const Node *, bool> &seen) {
  if (!seen.emplace(n, true).second)
    return;
  if (n->kind == Kind::Symbol)
    names.insert(n->context->symbolInfo(n).name);
  for (const Node *child : n->ops)
    collectNames(child, names, seen);
}

// Whether a packed matrix (symbolic/MatrixFunctions.h) occurs in an
// expression: one with one is named like a large one, so that the matrix
// is printed once. Memoised over all the expressions shown, which share
// most of their nodes: one walk of the DAG in all.
class PackedMatrixSearch {
public:
  bool in(const Node *root) {
    std::vector<std::pair<const Node *, size_t>> stack{{root, 0}};
    while (!stack.empty()) {
      auto &[n, next] = stack.back();
      if (found_.count(n)) {
        stack.pop_back();
        continue;
      }
      if (next < n->ops.size()) {
        const Node *child = n->ops[next++];
        if (!found_.count(child))
          stack.push_back({child, 0});
        continue;
      }
      bool found = n->kind == Kind::Func && n->fn == Fn::Matrix;
      for (const Node *child : n->ops)
        found = found || found_.at(child);
      found_.emplace(n, found);
      stack.pop_back();
    }
    return found_.at(root);
  }

private:
  std::unordered_map<const Node *, bool> found_;
};

} // namespace

std::vector<NamedSubexpression> nameSharedSubexpressions(const std::vector<Expr *> &shown,
                                                         const std::vector<Expr> &derived) {
  std::vector<Expr *> large;
  PackedMatrixSearch withMatrix;
  for (size_t i = 0; i < shown.size(); ++i) {
    Expr &e = *shown[i];
    if (e->treeSize <= kMaxDisplayedTree && !withMatrix.in(e.node()))
      continue;
    if (i < derived.size() && derived[i] && dagSize(derived[i]) < dagSize(e))
      e = derived[i];
    large.push_back(&e);
  }
  if (large.empty())
    return {};
  // Uses: parent edges within the large expressions, plus their roots.
  std::unordered_map<const Node *, int> uses;
  std::vector<const Node *> postOrder;
  std::unordered_map<const Node *, bool> visited;
  for (Expr *root : large) {
    ++uses[root->node()];
    std::vector<std::pair<const Node *, size_t>> stack = {{root->node(), 0}};
    if (!visited.emplace(root->node(), true).second)
      continue;
    while (!stack.empty()) {
      auto &[n, next] = stack.back();
      if (next < n->ops.size()) {
        const Node *child = n->ops[next++];
        ++uses[child];
        if (visited.emplace(child, true).second)
          stack.push_back({child, 0});
        continue;
      }
      postOrder.push_back(n);
      stack.pop_back();
    }
  }
  std::set<std::string> names;
  std::unordered_map<const Node *, bool> seen;
  for (Expr *root : large)
    collectNames(root->node(), names, seen);
  std::unordered_map<const Node *, bool> isRoot;
  for (Expr *root : large)
    isRoot[root->node()] = true;

  Context &c = large.front()->context();
  Substitution named;
  std::vector<NamedSubexpression> definitions;
  int counter = 0, matrices = 0;
  // n named prefix1, prefix2, ... (the first name the model does not use).
  auto name = [&](const Node *n, const char *prefix, int &count) {
    std::string text;
    do
      text = prefix + std::to_string(++count);
    while (names.count(text));
    Expr symbol = c.symbol(text, SymbolKind::Free, count);
    definitions.push_back({symbol, named(Expr(n))});
    named.set(Expr(n), symbol);
  };
  for (const Node *n : postOrder) {
    if (isRoot.count(n))
      continue; // printed as itself
    if (n->kind == Kind::Func && n->fn == Fn::Matrix) {
      // A packed matrix read by several det or inv nodes is printed once:
      // inv(A1)[1, 2] (its name stands for it in print only).
      if (uses[n] >= 2)
        name(n, "A", matrices);
      continue;
    }
    bool shared = uses[n] >= 2 && worthNaming(n);
    bool bigPart = n->kind == Kind::Add && n->treeSize > kMaxDisplayedTree / 4;
    if (shared || bigPart)
      name(n, "x", counter);
  }
  for (Expr *root : large)
    *root = named(*root);
  return definitions;
}

} // namespace mech::sym
