// The session's lazily computed stages (driver/Session.h).
#include "driver/Session.h"

#include "driver/DerivationCache.h"

#include "support/ListItems.h"
#include "support/NumberText.h"

#include "mechanics/Lagrange.h"
#include "syntax/Printer.h"

#include <ostream>

namespace mech::driver {

Session::Session(sema::SearchPath searchPath) : searchPath_(std::move(searchPath)) {}

std::unique_ptr<LoadedModel> Session::check(const std::vector<std::string> &settings) const {
  if (!file_.empty())
    return loadModel(file_, settings, searchPath_, /*derive=*/false, additions_);
  sema::SearchPath path = searchPath_;
  if (!importFolder_.empty())
    path.folders.insert(path.folders.begin(), importFolder_);
  return loadModelText(name_, text_, settings, path, /*derive=*/false, additions_);
}

void Session::setAdditions(std::vector<sema::Addition> additions) {
  additions_ = std::move(additions);
  loaded_.reset();
  rejected_.reset();
}

std::unique_ptr<Session> Session::withSettings(const std::vector<std::string> &extra) const {
  auto copy = std::make_unique<Session>(searchPath_);
  copy->file_ = file_;
  copy->name_ = name_;
  copy->text_ = text_;
  copy->importFolder_ = importFolder_;
  copy->settings_ = settings_;
  copy->settings_.insert(copy->settings_.end(), extra.begin(), extra.end());
  copy->additions_ = additions_;
  return copy;
}

std::string Session::text() {
  const sema::LoadedFile *file = loaded().analysis.file;
  return file && file->ast ? formatFile(*file->ast) : "";
}

void Session::loadFile(const std::string &path, std::vector<std::string> settings) {
  file_ = name_ = path;
  text_.clear();
  importFolder_.clear();
  settings_ = std::move(settings);
  loaded_.reset();
}

void Session::loadText(const std::string &name, const std::string &text,
                       std::vector<std::string> settings, const std::string &importFolder) {
  file_.clear();
  name_ = name;
  text_ = text;
  importFolder_ = importFolder;
  settings_ = std::move(settings);
  loaded_.reset();
}

LoadedModel &Session::loaded() {
  if (!loaded_)
    loaded_ = check(settings_);
  return *loaded_;
}

bool Session::checked() {
  return loaded().analysis.ok && loaded_->analysis.model;
}

std::vector<std::string> Session::filesRead() const {
  return loaded_ ? loaded_->compilation->filesRead() : std::vector<std::string>{};
}

std::vector<std::string> Session::dataFilesRead() const {
  return loaded_ ? loaded_->compilation->dataFilesRead() : std::vector<std::string>{};
}

bool Session::derive() {
  if (!checked())
    return false;
  if (!loaded_->derivation) {
    DerivationOutcome outcome;
    loaded_->derivation = deriveThroughCache(*loaded_, useDerivationCache_, outcome);
    derivedFromCache_ = outcome.fromCache;
    derivationCacheWarning_ = outcome.warning;
  }
  return loaded_->derivation.has_value();
}

// The settings after a :set, as one text naming every param set so far by
// its value (plain numbers are SI): a later setting of a family then wins
// over an earlier one of a member, as it does in a session, while one text
// keeps the rule that a member named explicitly wins over its family.
std::vector<std::string> Session::settledSettings(const sema::CheckedModel &model) {
  std::string text;
  for (const sema::Param &p : model.params)
    if (p.overridden)
      text += (text.empty() ? "" : ", ") + p.name + " = " + shortestNumber(p.value);
  if (text.empty())
    return {};
  return {text};
}

namespace {

// The name an assignment `m[2] = 3` sets, without blanks.
std::string assignedName(const std::string &item) {
  std::string name;
  for (char c : item.substr(0, item.find('=')))
    if (c != ' ' && c != '\t')
      name += c;
  return name;
}

// The earlier settings without the assignments a new text sets again (the
// family m covers m[2] too), so that in a session the later value wins.
std::vector<std::string> withoutCovered(const std::vector<std::string> &settings,
                                        const std::string &text) {
  std::vector<std::string> names;
  for (const ListItem &item : splitListItems(text))
    names.push_back(assignedName(text.substr(item.begin, item.end - item.begin)));
  auto covered = [&](const std::string &name) {
    for (const std::string &n : names)
      if (name == n || (n.find('[') == std::string::npos && name.rfind(n + "[", 0) == 0))
        return true;
    return false;
  };
  std::vector<std::string> kept;
  for (const std::string &setting : settings) {
    std::string rest;
    for (const ListItem &item : splitListItems(setting)) {
      std::string assignment = setting.substr(item.begin, item.end - item.begin);
      if (!covered(assignedName(assignment)))
        rest += (rest.empty() ? "" : ",") + assignment;
    }
    if (!rest.empty())
      kept.push_back(rest);
  }
  return kept;
}

} // namespace

std::optional<Session::SetOutcome> Session::set(const std::string &text) {
  std::vector<std::string> settings = withoutCovered(settings_, text);
  settings.push_back(text);
  loaded();
  std::unique_ptr<LoadedModel> next = check(settings);
  if (!next->analysis.ok || !next->analysis.model || !checked()) {
    rejected_ = std::move(next); // its errors, for printDiagnostics
    return std::nullopt;
  }
  sema::CheckedModel &current = *loaded_->analysis.model;
  const sema::CheckedModel &checkedNext = *next->analysis.model;
  bool sameStructure = current.params.size() == checkedNext.params.size() &&
                       current.coords.size() == checkedNext.coords.size();
  for (size_t i = 0; sameStructure && i < current.params.size(); ++i)
    sameStructure =
        !current.params[i].structural || current.params[i].value == checkedNext.params[i].value;
  settings_ = settledSettings(checkedNext);
  SetOutcome outcome;
  if (!sameStructure) {
    outcome.rederived = true;
    loaded_ = std::move(next);
    return outcome;
  }
  // Params are symbols in the derivation: only their values move.
  for (size_t i = 0; i < current.params.size(); ++i)
    if (current.params[i].value != checkedNext.params[i].value) {
      current.params[i].value = checkedNext.params[i].value;
      current.params[i].overridden = true;
      outcome.changed.push_back(current.params[i].name);
    }
  return outcome;
}

void Session::printDiagnostics(std::ostream &err) {
  if (rejected_) {
    rejected_->diagnostics().print(err);
    rejected_.reset();
  }
  if (loaded_) {
    diagnostics().print(err);
    diagnostics().clear();
  }
}

} // namespace mech::driver
