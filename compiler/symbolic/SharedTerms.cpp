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

bool worthNaming(const Node *n) {
  return n->kind != Kind::Symbol && n->kind != Kind::Number && n->treeSize >= 12;
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

} // namespace

std::vector<NamedSubexpression> nameSharedSubexpressions(const std::vector<Expr *> &shown,
                                                         const std::vector<Expr> &derived) {
  std::vector<Expr *> large;
  for (size_t i = 0; i < shown.size(); ++i) {
    Expr &e = *shown[i];
    if (e->treeSize <= kMaxDisplayedTree)
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
  int counter = 0;
  for (const Node *n : postOrder) {
    if (isRoot.count(n))
      continue; // printed as itself
    bool shared = uses[n] >= 2 && worthNaming(n);
    bool bigPart = n->kind == Kind::Add && n->treeSize > kMaxDisplayedTree / 4;
    if (!shared && !bigPart)
      continue;
    std::string name;
    do
      name = "x" + std::to_string(++counter);
    while (names.count(name));
    Expr symbol = c.symbol(name, SymbolKind::Free, counter);
    definitions.push_back({symbol, named(Expr(n))});
    named.set(Expr(n), symbol);
  }
  for (Expr *root : large)
    *root = named(*root);
  return definitions;
}

} // namespace mech::sym
