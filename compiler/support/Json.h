// A small JSON writer for the CLI's --json output: objects and arrays with
// commas handled, strings escaped, doubles in shortest round-trip form and
// non-finite numbers as null.
#pragma once

#include <string>
#include <vector>

namespace mech {

class JsonWriter {
public:
  JsonWriter &beginObject();
  JsonWriter &endObject();
  JsonWriter &beginArray();
  JsonWriter &endArray();
  JsonWriter &key(const std::string &name);
  JsonWriter &value(const std::string &text);
  JsonWriter &value(const char *text) { return value(std::string(text)); }
  JsonWriter &value(double number);
  JsonWriter &value(bool flag);
  JsonWriter &null();

  const std::string &str() const { return out_; }

private:
  void separate();
  std::string out_;
  std::vector<bool> first_; // per open container: no element written yet
  bool afterKey_ = false;
};

std::string jsonEscape(const std::string &text);

} // namespace mech
