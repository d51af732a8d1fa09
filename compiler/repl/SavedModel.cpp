// The defaults are replaced in the text itself, so that comments, layout
// and every other declaration stay as written. A default ends at the first
// ',' or '#' or line end outside brackets.
#include "repl/SavedModel.h"

#include "sema/Units.h"
#include "support/NumberText.h"
#include "syntax/Parser.h"
#include "syntax/Printer.h"

#include <algorithm>

namespace mech::repl {

namespace {

// The byte offset of a 1-based line and column (columns count code points).
size_t offsetOf(const std::string &text, int line, int column) {
  size_t at = 0;
  for (int l = 1; l < line && at < text.size(); ++l) {
    size_t newline = text.find('\n', at);
    at = newline == std::string::npos ? text.size() : newline + 1;
  }
  for (int c = 1; c < column && at < text.size(); ++c) {
    ++at;
    while (at < text.size() && (static_cast<unsigned char>(text[at]) & 0xC0) == 0x80)
      ++at;
  }
  return at;
}

// Where the default that starts at `from` ends (trailing blanks excluded).
size_t defaultEnd(const std::string &text, size_t from) {
  int depth = 0;
  size_t at = from;
  for (; at < text.size(); ++at) {
    char c = text[at];
    if (c == '(' || c == '[' || c == '{')
      ++depth;
    else if ((c == ')' || c == ']' || c == '}') && --depth < 0)
      break;
    else if (depth == 0 && (c == ',' || c == '#' || c == '\n'))
      break;
  }
  while (at > from && (text[at - 1] == ' ' || text[at - 1] == '\t' || text[at - 1] == '\r'))
    --at;
  return at;
}

std::string valueText(const sema::Param &param, const ast::ParamItem &item) {
  if (item.unit) {
    // The unit is on the name: the default is a number in that unit.
    Diagnostics scratch;
    auto unit = sema::evaluateUnit(*item.unit, scratch);
    return shortestNumber(unit ? param.value / unit->scaleAsDouble() : param.value);
  }
  std::string text = shortestNumber(param.value);
  if (param.dim.isKnown() && !param.dim.dimension.isDimensionless())
    text += " [" + param.dim.dimension.toString() + "]";
  return text;
}

struct FamilyEdit {
  size_t from, to;
  std::string value;
};

// A family with a member set from outside is written out as a list of its
// members' values (`m[1..3] [kg] = [1, 5, 3]`), from its name to the end of
// its default.
std::optional<FamilyEdit> familyEdit(const std::string &text, const ast::ParamItem &item,
                                     const std::vector<sema::Param> &params) {
  std::vector<std::string> values;
  bool overridden = false;
  for (const sema::Param &param : params)
    if (param.family == item.name) {
      overridden = overridden || param.overridden;
      values.push_back(valueText(param, item));
    }
  if (!overridden || !item.value)
    return std::nullopt;
  size_t from = offsetOf(text, item.location.line, item.location.column);
  size_t valueFrom = offsetOf(text, item.value->location.line, item.value->location.column);
  std::string list;
  for (size_t i = 0; i < values.size(); ++i)
    list += (i ? ", " : "") + values[i];
  std::string unit = item.unit ? " [" + formatUnit(*item.unit) + "]" : "";
  return FamilyEdit{from, defaultEnd(text, valueFrom),
                    item.name + "[" + formatExpr(*item.family->from) + ".." +
                        formatExpr(*item.family->to) + "]" + unit + " = [" + list + "]"};
}

} // namespace

std::string withParamValues(const std::string &text, const std::vector<sema::Param> &params) {
  SourceFile source("<save>", text);
  Diagnostics diagnostics;
  std::unique_ptr<ast::File> file = parseFile(source, diagnostics);
  if (!file || diagnostics.hasErrors() || !file->model())
    return text;
  struct Edit {
    size_t from, to;
    std::string value;
  };
  std::vector<Edit> edits;
  for (const ast::Decl &decl : file->model()->body) {
    auto *paramDecl = std::get_if<ast::ParamDecl>(&decl.node);
    if (paramDecl == nullptr)
      continue;
    for (const ast::ParamItem &item : paramDecl->items) {
      if (item.family) {
        if (auto edit = familyEdit(text, item, params))
          edits.push_back({edit->from, edit->to, edit->value});
        continue;
      }
      auto param = std::find_if(params.begin(), params.end(),
                                [&](const sema::Param &p) { return p.name == item.name; });
      if (param == params.end() || !param->overridden || !item.value)
        continue;
      size_t from = offsetOf(text, item.value->location.line, item.value->location.column);
      edits.push_back({from, defaultEnd(text, from), valueText(*param, item)});
    }
  }
  std::string out = text;
  std::sort(edits.begin(), edits.end(),
            [](const Edit &a, const Edit &b) { return a.from > b.from; });
  for (const Edit &e : edits)
    out.replace(e.from, e.to - e.from, e.value);
  return out;
}

} // namespace mech::repl
